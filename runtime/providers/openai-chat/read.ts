/**
 * Reading Chat Completions and LangChain messages: their message and call types, `hasFunctionCall`, and the calls
 * of a message (`tool_calls`, then `invalid_tool_calls`) as dispatch reads them. Apart from the rest of the chat
 * provider so that the registry core reads chat messages (its one static format, also `invoke(call)`'s) without
 * loading tool export, strict mode or the stream accumulator.
 */
import type { NormalizedCall } from "../../dispatch/call";
import type { ToolCall } from "../../tool/call";
import type { OpenAICustomToolCall } from "./wire";

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

/** True for a legacy functions-API reply (a `function_call` and no `tool_calls`); narrows it for `dispatch`. */
export function hasFunctionCall<M extends object>(message: M): message is M & OpenAIFunctionCallMessage {
  const record = message as { function_call?: unknown; tool_calls?: unknown };
  const fn = record.function_call;
  return typeof fn === "object" && fn !== null && !(Array.isArray(record.tool_calls) && record.tool_calls.length > 0);
}

/** Chat Completions / LangChain: `tool_calls`, then `invalid_tool_calls` (answered after the valid ones). */
export function readChatCalls(message: DispatchInput): NormalizedCall[] {
  const toolCalls: unknown = message.tool_calls;
  const count = Array.isArray(toolCalls) ? toolCalls.length : 0;
  const invalid: unknown = "invalid_tool_calls" in message ? message.invalid_tool_calls : undefined;
  // The most common message, one call, read into an array literal: cheaper than an array made by length and filled.
  if (count === 1 && !Array.isArray(invalid)) return [readToolCall((toolCalls as unknown[])[0])];
  // Sized once: this runs for every dispatched message.
  const calls: NormalizedCall[] = new Array<NormalizedCall>(count);
  for (let i = 0; i < count; i++) calls[i] = readToolCall((toolCalls as unknown[])[i]);
  if (Array.isArray(invalid)) {
    for (const call of invalid) calls.push(readInvalidCall(call));
  }
  return calls;
}

/**
 * One entry of `tool_calls`, in either shape (OpenAI `function.arguments` text, LangChain parsed `args`), detected
 * per call so that a hand-built mixture still works; also `registry.invoke(call)`'s reading of one call. The
 * common shape (`{ id, function: { name, arguments } }`, all three strings) is asked for first, in a function small
 * enough to be taken in line where it is called.
 */
export function readToolCall(call: unknown): NormalizedCall {
  const fn = typeof call === "object" && call !== null ? (call as { function?: unknown }).function : undefined;
  if (typeof fn === "object" && fn !== null) {
    const id = (call as { id?: unknown }).id;
    const { name, arguments: text } = fn as { name?: unknown; arguments?: unknown };
    if (typeof id === "string" && typeof name === "string" && typeof text === "string")
      return { kind: "text", id, name, text };
  }
  return readOtherCall(call);
}

/** A call of any other shape than the common one (see `readToolCall`). */
function readOtherCall(call: unknown): NormalizedCall {
  if (typeof call !== "object" || call === null) {
    return { kind: "invalid", id: "", name: "", error: "the tool call is not an object" };
  }
  const record = call as Record<string, unknown>;
  const id = typeof record.id === "string" ? record.id : "";
  const fn = record.function;
  if (typeof fn === "object" && fn !== null) {
    const { name, arguments: args } = fn as Partial<OpenAIToolCall["function"]>;
    const toolName = typeof name === "string" ? name : "";
    // Some gateways hand over already-parsed arguments; accept them rather than fail the call.
    if (typeof args === "string") return { kind: "text", id, name: toolName, text: args };
    if (args === undefined || args === null) return { kind: "text", id, name: toolName, text: "" };
    return { kind: "args", id, name: toolName, args };
  }
  if (record.type === "custom") {
    // A free-form tool's call: its raw text, never parsed.
    const custom = record.custom as { name?: unknown; input?: unknown } | undefined;
    const name = typeof custom?.name === "string" ? custom.name : "";
    if (typeof custom?.input === "string") return { kind: "input", id, name, input: custom.input };
    return { kind: "invalid", id, name, error: "the custom tool call has no input text" };
  }
  if ("args" in record) {
    const name = typeof record.name === "string" ? record.name : "";
    return { kind: "args", id, name, args: (record as Partial<ToolCall>).args };
  }
  return {
    kind: "invalid",
    id,
    name: typeof record.name === "string" ? record.name : "",
    error: "the tool call has neither `args` nor `function.arguments`",
  };
}

function readInvalidCall(call: unknown): NormalizedCall {
  const record = (typeof call === "object" && call !== null ? call : {}) as InvalidToolCall;
  return {
    kind: "invalid",
    id: typeof record.id === "string" ? record.id : "",
    name: typeof record.name === "string" ? record.name : "",
    ...(typeof record.args === "string" ? { text: record.args } : {}),
    ...(typeof record.error === "string" && record.error !== "" ? { error: record.error } : {}),
  };
}
