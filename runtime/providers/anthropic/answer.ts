/**
 * The answer to an assistant message's `tool_use` blocks: one `user` message of `tool_result` blocks (`is_error: true`
 * on failures; nothing else in it, since Anthropic rejects text before the results).
 */
import type { ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { ToolMessage } from "../../dispatch/messages";
import { type ToolContentPart, partLabel } from "../../tool/content";
import type {
  AnthropicImageType,
  AnthropicToolResultBlock,
  AnthropicToolResultContent,
  AnthropicToolResultMessage,
} from "./wire";

/** One user message of `tool_result` blocks, in call order. */
export function toAnthropicToolResults(results: readonly ToolMessage[]): AnthropicToolResultMessage {
  const content = results.map((result) => {
    const block: ToolResultBlockParam & AnthropicToolResultBlock = {
      type: "tool_result",
      tool_use_id: result.tool_call_id,
    };
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
      if (IMAGE_TYPES.has(part.mediaType))
        return {
          type: "image",
          source: { type: "base64", media_type: part.mediaType as AnthropicImageType, data: part.data },
        };
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
      return {
        type: "document",
        source: { type: "text", media_type: "text/plain", data: decodeBase64Text(part.data) },
        ...title,
      };
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
