/** The answer to a model turn's function calls: one `user` Content of `functionResponse` parts. */
import type { ToolMessage } from "../../dispatch/messages";
import type { ToolContentPart } from "../../tool/content";
import type { GeminiFunctionResponseContent, GeminiFunctionResponseMedia, GeminiFunctionResponsePart } from "./wire";

/**
 * One `user` content of `functionResponse` parts. On success `response` is `{ output }`: the parsed value when the
 * content is a JSON object or array (what the tool returned), else the text. On failure it is `{ error: text }`.
 */
export function toGeminiFunctionResponses(results: readonly ToolMessage[]): GeminiFunctionResponseContent {
  const parts = results.map((result): GeminiFunctionResponsePart => {
    const response =
      result.status === "error"
        ? { error: result.content }
        : { output: result.parts ? result.content : structured(result.content) };
    const functionResponse: GeminiFunctionResponsePart["functionResponse"] = { name: result.name, response };
    const media = result.parts ? geminiMedia(result.parts) : [];
    if (media.length > 0) functionResponse.parts = media;
    if (result.tool_call_id !== "") functionResponse.id = result.tool_call_id;
    return { functionResponse };
  });
  return { role: "user", parts };
}

/**
 * The images and files of a result as `functionResponse.parts`: inline data as `inlineData`, a URL as `fileData`
 * (a Files API or Cloud Storage URI; its media type is required there, so a URL without one is left to the
 * label in `output`). Text parts are in `output` already.
 */
export function geminiMedia(parts: readonly ToolContentPart[]): GeminiFunctionResponseMedia[] {
  const media: GeminiFunctionResponseMedia[] = [];
  for (const part of parts) {
    if (part.type === "text") continue;
    const name = part.type === "file" && part.filename !== undefined ? { displayName: part.filename } : {};
    if (part.data !== undefined) media.push({ inlineData: { mimeType: part.mediaType, data: part.data, ...name } });
    else if (part.mediaType !== undefined)
      media.push({ fileData: { mimeType: part.mediaType, fileUri: part.url, ...name } });
  }
  return media;
}

function structured(content: string): unknown {
  const first = content.trimStart()[0];
  if (first !== "{" && first !== "[") return content;
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}
