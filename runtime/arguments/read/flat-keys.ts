/**
 * Which of a tool's arguments texts flat-json.ts may read: the names of its parameters schema's top-level
 * properties, when each is written in JSON as it is. Worked out once per tool, on its first text
 * (dispatch/read-flat.ts).
 */
import type { JsonSchema } from "../../tool/meta";

/** Keys are told apart by a bit each in a 31-bit mask (a key twice is left to `JSON.parse`, which keeps the last). */
const MAX_KEYS = 16;

/**
 * The top-level property names an object schema declares, when a text of them can be read by flat-json.ts: at most
 * 16, each written in JSON as it is (no character JSON escapes), none a name `Object.prototype` has (`__proto__`,
 * `constructor`, `toString`, …: an assignment of such a key would reach an accessor or, where the built-ins are
 * frozen, throw, where `JSON.parse` defines an own property). Otherwise undefined: the tool's arguments are always
 * parsed by `JSON.parse`.
 */
export function flatObjectKeys(schema: JsonSchema | undefined): readonly string[] | undefined {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return undefined;
  const keys = Object.keys(properties);
  if (keys.length === 0 || keys.length > MAX_KEYS) return undefined;
  for (const key of keys) if (key in Object.prototype || JSON.stringify(key) !== `"${key}"`) return undefined;
  // Not frozen: a frozen array's elements are slower to read, and this one is dispatch's own (never handed out).
  return keys;
}
