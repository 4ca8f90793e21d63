/**
 * Anthropic Messages, both ways (the `anthropic` provider): tools as `{ name, description, input_schema }`, reading `tool_use` content blocks
 * from an assistant message, answering with one `user` message of `tool_result` blocks (`is_error: true` on
 * failures; nothing else in it, since Anthropic rejects text before the results), and `tool_choice`.
 *
 * The agent loop's side (`client.messages.create`, whole or streamed) is here too: the request (tools,
 * `output_config.format` for a structured answer), the reply's `{ role, content }` going back into `messages`, and
 * `accumulateToolCalls("anthropic")` for the stream events (`input_json_delta` pieces of each `tool_use` block).
 *
 * Types are tooltype's own; the checks at the bottom keep them assignable to the `@anthropic-ai/sdk` types (tool
 * definitions mutually), without our .d.ts files importing that optional peer.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  Message,
  MessageParam,
  RawMessageStreamEvent,
  Tool,
  ToolChoice as SdkToolChoice,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import { type ToolContentPart, partLabel } from "../tool/content";
import {
  type LoopReply,
  type ProviderLoop,
  type ToolChoice,
  type ToolChoiceOptions,
  type ToolFormatSource,
  type ToolProvider,
  argsCall,
  isAsyncIterable,
} from "./provider";
import { ownsAnthropic } from "./sniff";
import { type CallState, IndexedCalls, StreamAccumulator, type UpdateDraft, parsePartialArguments } from "./stream";

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
  | { type: "image"; source: { type: "base64"; media_type: AnthropicImageType; data: string } | { type: "url"; url: string } }
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

export function toAnthropicTool(tool: ToolFormatSource): AnthropicTool {
  const entry: Tool = { name: tool.name, input_schema: { ...tool.parameters, type: "object" } };
  if (tool.description !== "") entry.description = tool.description;
  return entry;
}

export function toAnthropicTools(tools: Iterable<ToolFormatSource>): AnthropicTool[] {
  return Array.from(tools, toAnthropicTool);
}

/** One user message of `tool_result` blocks, in call order. */
export function toAnthropicToolResults(results: readonly ToolMessage[]): AnthropicToolResultMessage {
  const content = results.map((result) => {
    const block: ToolResultBlockParam & AnthropicToolResultBlock = { type: "tool_result", tool_use_id: result.tool_call_id };
    if (result.parts) block.content = anthropicBlocks(result.parts);
    else if (result.content !== "") block.content = result.content;
    if (result.status === "error") block.is_error = true;
    return block;
  });
  return { role: "user", content };
}

