/**
 * The answer to a Response's calls: one `function_call_output` item per function call, one `custom_tool_call_output`
 * item per custom tool call.
 */
import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { ToolMessage } from "../../dispatch/messages";
import { type ToolContentPart, dataUrl } from "../../tool/content";
import type { ResponsesCallOutput, ResponsesOutputContent } from "./wire";

/**
 * One output item per result, in call order (errors included, as text): `custom_tool_call_output` for the calls
 * whose ids are in `custom`, `function_call_output` for the rest.
 */
export function toResponsesOutputs(
  results: readonly ToolMessage[],
  custom?: ReadonlySet<string>,
): ResponsesCallOutput[] {
  return results.map((result) => {
    const output = result.parts ? responsesContent(result.parts) : result.content;
    if (custom?.has(result.tool_call_id))
      return { type: "custom_tool_call_output", call_id: result.tool_call_id, output };
    const item: ResponseInputItem.FunctionCallOutput & ResponsesCallOutput = {
      type: "function_call_output",
      call_id: result.tool_call_id,
      output,
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
