/**
 * Whether a schema alone bounds what it accepts the way the arguments reader does: every accepted value is plain
 * JSON (no `__proto__` key, only finite numbers) and nests at most so deep. For such a schema a validator that
 * accepts parsed arguments has also proved what the dispatch pipeline's walk over them checks (dispatch/read.ts),
 * so the walk is skipped. Anything this module does not recognise is "not closed": the walk then runs as before.
 */
import type { JsonSchema } from "../../tool/meta";

/** Keywords that narrow what a schema accepts without widening it; any other keyword makes the schema open here. */
const NARROWING = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "description",
  "title",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "contentMediaType",
  "contentEncoding",
]);

const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/**
 * The deepest nesting of arrays and objects (the arguments object itself is level 1) of any value `schema` accepts,
 * when every value it accepts is plain JSON; `undefined` when the schema does not bound that (`{}`, a record of
 * anything, a `$ref`, a keyword not listed above).
 */
export function closedDepth(schema: JsonSchema | boolean): number | undefined {
  if (schema === false) return 0;
  if (schema === true || typeof schema !== "object" || schema === null) return undefined;
  for (const key in schema) if (!NARROWING.has(key)) return undefined;
  const record = schema as Record<string, unknown>;
  if (record.const !== undefined) return literalDepth([record.const]);
  if (record.enum !== undefined) return Array.isArray(record.enum) ? literalDepth(record.enum) : undefined;
  const branches = record.anyOf ?? record.oneOf;
  if (branches !== undefined) {
    // Branches next to a type would each be narrowed by it: left to the walk, since the emitter does not write them.
    if (
      !Array.isArray(branches) ||
      record.type !== undefined ||
      (record.anyOf !== undefined && record.oneOf !== undefined)
    )
      return undefined;
    let deepest = 0;
    for (const branch of branches) {
      const depth = closedDepth(branch as JsonSchema | boolean);
      if (depth === undefined) return undefined;
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  }
  const types = typeof record.type === "string" ? [record.type] : record.type;
  if (!Array.isArray(types) || types.length === 0) return undefined;
  let deepest = 0;
  for (const type of types) {
    const depth = SCALAR_TYPES.has(type as string)
      ? 0
      : type === "object"
        ? objectDepth(record)
        : type === "array"
          ? arrayDepth(record)
          : undefined;
    if (depth === undefined) return undefined;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** An object with only its listed properties (none named `__proto__`), each closed. */
function objectDepth(schema: Record<string, unknown>): number | undefined {
  if (schema.additionalProperties !== false) return undefined;
  const properties = schema.properties ?? {};
  if (typeof properties !== "object" || properties === null) return undefined;
  let deepest = 0;
  for (const name of Object.keys(properties)) {
    if (name === "__proto__") return undefined;
    const depth = closedDepth((properties as Record<string, JsonSchema | boolean>)[name]!);
    if (depth === undefined) return undefined;
    deepest = Math.max(deepest, depth);
  }
  return deepest + 1;
}

/** An array whose items (and tuple items) are all closed. */
function arrayDepth(schema: Record<string, unknown>): number | undefined {
  const items = schema.items;
  if (items === undefined || Array.isArray(items)) return undefined;
  let deepest = closedDepth(items as JsonSchema | boolean);
  const tuple = schema.prefixItems;
  if (tuple !== undefined) {
    if (!Array.isArray(tuple)) return undefined;
    for (const item of tuple) {
      const depth = closedDepth(item as JsonSchema | boolean);
      if (depth === undefined || deepest === undefined) return undefined;
      deepest = Math.max(deepest, depth);
    }
  }
  return deepest === undefined ? undefined : deepest + 1;
}

/** Literals (`const`, `enum`) are closed when they are scalars: a literal object could hold a `__proto__` key. */
function literalDepth(values: readonly unknown[]): number | undefined {
  for (const value of values) if (typeof value === "object" && value !== null) return undefined;
  return 0;
}