const IMAGE_TYPES = new Set<string>(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * Content parts as `tool_result` blocks: text; images of the four types Anthropic reads (inline or by URL); PDFs
 * (inline or by URL) and inline plain text as documents. Anything else becomes its label as text (e.g.
 * `[file 2: data.csv]`), since Anthropic would reject the request.
 */
export function anthropicBlocks(parts: readonly ToolContentPart[]): AnthropicToolResultContent[] {
  let media = 0;
  return parts.map((part): AnthropicToolResultContent => {
    if (part.type === "text") return { type: "text", text: part.text };
    const label = partLabel(part, ++media);
    if (part.type === "image") {
      if (part.url !== undefined) return { type: "image", source: { type: "url", url: part.url } };
      if (IMAGE_TYPES.has(part.mediaType)) return { type: "image", source: { type: "base64", media_type: part.mediaType as AnthropicImageType, data: part.data } };
      return { type: "text", text: `${label} (not sent: Anthropic reads JPEG, PNG, GIF and WebP images)` };
    }
    const title = part.filename === undefined ? {} : { title: part.filename };
    if (part.url !== undefined && (part.mediaType === undefined || part.mediaType === "application/pdf")) {
      return { type: "document", source: { type: "url", url: part.url }, ...title };
    }
    if (part.data !== undefined && part.mediaType === "application/pdf") {
      return { type: "document", source: { type: "base64", media_type: "application/pdf", data: part.data }, ...title };
    }
    if (part.data !== undefined && part.mediaType === "text/plain") {
      return { type: "document", source: { type: "text", media_type: "text/plain", data: decodeBase64Text(part.data) }, ...title };
    }
    return { type: "text", text: `${label} (not sent: Anthropic reads PDF and plain-text documents)` };
  });
}

function decodeBase64Text(data: string): string {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** `auto` → `{type:"auto"}`, `required` → `{type:"any"}`, `none` → `{type:"none"}`, a name → `{type:"tool", name}`. */
export function anthropicToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): AnthropicToolChoiceParams {
  if (choice === "none") return { tool_choice: { type: "none" } };
  const tool_choice: Exclude<AnthropicToolChoice, { type: "none" }> =
    choice === "auto" ? { type: "auto" } : choice === "required" ? { type: "any" } : { type: "tool", name: choice };
  if (options.parallel === false) tool_choice.disable_parallel_tool_use = true;
  return { tool_choice };
}

/** Every `tool_use` block of the message's `content` list (`input` is an object already). */
export function readAnthropicCalls(message: AnthropicAssistantMessage): NormalizedCall[] {
  const calls: NormalizedCall[] = [];
  if (!Array.isArray(message.content)) return calls;
  for (const block of message.content as readonly unknown[]) {
    if (typeof block !== "object" || block === null) continue;
    const record = block as Record<string, unknown>;
    if (record.type !== "tool_use") continue;
    calls.push(argsCall(record, record.input));
  }
  return calls;
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
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  output_config?: { format?: { type: "json_schema"; schema: { [key: string]: unknown } } | null };
  stream?: boolean;
}

/** An Anthropic client as far as the loop uses it: `new Anthropic()` is one. */
export interface AnthropicMessagesClient {
  messages: {
    /** Send one request; with `stream: true` the result is an async iterable of events. */
    create(body: AnthropicRequest, options?: { signal?: AbortSignal }): PromiseLike<AnthropicReply | AsyncIterable<AnthropicStreamEvent>>;
  };
}

/** What `runTools` sends to Anthropic besides the tools: the model, `max_tokens` and the messages (other fields pass through). */
export interface AnthropicLoopParams {
  model: string;
  max_tokens: number;
  messages: readonly AnthropicMessageParam[];
}

/** Streamed `tool_use` blocks whose input text did not parse, with that text. */
const unreadable = new WeakMap<object, string>();

/** The agent loop on Anthropic Messages. */
const anthropicLoop: ProviderLoop<AnthropicMessagesClient, AnthropicLoopParams, AnthropicMessageParam, AnthropicReply, AnthropicToolUseBlock, AnthropicStreamEvent> = {
  isClient: (client) => typeof (client as { messages?: { create?: unknown } }).messages?.create === "function",
  owned: [
    { field: "tools", use: "the registry's tools (and prepareStep's activeTools)" },
    { field: "tool_choice", use: "the toolChoice and parallelToolCalls options" },
    { field: "stream", use: "the stream option" },
  ],
  conversation: (params) => [...params.messages],
  request(params, step) {
    const body: Record<string, unknown> = { ...params, messages: [...step.items] };
    const tools = [...toAnthropicTools(step.tools), ...step.loopTools.map(toAnthropicTool)];
    if (tools.length > 0) {
      body.tools = tools;
      const parallel = step.parallelToolCalls === false ? { parallel: false } : {};
      // Without a choice, `{ parallel: false }` still needs a tool_choice to carry it: "auto", Anthropic's default.
      if (step.toolChoice !== undefined || step.parallelToolCalls === false) body.tool_choice = anthropicToolChoice(step.toolChoice ?? "auto", parallel).tool_choice;
    }
    if (step.output) {
      const config = (params as { output_config?: Record<string, unknown> }).output_config;
      if (config?.format !== undefined && config.format !== null) throw new TypeError("runTools: params.output_config.format is set by the loop; use the responseFormat option instead.");
      body.output_config = { ...config, format: { type: "json_schema", schema: step.output.schema } };
    }
    if (step.stream) body.stream = true;
    return body;
  },
  send: (client, request, signal) => client.messages.create(request as unknown as AnthropicRequest, { signal }),
  reply(response) {
    if (isAsyncIterable(response)) throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
    if (!Array.isArray((response as { content?: unknown } | undefined)?.content)) {
      throw new TypeError("runTools: the response has no content list; is the client an Anthropic client?");
    }
    return response as AnthropicReply;
  },
  accumulate: () => new AnthropicAccumulator(),
  read(reply): LoopReply<AnthropicMessageParam, AnthropicReply, AnthropicToolUseBlock> {
    const blocks = reply.content as readonly { type?: unknown; text?: unknown }[];
    const calls = (reply.content as AnthropicToolUseBlock[]).filter((block) => block.type === "tool_use").map((call) => ({ call, read: anthropicLoop.readCall(call) }));
    const texts = blocks.filter((block) => block.type === "text" && typeof block.text === "string").map((block) => block.text as string);
    const text = texts.length > 0 ? texts.join("") : null;
    const item: AnthropicMessageParam = { role: "assistant", content: reply.content as AnthropicContentBlock[] };
    return { message: reply, items: [item], calls, text, refusal: reply.stop_reason === "refusal" ? (text ?? "refused") : null };
  },
  readCall(call) {
    // A streamed input that did not parse: dispatch reads the text the model sent, and answers with the parse error.
    const text = unreadable.get(call);
    return text === undefined ? argsCall(call as unknown as Record<string, unknown>, call.input) : { kind: "text", id: call.id, name: call.name, text };
  },
  answer: (_reply, results) => [toAnthropicToolResults(results)],
  userTurn: (text) => ({ role: "user", content: text }),
};

/**
 * Anthropic stream events in, complete `tool_use` blocks out: `message_start` holds the message, `content_block_start`
 * opens a block (a `tool_use` with its id and name), `content_block_delta` adds `text_delta` text or
 * `input_json_delta` pieces of the input, `content_block_stop` completes it (the input parsed; text that does not
 * parse is kept, so dispatch reports it), `message_delta` brings the `stop_reason`.
 */
class AnthropicAccumulator extends StreamAccumulator<AnthropicStreamEvent, AnthropicToolUseBlock, AnthropicReply> {
  #message: Record<string, unknown> = { role: "assistant" };
  readonly #blocks = new Map<number, Record<string, unknown>>();
  readonly #calls = new IndexedCalls<AnthropicToolUseBlock>((index, state) => this.#call(index, state));

  constructor() {
    super("anthropic");
  }

  protected read(event: AnthropicStreamEvent, update: UpdateDraft<AnthropicToolUseBlock>): void {
    const index = typeof event.index === "number" ? event.index : -1;
    switch (event.type) {
      case "message_start":
        if (typeof event.message === "object" && event.message !== null) this.#message = { ...(event.message as Record<string, unknown>) };
        break;
      case "content_block_start": {
        const block = event.content_block as Record<string, unknown> | undefined;
        if (typeof block !== "object" || block === null) break;
        this.#blocks.set(index, { ...block });
        if (block.type === "tool_use") {
          // An input given whole up front (not streamed) is its own arguments text.
          const input = block.input;
          const text = typeof input === "object" && input !== null && Object.keys(input).length > 0 ? JSON.stringify(input) : "";
          const state = this.#calls.open(index, typeof block.id === "string" ? block.id : "", typeof block.name === "string" ? block.name : "", text);
          update.deltas.push({ call: state, argumentsDelta: text });
        } else if (block.type === "text" && typeof block.text === "string" && block.text !== "") {
          this.text += block.text;
          update.text = block.text;
        }
        break;
      }
      case "content_block_delta": {
        const delta = event.delta as { type?: unknown; text?: unknown; partial_json?: unknown } | undefined;
        const block = this.#blocks.get(index);
        if (!delta || !block) break;
        if (delta.type === "text_delta" && typeof delta.text === "string") {
          block.text = (typeof block.text === "string" ? block.text : "") + delta.text;
          this.text += delta.text;
          update.text = delta.text;
        } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
          const state = this.#calls.get(index);
          if (!state) break;
          if (state.complete) throw new Error(`accumulateToolCalls(anthropic): a fragment for content block ${index} arrived after the call was complete.`);
          state.arguments += delta.partial_json;
          update.deltas.push({ call: state, argumentsDelta: delta.partial_json });
        }
        break;
      }
      case "content_block_stop": {
        const call = this.#calls.complete(index);
        if (call) update.completed.push(call);
        break;
      }
      case "message_delta": {
        const stop = (event.delta as { stop_reason?: unknown } | undefined)?.stop_reason;
        if (typeof stop === "string") {
          this.finish = stop;
          update.finishReason = stop;
          update.completed.push(...this.#calls.completeAll());
        }
        break;
      }
    }
  }

  get refusal(): string | null {
    return this.finish === "refusal" ? this.text : null;
  }

  get calls(): AnthropicToolUseBlock[] {
    return this.#calls.done;
  }

  get partial(): CallState[] {
    return this.#calls.partial;
  }

  protected reply(): AnthropicReply {
    this.#calls.completeAll();
    const content = [...this.#blocks].sort(([a], [b]) => a - b).map(([index, block]) => this.#calls.written(index) ?? block);
    return { ...this.#message, role: "assistant", content, stop_reason: this.finish ?? (this.#message.stop_reason as string | null | undefined) ?? null };
  }

  /** The block as the API would have sent it whole: the input parsed (the text itself when it does not parse). */
  #call(index: number, state: CallState): AnthropicToolUseBlock {
    const text = state.arguments.trim();
    let input: unknown = {};
    if (text !== "") {
      try {
        input = JSON.parse(text) as unknown;
      } catch {
        // The conversation needs an object; dispatch reads the text the model sent and answers with the parse error.
        const block: AnthropicToolUseBlock = { ...this.#blocks.get(index), type: "tool_use", id: state.id, name: state.name, input: parsePartialArguments(text) ?? {} };
        unreadable.set(block, state.arguments);
        return block;
      }
    }
    return { ...this.#blocks.get(index), type: "tool_use", id: state.id, name: state.name, input };
  }

}


/** Anthropic Messages: a message whose `content` is a list of blocks (asked after the others: see index.ts). */
export const anthropic: ToolProvider<AnthropicAssistantMessage, AnthropicToolResultMessage, AnthropicTool[], undefined, AnthropicToolChoiceParams> = {
  name: "anthropic",
  owns: ownsAnthropic,
  readCalls: readAnthropicCalls,
  answer: (_message, results) => toAnthropicToolResults(results),
  exportTools: (tools) => toAnthropicTools(tools),
  toolChoice: anthropicToolChoice,
  loop: anthropicLoop as ProviderLoop,
};

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<AnthropicTool, Tool> = true;
const fitsAnswer: [AnthropicToolResultMessage] extends [MessageParam] ? true : false = true;
const sameChoice: MutuallyAssignable<AnthropicToolChoice, SdkToolChoice> = true;
const fitsClient: [Anthropic] extends [AnthropicMessagesClient] ? true : false = true;
const fitsReply: [Message] extends [AnthropicReply] ? true : false = true;
const fitsEvent: [RawMessageStreamEvent] extends [AnthropicStreamEvent] ? true : false = true;
const fitsMessage: [AnthropicMessageParam] extends [MessageParam] ? true : false = true;
const fitsBlocks: [AnthropicToolResultContent] extends [ContentBlockParam] ? true : false = true;
void [sameTool, fitsAnswer, sameChoice, fitsClient, fitsReply, fitsEvent, fitsMessage, fitsBlocks];
