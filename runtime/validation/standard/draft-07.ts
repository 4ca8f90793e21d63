/**
 * A JSON Schema of draft 2020-12, as tooltype writes them, in draft-07's spelling, for consumers that ask for that
 * draft (the AI SDK asks Standard JSON Schemas for draft-07): `$defs` become `definitions` (and their `$ref`s follow),
 * `prefixItems` the array form of `items` with `items` as `additionalItems`, `dependentRequired` `dependencies`.
 * Values (`const`, `enum`, `default`, `examples`) and property names are copied as they are.
 */
import type { JsonSchema, JsonValue } from "../../tool/meta";

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is data, not schemas. */
const DATA = new Set(["const", "enum", "default", "examples", "required", "type", "dependentRequired"]);

/** A fresh copy of `schema` in draft-07's spelling (the input is not changed). */
export function toDraft07(schema: JsonSchema): JsonSchema {
  return convert(schema) as JsonSchema;
}

function convert(schema: JsonValue): JsonValue {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return copy(schema);
  const out: { [key: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "prefixItems" || key === "items" || key === "dependentRequired" || key === "$defs") continue;
    if (key === "$ref" && typeof value === "string") out.$ref = value.replace(/^#\/\$defs\//, "#/definitions/");
    else if (SCHEMA_MAPS.has(key)) out[key] = mapSchemas(value);
    else if (DATA.has(key)) out[key] = copy(value);
    else out[key] = Array.isArray(value) ? value.map(convert) : convert(value);
  }
  if (schema.$defs !== undefined) out.definitions = mapSchemas(schema.$defs);
  if (Array.isArray(schema.prefixItems)) {
    out.items = schema.prefixItems.map(convert);
    if (schema.items !== undefined) out.additionalItems = convert(schema.items);
  } else if (schema.items !== undefined) {
    out.items = convert(schema.items);
  }
  if (schema.dependentRequired !== undefined) out.dependencies = copy(schema.dependentRequired);
  return out;
}

function mapSchemas(value: JsonValue): JsonValue {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return copy(value);
  return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, convert(schema)]));
}

function copy(value: JsonValue): JsonValue {
  return value === null || typeof value !== "object" ? value : (JSON.parse(JSON.stringify(value)) as JsonValue);
}
