/**
 * `ToolCall`, one parsed call of a tool: at the bottom of the runtime because a tool's own options see it
 * (`ToolContext.toolCall`, an error handler's second argument).
 */

/** A parsed tool call, with the wire names OpenAI and LangChain share (LangChain `ToolCall`). */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  id: string;
  type?: "tool_call";
}
