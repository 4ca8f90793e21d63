/** The Responses API's `tool_choice` (and `parallel_tool_calls`). */
import { type ToolChoice, type ToolChoiceOptions, allowedMode, isChoiceMode, refuseValidated } from "../provider";
import type { ResponsesToolChoice, ResponsesToolChoiceParams } from "./wire";

/**
 * `tool_choice` (and `parallel_tool_calls`) for the Responses API. With `allowed`, `"auto"` and `"required"` become
 * `{ type: "allowed_tools", mode, tools: [{ type: "function", name }] }` (flat, as Responses tools are).
 */
export function responsesToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): ResponsesToolChoiceParams {
  refuseValidated(choice, "responses");
  const mode = allowedMode(choice, options);
  const tool_choice: ResponsesToolChoice =
    mode !== undefined
      ? {
          type: "allowed_tools",
          mode,
          tools: (options.allowed ?? []).map((name) => ({ type: "function" as const, name })),
        }
      : isChoiceMode(choice)
        ? choice
        : { type: "function", name: choice };
  const params: ResponsesToolChoiceParams = { tool_choice };
  if (options.parallel !== undefined) params.parallel_tool_calls = options.parallel;
  return params;
}
