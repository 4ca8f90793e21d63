/**
 * The message shapes dispatch reads and writes, with the wire names OpenAI and LangChain share.
 *
 * Inputs are an OpenAI `ChatCompletionMessage` (JSON-string arguments) or a LangChain-style `AIMessage` (parsed
 * `args`, `invalid_tool_calls`); calls.ts reads both into one list of calls. Outputs are `ToolMessage`s whose JSON
 * form is exactly what the OpenAI API accepts, so artifacts never reach the model.
 */

/** A parsed tool call (LangChain `ToolCall`). */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  id: string;
  type?: "tool_call";
}

/** A tool call whose arguments could not be parsed (LangChain `InvalidToolCall`). */
export interface InvalidToolCall {
  name?: string;
  args?: string;
  id?: string;
  error?: string;
  type?: "invalid_tool_call";
}

/** An OpenAI Chat Completions tool call: `arguments` is JSON text and may be malformed. */
export interface OpenAIToolCall {
  id: string;
  type?: "function" | string;
  function: { name: string; arguments: string };
}

/**
 * An OpenAI custom tool call (free-text input, no JSON Schema). Listed so that a `ChatCompletionMessage` type-checks
 * as dispatch input; tooltype tools are function tools, so such a call is answered with an error message.
 */
export interface OpenAICustomToolCall {
  id: string;
  type: "custom";
  custom: { name: string; input: string };
}

/** A tool call as LangChain messages carry it: like {@link ToolCall}, but the id may be missing. */
export type ToolCallInput = Omit<ToolCall, "id"> & { id?: string };

/** A LangChain-style AI message. */
export interface AIMessage {
  content?: unknown;
  tool_calls?: ToolCallInput[];
  invalid_tool_calls?: InvalidToolCall[];
}

/** An OpenAI `ChatCompletionMessage` (or any message carrying OpenAI-shaped `tool_calls`). */
export interface OpenAIAssistantMessage {
  role?: string;
  content?: unknown;
  tool_calls?: (OpenAIToolCall | OpenAICustomToolCall)[] | null;
}

/** What `dispatch` accepts. */
export type DispatchInput = AIMessage | OpenAIAssistantMessage;

export type ToolMessageStatus = "success" | "error";

export interface ToolMessageFields<Artifact = unknown> {
  tool_call_id: string;
  name: string;
  content: string;
  artifact?: Artifact;
  status?: ToolMessageStatus;
}

/**
 * The answer to one tool call. `toJSON()` gives exactly `{ role, tool_call_id, content }`, so a message list holding
 * ToolMessages can be sent to the OpenAI SDK as is and the artifact stays in this process.
 */
export class ToolMessage<Artifact = unknown> {
  readonly role = "tool" as const;
  readonly type = "tool" as const;
  tool_call_id: string;
  name: string;
  content: string;
  artifact?: Artifact;
  status: ToolMessageStatus;

  constructor(fields: ToolMessageFields<Artifact>) {
    this.tool_call_id = fields.tool_call_id;
    this.name = fields.name;
    this.content = fields.content;
    if (fields.artifact !== undefined) this.artifact = fields.artifact;
    this.status = fields.status ?? "success";
  }

  toJSON(): { role: "tool"; tool_call_id: string; content: string } {
    return { role: this.role, tool_call_id: this.tool_call_id, content: this.content };
  }
}
