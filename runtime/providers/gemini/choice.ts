/** Gemini's tool config (`toolConfig.functionCallingConfig`), for the request's `config`. */
import { ToolExportError } from "../../tool/errors";
import type { ToolChoice, ToolChoiceOptions } from "../provider";
import { FunctionCallingConfigMode } from "./enums";
import type { GeminiToolConfigParams } from "./wire";

/** `auto` → AUTO, `required` → ANY, `none` → NONE, a name → ANY with `allowedFunctionNames: [name]`. */
export function geminiToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): GeminiToolConfigParams {
  if (options.parallel === false) {
    throw new ToolExportError(
      "Gemini has no switch to turn parallel function calls off; leave out { parallel: false } for Gemini (and answer every call of a turn, which dispatch does).",
      { format: "gemini" },
    );
  }
  const functionCallingConfig: GeminiToolConfigParams["toolConfig"]["functionCallingConfig"] =
    choice === "auto"
      ? { mode: FunctionCallingConfigMode.AUTO }
      : choice === "none"
        ? { mode: FunctionCallingConfigMode.NONE }
        : choice === "required"
          ? { mode: FunctionCallingConfigMode.ANY }
          : { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice] };
  return { toolConfig: { functionCallingConfig } };
}
