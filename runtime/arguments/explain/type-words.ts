/**
 * A schema's JSON types as a model or a user reads them: `a string or a number`, `a string, a number or null`, never
 * the comma-joined list ajv writes in its own messages (`string,number`).
 */

/** `"a string"`, `"an integer"`, `"null"`: one JSON type with its article. */
export function withArticle(type: string): string {
  switch (type) {
    case "null":
      return "null";
    case "integer":
    case "object":
    case "array":
      return `an ${type}`;
    default:
      return `a ${type}`;
  }
}

/** `"x"`, `"x or y"`, `"x, y or z"`; `"nothing"` for an empty list. */
export function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "nothing";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/**
 * A `type` keyword's value in words. Takes the keyword's value (a name or a list) or ajv's `params.type`, which an
 * error of a type list carries as one comma-joined string.
 */
export function typeWords(type: unknown): string {
  const list = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return joinOr(list.flatMap((item) => String(item).split(",")).map(withArticle));
}
