/**
 * Reading the tool calls out of an assistant message, whatever shape it came in, into one ordered list.
 *
 * - OpenAI `ChatCompletionMessage`: `tool_calls[].function.arguments` is JSON text, parsed later per call so that a
 *   malformed call only fails itself.
 * - LangChain-style `AIMessage`: `tool_calls[].args` are objects already; `invalid_tool_calls` are answered too
 *   (after the valid ones), because every call id the model produced needs an answer.
 * Shapes are detected per call, not per message, so a hand-built mixture still works.
 */
import type { DispatchInput, InvalidToolCall, OpenAIToolCall, ToolCall } from "./messages";

/** One call to answer, before its arguments are read. */
export type NormalizedCall =
  /** Arguments arrived as an object (LangChain `ToolCall`). */
  | { kind: "args"; id: string; name: string; args: unknown }
  /** Arguments arrived as JSON text (OpenAI). */
  | { kind: "text"; id: string; name: string; text: string }
  /** The caller or the provider already marked the call as unusable; `error` says why when known. */
  | { kind: "invalid"; id: string; name: string; text?: string; error?: string };

/** Every call in `message`, in the order they must be answered: `tool_calls`, then `invalid_tool_calls`. */
export function normalizeCalls(message: DispatchInput): NormalizedCall[] {
  if (typeof message !== "object" || message === null) {
    throw new TypeError(
      "dispatch expects an assistant message with tool_calls (an OpenAI ChatCompletionMessage or a LangChain AIMessage).",
    );
  }
  const calls: NormalizedCall[] = [];
  const toolCalls: unknown = message.tool_calls;
  if (Array.isArray(toolCalls)) {
    for (const call of toolCalls) calls.push(normalizeToolCall(call));
  }
  const invalid: unknown = "invalid_tool_calls" in message ? message.invalid_tool_calls : undefined;
  if (Array.isArray(invalid)) {
    for (const call of invalid) calls.push(normalizeInvalidCall(call));
  }
  return calls;
}

/** One entry of `tool_calls`, in either provider's shape. */
export function normalizeToolCall(call: unknown): NormalizedCall {
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
    const custom = record.custom as { name?: unknown } | undefined;
    return {
      kind: "invalid",
      id,
      name: typeof custom?.name === "string" ? custom.name : "",
      error: "custom (free-text) tool calls are not supported; only function tools are registered",
    };
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

function normalizeInvalidCall(call: unknown): NormalizedCall {
  const record = (typeof call === "object" && call !== null ? call : {}) as InvalidToolCall;
  return {
    kind: "invalid",
    id: typeof record.id === "string" ? record.id : "",
    name: typeof record.name === "string" ? record.name : "",
    ...(typeof record.args === "string" ? { text: record.args } : {}),
    ...(typeof record.error === "string" && record.error !== "" ? { error: record.error } : {}),
  };
}
