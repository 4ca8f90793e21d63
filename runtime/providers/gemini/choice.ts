/** Gemini's tool config (`toolConfig.functionCallingConfig`), for the request's `config`. */
import { ToolExportError } from "../../tool/errors";
import type { ToolChoice, ToolChoiceOptions } from "../provider";
import { FunctionCallingConfigMode } from "./enums";
import type { GeminiToolConfigParams } from "./wire";

type FunctionCallingConfig = GeminiToolConfigParams["toolConfig"]["functionCallingConfig"];

/**
 * `auto` → AUTO, `required` → ANY, `none` → NONE, `validated` → VALIDATED, a name → ANY with
 * `allowedFunctionNames: [name]`. With `allowed` (the declarations unchanged, the callable ones narrowed), ANY and
 * VALIDATED carry them as `allowedFunctionNames`, and `auto` becomes VALIDATED: AUTO takes no names, and VALIDATED
 * is its narrowing (a call among the names, or text).
 */
export function geminiToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): GeminiToolConfigParams {
  if (options.parallel === false) {
    throw new ToolExportError(
      "Gemini has no switch to turn parallel function calls off; leave out { parallel: false } for Gemini (and answer every call of a turn, which dispatch does).",
      { format: "gemini" },
    );
  }
  const allowed = options.allowed === undefined ? {} : { allowedFunctionNames: [...options.allowed] };
  let functionCallingConfig: FunctionCallingConfig;
  if (choice === "none") functionCallingConfig = { mode: FunctionCallingConfigMode.NONE };
  else if (choice === "auto") {
    functionCallingConfig =
      options.allowed === undefined
        ? { mode: FunctionCallingConfigMode.AUTO }
        : { mode: FunctionCallingConfigMode.VALIDATED, ...allowed };
  } else if (choice === "required") functionCallingConfig = { mode: FunctionCallingConfigMode.ANY, ...allowed };
  else if (choice === "validated") functionCallingConfig = { mode: FunctionCallingConfigMode.VALIDATED, ...allowed };
  else functionCallingConfig = { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice] };
  return { toolConfig: { functionCallingConfig } };
}
