/**
 * The message shapes dispatch reads and writes, with the wire names OpenAI and LangChain share.
 *
 * Inputs are an OpenAI `ChatCompletionMessage` (JSON-string arguments) or a LangChain-style `AIMessage` (parsed
 * `args`, `invalid_tool_calls`), and the other providers' messages (their types live in formats/); calls.ts reads
 * them all into one list of calls. Every call is answered by a `ToolMessage`, whose JSON form is exactly what the
 * OpenAI API accepts, so artifacts never reach the model; `DispatchResult` says what dispatch makes of them for
 * each input format.
 */
import type { AnthropicAssistantMessage, AnthropicToolResultMessage } from "./formats/anthropic";
import type { GeminiFunctionResponseContent, GeminiInput } from "./formats/gemini";
import type { OpenAIFunctionMessage } from "./formats/openai";
import type { ResponsesFunctionCallOutput, ResponsesInput } from "./formats/responses";

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

/** A Chat Completions or LangChain message: what `dispatch` answers with `ToolMessage[]`. */
export type DispatchInput = AIMessage | OpenAIAssistantMessage;

/** An assistant message of the legacy functions API: one `function_call`, answered with one `function` message. */
export interface OpenAIFunctionCallMessage {
  role?: string;
  content?: unknown;
  function_call: { name: string; arguments: string };
}

/**
 * Everything `dispatch` reads: Chat Completions and LangChain messages, the legacy `function_call`, a Responses API
 * response or item list, an Anthropic message, a Gemini response or `Content`.
 */
export type ToolCallMessage =
  | DispatchInput
  | OpenAIFunctionCallMessage
  | ResponsesInput
  | AnthropicAssistantMessage
  | GeminiInput;

/**
 * What `dispatch` resolves to for a message of type `M`: the answer in the message's own format. Mirrors the run-time
 * recognition (calls.ts `messageFormat`) on the message's static type:
 * - a list, or an object with an `output` list (Responses API) → `function_call_output` items;
 * - a required `function_call` (legacy functions API) → one `{ role: "function", name, content }` message;
 * - a type with `tool_calls` (Chat Completions, LangChain) → `ToolMessage[]`;
 * - a type with `candidates` or `parts` (Gemini) → one `user` Content of `functionResponse` parts;
 * - a type whose `content` may be a list of blocks (Anthropic) → one `user` message of `tool_result` blocks;
 * - anything else → `ToolMessage[]`.
 * An SDK `ChatCompletionMessage` has an optional `function_call`, so it gets `ToolMessage[]`; narrow it with
 * `hasFunctionCall(message)` to get the legacy answer's type.
 */
export type DispatchResult<M> = M extends readonly unknown[]
  ? ResponsesFunctionCallOutput[]
  : M extends { output: readonly unknown[] }
    ? ResponsesFunctionCallOutput[]
    : M extends { function_call: { name: string; arguments: string } }
      ? OpenAIFunctionMessage
      : "tool_calls" extends keyof M
        ? ToolMessage[]
        : "candidates" extends keyof M
          ? GeminiFunctionResponseContent
          : "parts" extends keyof M
            ? GeminiFunctionResponseContent
            : M extends { content: infer C }
              ? [Extract<C, readonly unknown[]>] extends [never]
                ? ToolMessage[]
                : AnthropicToolResultMessage
              : ToolMessage[];

/** True for a legacy functions-API reply (a `function_call` and no `tool_calls`); narrows it for `dispatch`. */
export function hasFunctionCall<M extends object>(message: M): message is M & OpenAIFunctionCallMessage {
  const record = message as { function_call?: unknown; tool_calls?: unknown };
  const fn = record.function_call;
  return typeof fn === "object" && fn !== null && !(Array.isArray(record.tool_calls) && record.tool_calls.length > 0);
}

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
