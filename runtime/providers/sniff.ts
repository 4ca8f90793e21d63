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

/**
 * The `tool_calls` of a Chat Completions or LangChain message with calls to answer, else undefined: a list that is
 * not empty, on an object that is no list and has no `output` list. `formatOf` says "openai" for every such message
 * (neither the Responses API nor a legacy `function_call` can own it), so dispatch asks this first, reading the list
 * once: going through `formatOf` cost the most common dispatch, one chat call, about a twentieth of its time.
 */
export function chatCallsOf(message: unknown): readonly unknown[] | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const calls = (message as { tool_calls?: unknown }).tool_calls;
  return Array.isArray(calls) && calls.length > 0 && !Array.isArray((message as { output?: unknown }).output) ? calls : undefined;
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
