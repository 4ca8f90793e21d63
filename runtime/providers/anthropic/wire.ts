/**
 * Anthropic Messages on the wire: tooltype's own copies of the `@anthropic-ai/sdk` types it reads and writes (tools,
 * `tool_use` and `tool_result` blocks, `tool_choice`, the loop's request, reply and stream events). The checks at the
 * bottom keep them assignable to the SDK's (tool definitions mutually), without our .d.ts files importing that
 * optional peer.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { LoopTypes } from "../provider";
import type {
  ContentBlockParam,
  Message,
  MessageParam,
  RawMessageStreamEvent,
  Tool,
  ToolUnion,
  ToolChoice as SdkToolChoice,
} from "@anthropic-ai/sdk/resources/messages";

/** One tool of a Messages request (the SDK's `Tool`, without the cache and beta fields). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: {
    type: "object";
    properties?: unknown | null;
    required?: Array<string> | null;
    [key: string]: unknown;
  };
  /** Example arguments, each one valid against `input_schema` (from `@example` JSON blocks). */
  input_examples?: { [key: string]: unknown }[];
  /** `true` for a deferred tool: loaded only when the tool search tool finds it. */
  defer_loading?: boolean;
  /** Strict tool use: the input is constrained to `input_schema` (rewritten into Anthropic's strict subset). */
  strict?: boolean;
  /** Stream the input as it is generated, unbuffered and unvalidated (invalid JSON until the end, or for good). */
  eager_input_streaming?: boolean | null;
}

/** How Anthropic's tool search matches: `"bm25"`, natural-language queries, or `"regex"`, patterns the model writes. */
export type AnthropicToolSearchMatch = "bm25" | "regex";

/** Anthropic's tool search tool (the SDK's `ToolSearchToolBm25_20251119` / `ToolSearchToolRegex20251119`). */
export type AnthropicToolSearchTool =
  | { type: "tool_search_tool_bm25_20251119"; name: "tool_search_tool_bm25" }
  | { type: "tool_search_tool_regex_20251119"; name: "tool_search_tool_regex" };

/** One tool of a Messages request as tooltype writes it: a tool, or the tool search tool. */
export type AnthropicRequestTool = AnthropicTool | AnthropicToolSearchTool;

/** `toAnthropicTools` options. */
export interface AnthropicToolsOptions {
  /**
   * Defer the deferred tools (`deferred: true`, JSDoc `@deferred`): write them with `defer_loading` and end the list
   * with a tool search tool (when any tool is deferred), `"bm25"` (also `true`) or `"regex"`. Default `false`: every
   * tool whole, as a request without a tool search needs them.
   */
  toolSearch?: boolean | AnthropicToolSearchMatch;
  /**
   * Strict tool use for every tool that does not set its own `strict` option: the schema is rewritten into
   * Anthropic's strict subset (docs/providers.md#anthropic-strict-tool-use) and `strict: true` is sent. A tool's own
   * option wins. Throws ToolExportError for a schema the subset cannot express.
   */
  strict?: boolean;
  /**
   * `eager_input_streaming` for every tool that does not set its own `eagerInputStreaming` option: the input streams
   * as the model writes it, without buffering or validation (docs/streaming.md#anthropic-eager-input-streaming).
   */
  eagerInputStreaming?: boolean;
  /**
   * Check the limits of one request's strict tools (20 strict tools, 24 optional and 16 union-typed properties
   * across them; default `true`). Turn it off to export a large registry once and send a subset per request.
   */
  checkLimits?: boolean;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** What dispatch reads: an assistant `Message` (or `MessageParam`) whose content is a list of blocks. */
export interface AnthropicAssistantMessage {
  role?: string;
  content: string | readonly object[];
}

/** A block inside a `tool_result`: text, an image, or a document (PDF or plain text). */
export type AnthropicToolResultContent =
  | { type: "text"; text: string }
  | {
      type: "image";
      source: { type: "base64"; media_type: AnthropicImageType; data: string } | { type: "url"; url: string };
    }
  | {
      type: "document";
      source:
        | { type: "base64"; media_type: "application/pdf"; data: string }
        | { type: "text"; media_type: "text/plain"; data: string }
        | { type: "url"; url: string };
      title?: string;
    };

/** The image types Anthropic takes. */
export type AnthropicImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** One `tool_result` block. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  /** The tool's text (left out when it is empty), or its blocks when it returned images or files. */
  content?: string | AnthropicToolResultContent[];
  /** Present (and `true`) only for a failed call. */
  is_error?: boolean;
}

