/**
 * The one place untrusted JSON text is parsed by `JSON.parse` (flat-json.ts reads the flat objects most calls carry
 * without it, to the same value): its size (UTF-8 bytes) and its nesting are checked on the text
 * first (the depth of text long enough to cost), since `JSON.parse` takes time in proportion to the depth (a million
 * levels took seconds) and memory in proportion to the size. test/architecture/bounded-json.test.ts keeps every other
 * `JSON.parse` of the runtime
 * to text the runtime wrote itself.
 */
import { utf8Length } from "../../tool/utf8";
import { DEPTH_SCAN_FROM_CHARS, nestsDeeperThan } from "./json-depth";

/** The bounds of one text: its UTF-8 bytes and the nesting of its arrays and objects (the outermost is level 1). */
export interface JsonBounds {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

export type BoundedJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: "too_long"; readonly bytes: number; readonly limit: number }
  | { readonly ok: false; readonly problem: "too_deep"; readonly limit: number }
  | { readonly ok: false; readonly problem: "json"; readonly detail: string };

/** The value of JSON `text` within `bounds`, or why not: too long or too deep (decided before parsing), or not JSON. */
export function readJson(text: string, bounds: JsonBounds): BoundedJson {
  const { maxBytes, maxDepth } = bounds;
  // Each UTF-16 unit is 1 to 3 bytes of UTF-8: measured only when the length alone does not decide.
  if (text.length > maxBytes) return { ok: false, problem: "too_long", bytes: utf8Length(text), limit: maxBytes };
  if (text.length * 3 > maxBytes) {
    const bytes = utf8Length(text);
    if (bytes > maxBytes) return { ok: false, problem: "too_long", bytes, limit: maxBytes };
  }
  // Shorter text cannot nest deep enough to cost more than a few milliseconds: it is parsed, and the caller's copy or
  // walk of the value holds it to the exact depth.
  if (text.length > DEPTH_SCAN_FROM_CHARS && nestsDeeperThan(text, maxDepth))
    return { ok: false, problem: "too_deep", limit: maxDepth };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: "json", detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The dispatch fast path's parse of text already known to be within its byte limit: its value, or undefined (which
 * no JSON text gives) when it nests too deep to parse cheaply or is not JSON: the full reader says which. No result
 * object and no sentinel to load, so the hot path allocates and reads nothing more.
 */
export function parseWithinBytes(text: string, maxDepth: number): unknown {
  if (text.length > DEPTH_SCAN_FROM_CHARS && nestsDeeperThan(text, maxDepth)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
