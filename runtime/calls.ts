/**
 * Reading the tool calls out of a model's message, whatever format it came in, into one ordered list, and naming
 * that format so the answer can be written in kind (answer.ts).
 *
 * - OpenAI Chat Completions `tool_calls[].function.arguments` is JSON text, parsed later per call so that a
 *   malformed call only fails itself; the legacy `function_call` is one such call.
 * - LangChain-style `AIMessage`: `tool_calls[].args` are objects already; `invalid_tool_calls` are answered too
 *   (after the valid ones), because every call id the model produced needs an answer.
 * - Responses API: `function_call` items of a `Response`'s `output` (or of an item list), keyed by `call_id`.
 * - Anthropic: `tool_use` blocks of a message's `content` list (`input` is an object).
 * - Gemini: `functionCall` parts of a `GenerateContentResponse`'s first candidate, or of a `Content`.
 * The format is recognised from the message's shape (see `messageFormat`); within the chat format, call shapes are
 * detected per call, so a hand-built mixture still works.
 */
import type { DispatchInput, InvalidToolCall, OpenAIToolCall, ToolCall } from "./messages";

/** The formats dispatch reads and answers in. */
export type MessageFormat = "chat" | "openai-function" | "responses" | "anthropic" | "gemini";

/** One call to answer, before its arguments are read. */
export type NormalizedCall =
  /** Arguments arrived as an object (LangChain `ToolCall`). */
  | { kind: "args"; id: string; name: string; args: unknown }
  /** Arguments arrived as JSON text (OpenAI). */
  | { kind: "text"; id: string; name: string; text: string }
  /** The caller or the provider already marked the call as unusable; `error` says why when known. */
  | { kind: "invalid"; id: string; name: string; text?: string; error?: string };

/**
 * The format of a message, from its shape (mirrored by the `DispatchResult` type): a list or an `output` list is the
 * Responses API; a `function_call` without `tool_calls` is the legacy functions API; `tool_calls` (or
 * `invalid_tool_calls`) is Chat Completions / LangChain; `candidates` or `parts` is Gemini; a `content` list is
 * Anthropic; anything else is read as a chat message (with no calls).
 */
export function messageFormat(message: unknown): MessageFormat {
  if (typeof message !== "object" || message === null) {
    throw new TypeError(
      "dispatch expects a model message with tool calls: an OpenAI ChatCompletionMessage, a Responses API response (or its output items), an Anthropic message, a Gemini response or Content, or a LangChain AIMessage.",
    );
  }
  if (Array.isArray(message)) return "responses";
  const record = message as Record<string, unknown>;
  if (Array.isArray(record.output)) return "responses";
  const toolCalls = record.tool_calls;
  const fn = record.function_call;
  if (typeof fn === "object" && fn !== null && !(Array.isArray(toolCalls) && toolCalls.length > 0)) return "openai-function";
  if ("tool_calls" in record || "invalid_tool_calls" in record) return "chat";
  if ("candidates" in record || "parts" in record || "functionCalls" in record || "usageMetadata" in record) return "gemini";
  if (Array.isArray(record.content)) return "anthropic";
  return "chat";
}

/** The message's format and every call in it, in the order they must be answered. */
export function readCalls(message: unknown): { format: MessageFormat; calls: NormalizedCall[] } {
  const format = messageFormat(message);
  const record = message as Record<string, unknown>;
  switch (format) {
    case "responses":
      return { format, calls: responsesCalls(Array.isArray(message) ? message : (record.output as unknown[])) };
    case "openai-function":
      return { format, calls: [normalizeToolCall({ id: "", function: record.function_call })] };
    case "anthropic":
      return { format, calls: anthropicCalls(record.content as unknown[]) };
    case "gemini":
      return { format, calls: geminiCalls(record) };
    case "chat":
      return { format, calls: chatCalls(message as DispatchInput) };
  }
}

/** Every call in `message`, whatever its format, in the order they must be answered. */
export function normalizeCalls(message: unknown): NormalizedCall[] {
  return readCalls(message).calls;
}

/** Chat Completions / LangChain: `tool_calls`, then `invalid_tool_calls`. */
function chatCalls(message: DispatchInput): NormalizedCall[] {
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

/** Responses API: every `function_call` item (other items, such as messages and reasoning, carry no call). */
function responsesCalls(items: readonly unknown[]): NormalizedCall[] {
  const calls: NormalizedCall[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const record = item as Record<string, unknown>;
    if (record.type !== "function_call") continue;
    const id = typeof record.call_id === "string" ? record.call_id : "";
    const name = typeof record.name === "string" ? record.name : "";
    const args = record.arguments;
    if (typeof args === "string") calls.push({ kind: "text", id, name, text: args });
    else if (args === undefined || args === null) calls.push({ kind: "text", id, name, text: "" });
    else calls.push({ kind: "args", id, name, args });
  }
  return calls;
}

/** A call whose arguments arrived as an object, with its id and name where they are strings. */
function argsCall(record: Record<string, unknown>, args: unknown): NormalizedCall {
  return {
    kind: "args",
    id: typeof record.id === "string" ? record.id : "",
    name: typeof record.name === "string" ? record.name : "",
    args,
  };
}

/** Anthropic: every `tool_use` block (`input` is an object already). */
function anthropicCalls(blocks: readonly unknown[]): NormalizedCall[] {
  const calls: NormalizedCall[] = [];
  for (const block of blocks) {
    if (typeof block !== "object" || block === null) continue;
    const record = block as Record<string, unknown>;
    if (record.type !== "tool_use") continue;
    calls.push(argsCall(record, record.input));
  }
  return calls;
}

/** Gemini: `functionCall` parts of the first candidate's content, or of the Content itself. */
function geminiCalls(message: Record<string, unknown>): NormalizedCall[] {
  let parts: unknown = message.parts;
  if (Array.isArray(message.candidates)) {
    const candidate: unknown = message.candidates[0];
    const content = typeof candidate === "object" && candidate !== null ? (candidate as { content?: unknown }).content : undefined;
    parts = typeof content === "object" && content !== null ? (content as { parts?: unknown }).parts : undefined;
  }
  const calls: NormalizedCall[] = [];
  if (!Array.isArray(parts)) return calls;
  for (const part of parts) {
    if (typeof part !== "object" || part === null) continue;
    const call: unknown = (part as { functionCall?: unknown }).functionCall;
    if (typeof call !== "object" || call === null) continue;
    const record = call as Record<string, unknown>;
    calls.push(argsCall(record, record.args));
  }
  return calls;
}
