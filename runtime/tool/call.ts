/**
 * `ToolCall`: one parsed call of a tool, with the wire names OpenAI and LangChain share. It sits at the bottom of the
 * runtime because a tool's own options see it (`ToolContext.toolCall`, an error handler's second argument); reading
 * calls out of a model's message is each provider's job (runtime/providers/).
 */

/** A parsed tool call (LangChain `ToolCall`). */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  id: string;
  type?: "tool_call";
}
