/**
 * The catalogue: every message format tooltype reads, the only list of them. Per format: its name, how a message in
 * it is recognised from its shape alone (without loading any provider), its provider's module, the module of its
 * loop where the agent loop drives its API, and the registries' export method. The format names and export method
 * names are types derived from it; how providers load, which bundlers and Node need spelled out literally,
 * scripts/providers.mjs writes from it (runtime/lazy/providers.*); everything else reads it and names no provider.
 * Adding one is a folder, an entry here, its export method on the registries, its entry, and its tests (docs/design.md
 * has the list; test/architecture/catalog.test.ts checks it).
 *
 * Order matters where shapes overlap: a list or an `output` list is the Responses API; a `function_call` without
 * `tool_calls` is the legacy functions API; `tool_calls` is Chat Completions / LangChain; Gemini's fields come next;
 * a `content` list last is Anthropic. A message none of them owns is read as a chat message with no calls.
 */
import { hasFunctionCall, readChatCalls, readToolCall } from "./openai-chat/read";
import type { CallReader } from "./provider";
import type { ToolMessage } from "../dispatch/messages";
import type { AnthropicAssistantMessage, AnthropicToolResultMessage } from "./anthropic/wire";
import type { GeminiFunctionResponseContent, GeminiInput } from "./gemini/wire";
import type { OpenAIFunctionMessage } from "./openai-chat/functions";
import type { DispatchInput, OpenAIFunctionCallMessage } from "./openai-chat/read";
import type { ResponsesCallOutput, ResponsesInput } from "./openai-responses/wire";

/** One format of the catalogue. */
export interface CatalogEntry {
  /** The format's name, which is its provider's `name` (`toolChoice(registry, choice, name)`, error texts). */
  readonly format: string;
  /** Its provider's module, relative to runtime/providers/, exporting the `ToolProvider` as `provider`. */
  readonly provider: string;
  /** Where the agent loop drives this API: the module exporting its `ProviderLoop` as `loop`. */
  readonly loop?: string;
  /** Whether `message` is in this format, from its shape alone; asked in catalogue order. */
  readonly owns: (message: object) => boolean;
  /** With a loop: its place in the order clients are recognised (an OpenAI client is for Chat Completions). */
  readonly loopOrder?: number;
  /**
   * The registries' export method of this format (`registry.toAnthropicTools()`): the function of that name in its
   * folder's tools.ts, whose TSDoc and options the method repeats. The main registry's method exports through the
   * provider of the format that names it here (`exportAs`, providers/at-hand.ts).
   */
  readonly exportMethod: string;
  /** The API's name in OpenTelemetry's GenAI conventions (`gen_ai.provider.name`); without it, the format's name. */
  readonly genAiName?: string;
}

/** Every format, in the order messages are recognised. */
export const CATALOG = [
  {
    format: "responses",
    provider: "openai-responses/provider",
    loop: "openai-responses/loop",
    owns: (message) => Array.isArray(message) || Array.isArray((message as { output?: unknown }).output),
    loopOrder: 3,
    exportMethod: "toResponsesTools",
    genAiName: "openai",
  },
  {
    format: "openai-functions",
    provider: "openai-chat/functions",
    // A `function_call` and no `tool_calls`.
    owns: hasFunctionCall,
    exportMethod: "toOpenAIFunctions",
    genAiName: "openai",
  },
  {
    format: "openai",
    provider: "openai-chat/provider",
    loop: "openai-chat/loop",
    owns: (message) => "tool_calls" in message || "invalid_tool_calls" in message,
    loopOrder: 0,
    exportMethod: "toOpenAITools",
    genAiName: "openai",
  },
  {
    format: "gemini",
    provider: "gemini/provider",
    loop: "gemini/loop",
    owns: (message) =>
      "candidates" in message || "parts" in message || "functionCalls" in message || "usageMetadata" in message,
    loopOrder: 2,
    exportMethod: "toGeminiTools",
    genAiName: "gcp.gemini",
  },
  // Asked last: other formats may carry `content` too.
  {
    format: "anthropic",
    provider: "anthropic/provider",
    loop: "anthropic/loop",
    owns: (message) => Array.isArray((message as { content?: unknown }).content),
    loopOrder: 1,
    exportMethod: "toAnthropicTools",
    genAiName: "anthropic",
  },
] as const satisfies readonly CatalogEntry[];

/** The name of a format (`ToolProvider.name`). */
export type MessageFormat = (typeof CATALOG)[number]["format"];

/** The name of an export method of the registries (`"toOpenAITools"`, …). */
export type ExportMethod = (typeof CATALOG)[number]["exportMethod"];

/** The model APIs `runTools` drives, by the name of their provider. */
export type LoopProviderName = "openai" | "responses" | "anthropic" | "gemini";

// LoopProviderName is public: it is written out so that its reference page shows the names rather than a type
// over the catalogue (which is not public), and it compiles only while it is the catalogue's.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameLoops: Same<LoopProviderName, Extract<(typeof CATALOG)[number], { loopOrder: number }>["format"]> = true;
void sameLoops;

