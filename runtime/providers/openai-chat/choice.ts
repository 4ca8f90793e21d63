/** Chat Completions' `tool_choice` (and `parallel_tool_calls`). */
import type { ChatCompletionToolChoiceOption } from "openai/resources/chat/completions";
import { type ToolChoice, type ToolChoiceOptions, allowedMode, isChoiceMode, refuseValidated } from "../provider";
import type { OpenAIToolChoice } from "./wire";

/** Request fields for the tool choice: spread them into `chat.completions.create({ ... })`. */
export interface OpenAIToolChoiceParams {
  tool_choice: OpenAIToolChoice;
  /** `false` when `{ parallel: false }` was asked for (strict tools and parallel calls do not mix, says OpenAI). */
  parallel_tool_calls?: boolean;
}

/**
 * `tool_choice` (and `parallel_tool_calls`) for Chat Completions. With `allowed`, `"auto"` and `"required"` become
 * `{ type: "allowed_tools", allowed_tools: { mode, tools: [{ type: "function", function: { name } }] } }`.
 */
export function openAIToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): OpenAIToolChoiceParams {
  refuseValidated(choice, "openai");
  const mode = allowedMode(choice, options);
  const tool_choice: ChatCompletionToolChoiceOption & OpenAIToolChoice =
    mode !== undefined
      ? {
          type: "allowed_tools",
          allowed_tools: {
            mode,
            tools: (options.allowed ?? []).map((name) => ({ type: "function" as const, function: { name } })),
          },
        }
      : isChoiceMode(choice)
        ? choice
        : { type: "function", function: { name: choice } };
  const params: OpenAIToolChoiceParams = { tool_choice };
  if (options.parallel !== undefined) params.parallel_tool_calls = options.parallel;
  return params;
}
