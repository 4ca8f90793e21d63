/**
 * What both halves of the validator kit share: the object test generated code calls on every run (kit.ts)
 * and that the explanation of an invalid value repeats (kit-explain.ts), and the shape and bounds of an error. Kept
 * apart
 * so that the kit does not carry the explainer: an app that dispatches valid calls never loads it.
 */
import type { GuardedPattern } from "./patterns/pattern-guard";

/** One violation (an ajv ErrorObject without the schema copies). */
export interface KitError {
  keyword: string;
  instancePath: string;
  /** `#/` and the path relative to the root schema; `""` when the runtime derives it from `instancePath`. */
  schemaPath: string;
  params: Record<string, unknown>;
  data: unknown;
  /** A failed `anyOf`: the errors of each alternative, in order (their paths relative to this value). */
  branches?: KitError[][];
}

/** Errors collected per validation (and per union alternative): past it, the message says "and more". */
export const MAX_ERRORS = 40;

/** Union alternatives explained in detail per run; past it a failed union lists its alternatives only. */
export const MAX_UNION_DETAILS = 64;

/** Whether `d` is a JSON object (not null, not an array). */
export function isObject(d: unknown): boolean {
  return typeof d === "object" && d !== null && !Array.isArray(d);
}

/** What the explainer needs from the validator being explained. */
export interface ExplainContext {
  root: unknown;
  /** The validator's own patterns (compiled once, under its step budget), by source. */
  pattern(source: string): GuardedPattern;
  /** The checker of a format (true for values of other types). */
  format(name: string): (value: unknown) => boolean;
}
