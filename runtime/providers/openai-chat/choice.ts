/** Chat Completions' `tool_choice` (and `parallel_tool_calls`). */
import type { ChatCompletionToolChoiceOption } from "openai/resources/chat/completions";
import { type ToolChoice, type ToolChoiceOptions, isChoiceMode } from "../provider";
import type { OpenAIToolChoice } from "./wire";

/** Request fields for the tool choice: spread them into `chat.completions.create({ ... })`. */
export interface OpenAIToolChoiceParams {
  tool_choice: OpenAIToolChoice;
  /** `false` when `{ parallel: false }` was asked for (strict tools and parallel calls do not mix, says OpenAI). */
  parallel_tool_calls?: boolean;
}

/** `tool_choice` (and `parallel_tool_calls`) for Chat Completions. */
export function openAIToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): OpenAIToolChoiceParams {
  const tool_choice: ChatCompletionToolChoiceOption & OpenAIToolChoice = isChoiceMode(choice)
    ? choice
    : { type: "function", function: { name: choice } };
  const params: OpenAIToolChoiceParams = { tool_choice };
  if (options.parallel !== undefined) params.parallel_tool_calls = options.parallel;
  return params;
}