/** The format every registry reads itself, without loading a provider: the most common one, and `invoke(call)`'s. */
export const CHAT_FORMAT = "openai" satisfies MessageFormat;

const BY_FORMAT = new Map<string, CatalogEntry>(CATALOG.map((entry) => [entry.format, entry]));

/** The catalogue entry of `format`. */
export function entryOf(format: MessageFormat): CatalogEntry {
  return BY_FORMAT.get(format)!;
}

const BY_EXPORT_METHOD = new Map<string, MessageFormat>(CATALOG.map((entry) => [entry.exportMethod, entry.format]));

/** The format whose export method is `method`. */
export function formatExportedBy(method: ExportMethod): MessageFormat {
  return BY_EXPORT_METHOD.get(method)!;
}

/** Whether `name` is the name of a format, e.g. in an approval state read back from JSON. */
export function isMessageFormat(name: unknown): name is MessageFormat {
  return typeof name === "string" && BY_FORMAT.has(name);
}

/** The loop formats, in the order clients are recognised. */
export const LOOP_FORMATS: readonly LoopProviderName[] = CATALOG.filter(
  (entry): entry is Extract<(typeof CATALOG)[number], { loopOrder: number }> => "loopOrder" in entry,
)
  .sort((a, b) => a.loopOrder - b.loopOrder)
  .map((entry) => entry.format);

/** The format of `message` (chat when none owns it). Throws a TypeError for a non-object. */
export function formatOf(message: unknown): MessageFormat {
  if (typeof message !== "object" || message === null) {
    throw new TypeError(
      "dispatch expects a model message with tool calls: an OpenAI ChatCompletionMessage, a Responses API response (or its output items), an Anthropic message, a Gemini response or Content, or a LangChain AIMessage.",
    );
  }
  // The most common message, a chat message with calls, is told at once: a non-empty `tool_calls` list on an
  // object that is no list and has no `output` list is owned by no format before chat (the Responses API needs a
  // list; the legacy functions API, no calls in `tool_calls`). Asking each entry in turn cost a one-call dispatch
  // about a twentieth of its time (bench/dispatch.ts).
  const calls = (message as { tool_calls?: unknown }).tool_calls;
  if (
    Array.isArray(calls) &&
    calls.length > 0 &&
    !Array.isArray(message) &&
    !Array.isArray((message as { output?: unknown }).output)
  )
    return CHAT_FORMAT;
  for (let i = 0; i < OWNS.length; i++) if (OWNS[i]!(message)) return FORMATS[i]!;
  return CHAT_FORMAT;
}

// The catalogue's entries in two lists of one type each: its entries are objects of three shapes.
const OWNS: readonly ((message: object) => boolean)[] = CATALOG.map((entry) => entry.owns);
const FORMATS: readonly MessageFormat[] = CATALOG.map((entry) => entry.format);

/** Chat Completions and LangChain, always at hand: their answers are the ToolMessages themselves. */
export const chatReader: CallReader = {
  name: CHAT_FORMAT,
  readCalls: readChatCalls as CallReader["readCalls"],
  // The chat provider's answer, written here so that no registry loads the loop's attachment helper to make it.
  answer: (_message, results) => [...results],
};

/** One call read as the one entry of a chat message's `tool_calls` (either shape: OpenAI or LangChain), for `invoke(call)`. */
export const readChatCall = readToolCall;

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
 * What `dispatch` resolves to for a message of type `M`: the answer in the message's own format. Mirrors the
 * run-time recognition (`CATALOG`'s `owns`, in its order) on the message's static type:
 * - a list, or an object with an `output` list (Responses API) → `function_call_output` items (and
 *   `custom_tool_call_output` ones for custom tool calls);
 * - a required `function_call` (legacy functions API) → one `{ role: "function", name, content }` message;
 * - a type with `tool_calls` (Chat Completions, LangChain) → `ToolMessage[]`;
 * - a type with `candidates` or `parts` (Gemini) → one `user` Content of `functionResponse` parts;
 * - a type whose `content` may be a list of blocks (Anthropic) → one `user` message of `tool_result` blocks;
 * - anything else → `ToolMessage[]`.
 * An SDK `ChatCompletionMessage` has an optional `function_call`, so it gets `ToolMessage[]`; narrow it with
 * `hasFunctionCall(message)` to get the legacy answer's type.
 */
export type DispatchResult<M> = M extends readonly unknown[]
  ? ResponsesCallOutput[]
  : M extends { output: readonly unknown[] }
    ? ResponsesCallOutput[]
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

// The types of every provider, for the layers above (the registry's, the loop's and the entries' public types).
export type * from "./openai-chat/wire";
export type * from "./openai-chat/read";
export type * from "./openai-chat/functions";
export type * from "./openai-chat/tools";
export type * from "./openai-chat/choice";
export type * from "./openai-chat/loop";
export type * from "./openai-chat/stream";
export type * from "./openai-chat/attachments";
export type * from "./openai-responses/wire";
export type * from "./anthropic/wire";
export type * from "./gemini/wire";
export type * from "../mcp/format/wire";
