/**
 * What both halves of the validator kit share: the checks generated code calls on every run (validator-kit.ts) and
 * that the explanation of an invalid value repeats (kit-explain.ts), and the shape and bounds of an error. Kept apart
 * so that the kit does not carry the explainer: an app that dispatches valid calls never loads it.
 */
import type { GuardedPattern } from "./pattern-guard";

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

/** Length in Unicode code points, as JSON Schema counts `minLength` / `maxLength`. */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Deep JSON equality, for `const` and `enum` values that are objects or arrays. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const ka = Object.keys(a);
  const rb = b as Record<string, unknown>;
  return ka.length === Object.keys(rb).length && ka.every((key) => Object.prototype.hasOwnProperty.call(rb, key) && jsonEqual((a as Record<string, unknown>)[key], rb[key]));
}

/** Whether `d` equals one of `values`. */
export function oneOf(d: unknown, values: readonly unknown[]): boolean {
  if (typeof d !== "object" || d === null) return values.includes(d);
  return values.some((value) => jsonEqual(d, value));
}

/** What the explainer needs from the validator being explained. */
export interface ExplainContext {
  root: unknown;
  /** The validator's own patterns (compiled once, under its step budget), by source. */
  pattern(source: string): GuardedPattern;
  /** The checker of a format (true for values of other types). */
  format(name: string): (value: unknown) => boolean;
}
