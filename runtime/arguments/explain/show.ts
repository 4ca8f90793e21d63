/**
 * Values shown in messages: short JSON, what kind of value arrived where an object was expected, and text cut to a
 * length. Apart from read-arguments.ts, which reads arguments on every call, so that only failures load it.
 */

/**
 * Short JSON of a value for messages; values JSON cannot write are named instead. Costs time in proportion to what
 * it shows, not to the value: an error report may quote a megabyte object forty times. Plain JSON data (what
 * arguments are) is written by a walk that stops past `max` characters, with the same text JSON.stringify starts
 * with; anything else (a `toJSON`, a class instance) goes to JSON.stringify.
 */
export function shortJson(value: unknown, max = 80): string {
  let text: string | undefined;
  try {
    const out: string[] = [];
    const budget = { left: max + 1 };
    text = writeBounded(value, out, budget) ? out.join("") : JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = typeof value === "bigint" ? `${value}n` : `(${typeof value})`;
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** How deep the bounded walk goes before it leaves a value to JSON.stringify (only `max` characters are shown). */
const MAX_SHOWN_DEPTH = 64;

/**
 * Appends the start of `value`'s JSON to `out` until `budget.left` characters are spent; `false` when the value is
 * not plain JSON data (the caller then asks JSON.stringify). Strings are cut before they are escaped.
 */
function writeBounded(value: unknown, out: string[], budget: { left: number }, depth = 0): boolean {
  if (budget.left <= 0) return true;
  if (value === null || typeof value === "boolean" || typeof value === "number")
    return push(out, budget, JSON.stringify(value));
  if (typeof value === "string") {
    // Escaping a prefix gives a prefix of the escaped whole, unless the cut splits a surrogate pair.
    let end = Math.min(value.length, budget.left);
    if (end < value.length && end > 0 && (value.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
    return push(
      out,
      budget,
      JSON.stringify(end === value.length ? value : value.slice(0, end)).slice(
        0,
        end === value.length ? undefined : -1,
      ),
    );
  }
  if (typeof value !== "object" || depth > MAX_SHOWN_DEPTH) return false;
  if (Array.isArray(value)) {
    push(out, budget, "[");
    for (let i = 0; i < value.length && budget.left > 0; i++) {
      if (i > 0) push(out, budget, ",");
      const item = value[i];
      if (item === undefined || typeof item === "function" || typeof item === "symbol") push(out, budget, "null");
      else if (!writeBounded(item, out, budget, depth + 1)) return false;
    }
    return push(out, budget, "]");
  }
  const prototype = Object.getPrototypeOf(value);
  if (
    (prototype !== Object.prototype && prototype !== null) ||
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  )
    return false;
  push(out, budget, "{");
  let first = true;
  for (const key in value) {
    if (budget.left <= 0) break;
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    if (!first) push(out, budget, ",");
    first = false;
    writeBounded(key, out, budget, depth + 1);
    push(out, budget, ":");
    if (!writeBounded(item, out, budget, depth + 1)) return false;
  }
  return push(out, budget, "}");
}

function push(out: string[], budget: { left: number }, text: string): true {
  out.push(text);
  budget.left -= text.length;
  return true;
}

/** "a string", "an array", ...: what arrived instead of an object. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    default:
      return typeof value === "object" ? "an object of another kind" : `a ${typeof value}`;
  }
}

/** Text cut to `max` characters, marking the cut so the model does not take it for what it sent. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
