/**
 * The validate stage: arguments checked against the tool's compiled parameter schema, and their dates and URLs
 * revived. Its fast form answers "valid" for the arguments its read stage's fast form read; arguments from the full
 * reader, a middleware or `invoke` go through the same check (`validated`). Arguments that are not valid go to its
 * continuation, the failure path for arguments (arguments/settle.ts, reached through `#lazy/settle`: loaded the
 * first time a call's arguments are not right): read leniently, coerced to the schema, checked again, described.
 */
import { type ArgsObject, type ReadResult, reviveDates } from "../arguments/read/read-arguments";
import type { Coercion } from "../arguments/repair/coerce";
import type { RepairKind } from "../arguments/repair/repair-json";
import type { Settled } from "../arguments/settle";
import { withSettle } from "#lazy/settle";
import type { NormalizedCall } from "./call";
import { Later } from "./later";
import { plainJson } from "./read";
import { type ToolSettings, checkOf } from "./settings";

/** Undefined when `args` are valid (their dates revived); else the stage that goes on with the call. */
export function validate(settings: ToolSettings, call: NormalizedCall, args: ArgsObject): Later | undefined {
  let valid: boolean;
  try {
    valid = (settings.check ?? checkMade(settings))(args);
  } catch (error) {
    return new Later("answer", settings, undefined, error, true);
  }
  if (!valid) return invalid(settings, call, args);
  if (settings.revive) revive(settings, args);
  return undefined;
}

/** The tool's check, made on its first call (making it may throw) and kept in its settings. */
function checkMade(settings: ToolSettings): (args: unknown) => boolean {
  return (settings.check = checkOf(settings.tool.validator()));
}

/** Where a call whose arguments the check refused goes on (apart from `validate`, as read.ts `readParsed` is). */
function invalid(settings: ToolSettings, call: NormalizedCall, args: ArgsObject): Later {
  // Text whose walk was skipped because the validator refuses what it would find: what it finds is the full
  // reader's to clean (a `__proto__` key dropped, a number too large refused), not the failure path's to describe.
  if (call.kind === "text" && !settings.walk && !plainJson(args, 1, settings.maxDepth))
    return new Later("read", settings, undefined, undefined, false);
  return new Later("validate", settings, undefined, { ok: true, args }, false);
}

function revive(settings: ToolSettings, args: ArgsObject): void {
  reviveDates(args, settings.tool.meta.dates, settings.tool.meta.urls);
}

export const NONE_REPAIRED: RepairKind[] = Object.freeze([]) as unknown as RepairKind[];
export const NONE_COERCED: Coercion[] = Object.freeze([]) as unknown as Coercion[];

/**
 * What the read stage gave (a result, or text to read leniently) → valid arguments with dates revived, or the error
 * to report. Valid arguments are checked once here and never walked by coercion; everything else goes to the
 * continuation. A promise only while a bundle loads the failure path (the first call whose arguments are not right).
 */
export function validated(settings: ToolSettings, read: ReadResult | string): Settled | Promise<Settled> {
  if (typeof read !== "string" && read.ok) {
    if ((settings.check ?? checkMade(settings))(read.args)) {
      revive(settings, read.args);
      return {
        ok: true,
        args: read.args,
        repairs: read.repairs ?? NONE_REPAIRED,
        coercions: read.coercions ? [...read.coercions] : NONE_COERCED,
      };
    }
  }
  return settle(settings, read);
}

/** The validate stage's continuation: arguments that were not right, settled (see arguments/settle.ts). */
export function settle(settings: ToolSettings, read: ReadResult | string): Settled | Promise<Settled> {
  return withSettle((settle) => settle.settleArguments(settings.tool, read, settings, settings));
}
