/**
 * Which model API a message comes from, from its shape alone, without loading any provider: the predicates each
 * provider's `owns` is, and `formatOf`, which asks them in the order of the provider list (index.ts). The registry
 * core dispatches with this and loads a provider module only for a format it meets (providers/load.ts).
 *
 * Order matters where shapes overlap: a list or an `output` list is the Responses API; a `function_call` without
 * `tool_calls` is the legacy functions API; `tool_calls` is Chat Completions / LangChain; Gemini's fields come next;
 * a `content` list last is Anthropic. A message none of them owns is read as a chat message with no calls.
 */

/** The name of the provider that owns a message (`ToolProvider.name`). */
export type MessageFormat = "responses" | "openai-functions" | "openai" | "gemini" | "anthropic";

/** A Responses API response (`output` list) or a list of its items. */
export function ownsResponses(message: object): boolean {
  return Array.isArray(message) || Array.isArray((message as { output?: unknown }).output);
}

/** A legacy functions-API reply: a `function_call` and no `tool_calls`. */
export function ownsFunctionCall(message: object): boolean {
  const record = message as { function_call?: unknown; tool_calls?: unknown };
  const fn = record.function_call;
  return typeof fn === "object" && fn !== null && !(Array.isArray(record.tool_calls) && record.tool_calls.length > 0);
}

/** Chat Completions and LangChain: `tool_calls` or `invalid_tool_calls`. */
export function ownsChat(message: object): boolean {
  return "tool_calls" in message || "invalid_tool_calls" in message;
}

/** A Gemini response or Content. */
export function ownsGemini(message: object): boolean {
  return "candidates" in message || "parts" in message || "functionCalls" in message || "usageMetadata" in message;
}

/** An Anthropic message: a `content` list (asked last: other formats may carry `content` too). */
export function ownsAnthropic(message: object): boolean {
  return Array.isArray((message as { content?: unknown }).content);
}

/** The format of `message` (chat when none owns it). Throws a TypeError for a non-object. */
export function formatOf(message: unknown): MessageFormat {
  if (typeof message !== "object" || message === null) {
    throw new TypeError(
      "dispatch expects a model message with tool calls: an OpenAI ChatCompletionMessage, a Responses API response (or its output items), an Anthropic message, a Gemini response or Content, or a LangChain AIMessage.",
    );
  }
  if (ownsResponses(message)) return "responses";
  if (ownsFunctionCall(message)) return "openai-functions";
  if (ownsChat(message)) return "openai";
  if (ownsGemini(message)) return "gemini";
  if (ownsAnthropic(message)) return "anthropic";
  return "openai";
}