/** The answer to an assistant message's `tool_use` blocks: one user message holding only `tool_result` blocks. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: AnthropicToolResultBlock[];
}

/** Anthropic's `tool_choice` request field. */
export type AnthropicToolChoice =
  | { type: "auto"; disable_parallel_tool_use?: boolean }
  | { type: "any"; disable_parallel_tool_use?: boolean }
  | { type: "tool"; name: string; disable_parallel_tool_use?: boolean }
  | { type: "none" };

/** Request fields for the tool choice: spread them into `messages.create({ ... })`. */
export interface AnthropicToolChoiceParams {
  tool_choice: AnthropicToolChoice;
}

/** A content block the loop writes or passes back: text, a tool call, a tool result (others pass through as they are). */
export type AnthropicContentBlock = { type: "text"; text: string } | AnthropicToolUseBlock | AnthropicToolResultBlock;

/** A message of the conversation as the loop types it (the SDK's `MessageParam`). */
export interface AnthropicMessageParam {
  role: "user" | "assistant";
  content: string | AnthropicContentBlock[];
}

/** A reply as the loop reads it (the SDK's `Message`, as far as it is read). */
export interface AnthropicReply {
  role: "assistant";
  content: object[];
  stop_reason?: string | null;
}

/** One event of a streamed message (the SDK's `RawMessageStreamEvent`, as far as the loop reads it). */
export interface AnthropicStreamEvent {
  type: string;
  index?: number;
  message?: unknown;
  content_block?: unknown;
  delta?: unknown;
}

/** The request the loop sends (plus whatever other fields the caller put in `params`, passed through unchanged). */
export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessageParam[];
  tools?: AnthropicRequestTool[];
  tool_choice?: AnthropicToolChoice;
  output_config?: { format?: { type: "json_schema"; schema: { [key: string]: unknown } } | null };
  stream?: boolean;
}

/** An Anthropic client as far as the loop uses it: `new Anthropic()` is one. */
export interface AnthropicMessagesClient {
  messages: {
    /** Send one request; with `stream: true` the result is an async iterable of events. */
    create(
      body: AnthropicRequest,
      options?: { signal?: AbortSignal },
    ): PromiseLike<AnthropicReply | AsyncIterable<AnthropicStreamEvent>>;
  };
}

/** What `runTools` sends to Anthropic besides the tools: the model, `max_tokens` and the messages (other fields pass through). */
export interface AnthropicLoopParams {
  model: string;
  max_tokens: number;
  messages: readonly AnthropicMessageParam[];
}

/** Anthropic Messages: the message, its `tool_use` blocks, and `{ role, content }` messages. */
export interface AnthropicLoopTypes extends LoopTypes {
  readonly reply: AnthropicReply;
  readonly call: AnthropicToolUseBlock;
  readonly item: AnthropicMessageParam | AnthropicToolResultMessage;
}

/** Anthropic Messages: the model, `max_tokens` and the messages; other fields (`system`, …) pass through. */
export interface AnthropicRunParams {
  model: string;
  max_tokens: number;
  messages: readonly AnthropicMessageParam[];
  /** Set by the loop from the registry: leave it out. */
  tools?: never;
  /** Set by the loop: use the `toolChoice` and `parallelToolCalls` options. */
  tool_choice?: never;
  /** Set by the loop: use the `stream` option. */
  stream?: never;
}

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<AnthropicTool, Tool> = true;
const fitsSearch: [AnthropicToolSearchTool] extends [ToolUnion] ? true : false = true;
const fitsAnswer: [AnthropicToolResultMessage] extends [MessageParam] ? true : false = true;
const sameChoice: MutuallyAssignable<AnthropicToolChoice, SdkToolChoice> = true;
const fitsClient: [Anthropic] extends [AnthropicMessagesClient] ? true : false = true;
const fitsReply: [Message] extends [AnthropicReply] ? true : false = true;
const fitsEvent: [RawMessageStreamEvent] extends [AnthropicStreamEvent] ? true : false = true;
const fitsMessage: [AnthropicMessageParam] extends [MessageParam] ? true : false = true;
const fitsBlocks: [AnthropicToolResultContent] extends [ContentBlockParam] ? true : false = true;
void [sameTool, fitsSearch, fitsAnswer, sameChoice, fitsClient, fitsReply, fitsEvent, fitsMessage, fitsBlocks];
