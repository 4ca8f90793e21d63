/** The Responses API's `tool_choice` (and `parallel_tool_calls`). */
import { type ToolChoice, type ToolChoiceOptions, isChoiceMode } from "../provider";
import type { ResponsesToolChoice, ResponsesToolChoiceParams } from "./wire";

/** `tool_choice` (and `parallel_tool_calls`) for the Responses API. */
export function responsesToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): ResponsesToolChoiceParams {
  const tool_choice: ResponsesToolChoice = isChoiceMode(choice) ? choice : { type: "function", name: choice };
  const params: ResponsesToolChoiceParams = { tool_choice };
  if (options.parallel !== undefined) params.parallel_tool_calls = options.parallel;
  return params;
}
