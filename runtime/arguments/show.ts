/**
 * Values shown in messages: short JSON, what kind of value arrived where an object was expected, and text cut to a
 * length. Apart from args.ts, which reads arguments on every call, so that only failures load it.
 */

/** Short JSON of a value for messages; values JSON cannot write are named instead. */
export function shortJson(value: unknown, max = 80): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = typeof value === "bigint" ? `${value}n` : `(${typeof value})`;
  return text.length <= max ? text : `${text.slice(0, max)}…`;
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
