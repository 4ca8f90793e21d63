/**
 * The Chat Completions fallback for images and files in tool results. A `tool` message takes text only (a string or
 * text parts), so a result's images and files reach the model in a second step: the tool message carries the
 * result's text with a label in place of each image and file (`[image 1: image/png]`, see runtime/tool/content.ts),
 * and `chatAttachments` writes one `user` message, sent after the tool messages of the turn, that repeats each
 * label next to the image (`image_url`, a URL or a data URL) or file (`file` with `file_data`, a data URL; a file
 * by URL stays a label with its URL, since Chat Completions takes no file URLs).
 */
import type { ChatCompletionContentPart, ChatCompletionUserMessageParam } from "openai/resources/chat/completions";
import type { ToolMessage } from "../../dispatch/messages";
import { dataUrl, partLabel } from "../../tool/content";

/** A piece of the attachments message (the SDK's `ChatCompletionContentPart`). */
export type ChatAttachmentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } }
  | { type: "file"; file: { file_data: string; filename: string } };

/** The `user` message that carries the images and files of tool results. */
export interface ChatAttachmentsMessage {
  role: "user";
  content: ChatAttachmentPart[];
}

/**
 * The `user` message carrying the images and files of `results` (the ToolMessages of one turn), or `undefined`
 * when none of them returned any. Push it after the tool messages: `messages.push(...results, attachments)`.
 */
export function chatAttachments(results: readonly ToolMessage[]): ChatAttachmentsMessage | undefined {
  const content: ChatAttachmentPart[] = [];
  for (const result of results) {
    if (!result.parts) continue;
    let media = 0;
    for (const part of result.parts) {
      if (part.type === "text") continue;
      const label = `${partLabel(part, ++media)} of the ${result.name} call ${result.tool_call_id}`;
      if (content.length === 0)
        content.push({ type: "text", text: "The images and files returned by the tool calls above, by their labels:" });
      if (part.type === "image") {
        content.push({ type: "text", text: label }, { type: "image_url", image_url: { url: dataUrl(part) } });
      } else if (part.data !== undefined) {
        content.push(
          { type: "text", text: label },
          { type: "file", file: { file_data: dataUrl(part), filename: part.filename ?? `file-${media}` } },
        );
      } else {
        content.push({ type: "text", text: `${label}: ${part.url}` });
      }
    }
  }
  return content.length === 0 ? undefined : { role: "user", content };
}

const fitsPart: [ChatAttachmentPart] extends [ChatCompletionContentPart] ? true : false = true;
const fitsMessage: [ChatAttachmentsMessage] extends [ChatCompletionUserMessageParam] ? true : false = true;
void [fitsPart, fitsMessage];
