/**
 * Arguments text → an arguments object, as dispatch reads the model's `arguments` string: measured against the size
 * limit (in UTF-8, only when the length alone does not decide), blank text as no arguments, strict `JSON.parse`
 * first and the text it refuses handed to the lenient reader (repair-json.ts, passed in: see parse-arguments.ts), then
 * read like any
 * parsed value by read-arguments.ts, with the two checks that only text needs, on the text itself: a `__proto__` key,
 * and a
 * number too large for a double.
 *
 * Apart from read-arguments.ts so that bundles load it with the full pipeline, not on start (see read-arguments.ts).
 */
import {
  type ReadOptions,
  type ReadResult,
  MAX_ARGUMENTS_BYTES,
  MAX_ARGUMENTS_DEPTH,
  nonFinitePath,
  readValue,
} from "./read-arguments";
import type { RepairKind, RepairResult } from "../repair/repair-json";
import { readJson } from "./bounded-json";

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
  // Arguments text almost always starts with "{": only other text is trimmed (a copy) to see whether it is blank.
  if (text.length <= maxBytes && (text.length === 0 || (text.charCodeAt(0) !== 0x7b && text.trim() === "")))
    return { ok: true, args: {} };
  let value: unknown;
  let repairs: RepairKind[] | undefined;
  const read = readJson(text, { maxBytes, maxDepth });
  if (read.ok) {
    value = read.value;
  } else if (read.problem !== "json") {
    return read;
  } else {
    const detail = read.detail;
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
  const result = readValue(value, text, options, false, mayHoldProtoKey(text));
  if (result.ok && mayHoldHugeNumber(text)) {
    const path = nonFinitePath(result.args, "", 0);
    if (path !== undefined) return { ok: false, problem: "not_finite", path };
  }
  if (result.ok && repairs) result.repairs = repairs;
  return result;
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
