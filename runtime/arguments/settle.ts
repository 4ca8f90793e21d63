/**
 * Dispatch's failure path for arguments: what becomes of arguments that were not right the first time (reached
 * through `#lazy/settle`). Text `JSON.parse` refused is read leniently (parse-arguments.ts, repair-json.ts); arguments
 * that fail their schema are
 * coerced and validated again (conform.ts), and what is still wrong is put in words (invalid.ts, read-arguments.ts).
 * Valid
 * arguments never come here: dispatch checks them with the tool's validator and revives their dates itself.
 */
import type { ArgsObject, ReadOptions, ReadResult } from "./read/read-arguments";
import type { Coercion } from "./repair/coercion";
import { type ConformSettings, conform } from "./repair/conform";
import { invalidArgumentsError } from "./explain/invalid";
import { describeArgumentsProblem, parseArguments } from "./read/parse-arguments";
import type { RepairKind } from "./repair/repair-json";
import type { ArgumentsValidator } from "../validation/validate";
import { ToolValidationError } from "../tool/errors";

import type { JsonSchema } from "../tool/meta";

/** Arguments ready for the call, or the error to report; either way what was repaired and coerced on the way. */
export type Settled = { repairs: RepairKind[]; coercions: Coercion[] } & (
  | { ok: true; args: ArgsObject }
  | { ok: false; error: ToolValidationError; args?: ArgsObject }
);

const NONE_REPAIRED: RepairKind[] = Object.freeze([]) as unknown as RepairKind[];

/** What settling needs of the tool; `validator` is asked for only once there are arguments to check. */
export interface SettleTool {
  name: string;
  parameters: JsonSchema;
  validator(): ArgumentsValidator;
  meta: { readonly dates?: readonly string[]; readonly urls?: readonly string[] };
}

/**
 * `input`: what reading gave (a problem, or arguments that failed the quick check), or the text to read leniently.
 * Invalid arguments are coerced and validated again; the errors that remain (on the coerced value) are reported.
 */
export function settleArguments(
  tool: SettleTool,
  input: ReadResult | string,
  read: ReadOptions,
  settings: ConformSettings,
): Settled {
  const result = typeof input === "string" ? parseArguments(input, read) : input;
  if (!result.ok) {
    return {
      ok: false,
      repairs: [],
      coercions: [],
      error: new ToolValidationError(describeArgumentsProblem(tool.name, result), {
        reason: "malformed_arguments",
        toolName: tool.name,
      }),
    };
  }
  const args = result.args;
  const repairs = result.repairs ?? NONE_REPAIRED;
  const conformed = conform(args, tool.parameters, tool.validator(), tool.meta, settings);
  const coercions = result.coercions ? [...result.coercions, ...conformed.coercions] : conformed.coercions;
  if (conformed.invalid)
    return { ok: false, args, repairs, coercions, error: invalidArgumentsError(tool.name, conformed.invalid) };
  return { ok: true, args, repairs, coercions };
}
