/**
 * Arguments text → an arguments object, as dispatch reads the model's `arguments` string: measured against the size
 * limit (in UTF-8, only when the length alone does not decide), blank text as no arguments, strict `JSON.parse`
 * first and the text it refuses handed to the lenient reader (repair-json.ts, passed in: see parse-arguments.ts), then read like any
 * parsed value by read-arguments.ts, with the two checks that only text needs, on the text itself: a `__proto__` key, and a
 * number too large for a double.
 *
 * Apart from read-arguments.ts so that bundles load it with the full pipeline, not on start (see read-arguments.ts).
 */
import { type ReadOptions, type ReadResult, MAX_ARGUMENTS_BYTES, MAX_ARGUMENTS_DEPTH, nonFinitePath, readValue } from "./read-arguments";
import type { RepairKind, RepairResult } from "../repair/repair-json";
import { utf8Length } from "../../tool/utf8";
import { DEPTH_SCAN_FROM_CHARS, nestsDeeperThan } from "./json-depth";

/** The lenient reader (repair-json.ts's `repairJson`), handed to `parseText` by code that has it loaded. */
export type Repair = (text: string, parseError: string, maxDepth: number) => RepairResult;

/**
 * Parse arguments text. Empty or blank text means "no arguments" (models send `""` for parameterless tools). Strict
 * JSON is tried first; only text it refuses is read leniently, by `repair`. Without `repair`, such text (when
 * `options.repair` allows repairs) gives `undefined`: read it again with the lenient reader (parse-arguments.ts).
 */
export function parseText(text: string, options: ReadOptions = {}, repair?: Repair): ReadResult | undefined {
  const maxBytes = options.maxBytes ?? MAX_ARGUMENTS_BYTES;
  const maxDepth = options.maxDepth ?? MAX_ARGUMENTS_DEPTH;
  // Each UTF-16 unit is 1 to 3 bytes of UTF-8: measure only when the length alone does not decide.
  if (text.length > maxBytes) return { ok: false, problem: "too_long", bytes: utf8Length(text), limit: maxBytes };
  if (text.length * 3 > maxBytes) {
    const bytes = utf8Length(text);
    if (bytes > maxBytes) return { ok: false, problem: "too_long", bytes, limit: maxBytes };
  }
  // Arguments text almost always starts with "{": only other text is trimmed (a copy) to see whether it is blank.
  if (text.length === 0 || (text.charCodeAt(0) !== 0x7b && text.trim() === "")) return { ok: true, args: {} };
  // Deep text is refused before parsing it: parsing costs time in proportion to its depth.
  if (text.length > DEPTH_SCAN_FROM_CHARS && nestsDeeperThan(text, maxDepth)) return { ok: false, problem: "too_deep", limit: maxDepth };
  let value: unknown;
  let repairs: RepairKind[] | undefined;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (options.repair === false) return { ok: false, problem: "json", detail, text };
    if (!repair) return undefined;
    const repaired = repair(text, detail, maxDepth);
    if (!repaired.ok) {
      return repaired.problem === "too_deep"
        ? { ok: false, problem: "too_deep", limit: maxDepth }
        : { ok: false, problem: "json", detail: repaired.detail, text };
    }
    value = repaired.value;
    repairs = repaired.repairs;
  }
  const read = readValue(value, text, options, false, mayHoldProtoKey(text));
  if (read.ok && mayHoldHugeNumber(text)) {
    const path = nonFinitePath(read.args, "", 0);
    if (path !== undefined) return { ok: false, problem: "not_finite", path };
  }
  if (read.ok && repairs) read.repairs = repairs;
  return read;
}

/**
 * Whether parsed text can hold a `__proto__` key. JSON.parse makes such a key an ordinary own property, harmless
 * until some later assignment copies it onto an object; only then is a cleaned copy needed. A key can also spell it
 * with escapes (`"\u005f_proto__"`).
 */
function mayHoldProtoKey(text: string): boolean {
  // Two plain searches: cheaper than one regular expression with an alternation, measured.
  return text.includes("__proto__") || text.includes("\\u");
}

/**
 * Whether parsed text can hold a number too large for a double: only an exponent of three digits or a run of over
 * 300 digits parses to Infinity. Checked on the text so that ordinary arguments are not walked again.
 */
function mayHoldHugeNumber(text: string): boolean {
  return /[eE][+]?\d{3}|\d{300}/.test(text);
}
