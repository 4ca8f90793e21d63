/** Anthropic's `tool_choice`. */
import type { ToolChoice, ToolChoiceOptions } from "../provider";
import type { AnthropicToolChoice, AnthropicToolChoiceParams } from "./wire";

/** `auto` → `{type:"auto"}`, `required` → `{type:"any"}`, `none` → `{type:"none"}`, a name → `{type:"tool", name}`. */
export function anthropicToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): AnthropicToolChoiceParams {
  if (choice === "none") return { tool_choice: { type: "none" } };
  const tool_choice: Exclude<AnthropicToolChoice, { type: "none" }> =
    choice === "auto" ? { type: "auto" } : choice === "required" ? { type: "any" } : { type: "tool", name: choice };
  if (options.parallel === false) tool_choice.disable_parallel_tool_use = true;
  return { tool_choice };
}
