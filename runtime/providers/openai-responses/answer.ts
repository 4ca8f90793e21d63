/** The answer to a Response's `function_call` items: one `function_call_output` item per call. */
import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { ToolMessage } from "../../dispatch/messages";
import { type ToolContentPart, dataUrl } from "../../tool/content";
import type { ResponsesFunctionCallOutput, ResponsesOutputContent } from "./wire";

/** One `function_call_output` item per result, in call order (errors included, as text). */
export function toResponsesOutputs(results: readonly ToolMessage[]): ResponsesFunctionCallOutput[] {
  return results.map((result) => {
    const item: ResponseInputItem.FunctionCallOutput & ResponsesFunctionCallOutput = {
      type: "function_call_output",
      call_id: result.tool_call_id,
      output: result.parts ? responsesContent(result.parts) : result.content,
    };
    return item;
  });
}

/** Content parts as `input_text`, `input_image` (URL or data URL) and `input_file` (data URL or URL) pieces. */
export function responsesContent(parts: readonly ToolContentPart[]): ResponsesOutputContent[] {
  let files = 0;
  return parts.map((part): ResponsesOutputContent => {
    if (part.type === "text") return { type: "input_text", text: part.text };
    if (part.type === "image") return { type: "input_image", image_url: dataUrl(part), detail: "auto" };
    files++;
    if (part.url !== undefined)
      return {
        type: "input_file",
        file_url: part.url,
        ...(part.filename === undefined ? {} : { filename: part.filename }),
      };
    // OpenAI asks for a file name with inline file data.
    return { type: "input_file", file_data: dataUrl(part), filename: part.filename ?? `file-${files}` };
  });
}
