/**
 * Anthropic Messages, both ways (the `anthropic` provider): tools as `{ name, description, input_schema }`, reading `tool_use` content blocks
 * from an assistant message, answering with one `user` message of `tool_result` blocks (`is_error: true` on
 * failures; nothing else in it, since Anthropic rejects text before the results), and `tool_choice`.
 *
 * Types are tooltype's own; the checks at the bottom keep them assignable to the `@anthropic-ai/sdk` types (tool
 * definitions mutually), without our .d.ts files importing that optional peer.
 */
import type {
  ContentBlockParam,
  MessageParam,
  Tool,
  ToolChoice as SdkToolChoice,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import { type ToolContentPart, partLabel } from "../tool/content";
import { type ToolChoice, type ToolChoiceOptions, type ToolFormatSource, type ToolProvider, argsCall } from "./provider";

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

/** Anthropic Messages: a message whose `content` is a list of blocks (asked after the others: see index.ts). */
export const anthropic: ToolProvider<AnthropicAssistantMessage, AnthropicToolResultMessage, AnthropicTool[], undefined, AnthropicToolChoiceParams> = {
  name: "anthropic",
  owns: (message) => Array.isArray((message as { content?: unknown }).content),
  readCalls: readAnthropicCalls,
  answer: (_message, results) => toAnthropicToolResults(results),
  exportTools: (tools) => toAnthropicTools(tools),
  toolChoice: anthropicToolChoice,
};

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<AnthropicTool, Tool> = true;
const fitsAnswer: [AnthropicToolResultMessage] extends [MessageParam] ? true : false = true;
const sameChoice: MutuallyAssignable<AnthropicToolChoice, SdkToolChoice> = true;
const fitsBlocks: [AnthropicToolResultContent] extends [ContentBlockParam] ? true : false = true;
void [sameTool, fitsAnswer, sameChoice, fitsBlocks];
