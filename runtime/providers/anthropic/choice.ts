/** Anthropic's `tool_choice`. */
import { ToolExportError } from "../../tool/errors";
import { type ToolChoice, type ToolChoiceOptions, refuseValidated } from "../provider";
import type { AnthropicToolChoice, AnthropicToolChoiceParams } from "./wire";

/** `auto` → `{type:"auto"}`, `required` → `{type:"any"}`, `none` → `{type:"none"}`, a name → `{type:"tool", name}`. */
export function anthropicToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): AnthropicToolChoiceParams {
  refuseValidated(choice, "anthropic");
  if (options.allowed !== undefined) {
    throw new ToolExportError(
      "Anthropic has no field that narrows the callable tools with the tool list unchanged; leave out { allowed } for Anthropic and send only those tools.",
      { format: "anthropic" },
    );
  }
  if (choice === "none") return { tool_choice: { type: "none" } };
  const tool_choice: Exclude<AnthropicToolChoice, { type: "none" }> =
    choice === "auto" ? { type: "auto" } : choice === "required" ? { type: "any" } : { type: "tool", name: choice };
  if (options.parallel === false) tool_choice.disable_parallel_tool_use = true;
  return { tool_choice };
}
