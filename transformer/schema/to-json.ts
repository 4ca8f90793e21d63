/**
 * Writes the schema model as JSON Schema (draft 2020-12): the exact shape the runtime validates with and the
 * providers receive. Structural keywords come first, then constraints, then `description` and `default`, so the
 * emitted schema reads the way a person would write it; compact forms (`type` arrays for unions of plain
 * primitives, nullable enums) are used wherever they say the same as `anyOf`.
 */
import type { JsonSchema, JsonValue } from "../../runtime/tool/meta";
import type { Definitions, LiteralValue, PropertyNode, SchemaNode } from "./model";

export function toJsonSchema(node: SchemaNode): JsonSchema {
  const schema = structural(node);
  const { description, default: defaultValue, ...rest } = node.keywords ?? {};
  Object.assign(schema, rest);
  const told = describeEnum(node, description);
  if (told !== undefined) schema.description = told;
  if (defaultValue !== undefined) schema.default = defaultValue;
  return schema;
}

/** The tool's `parameters`: an object of its arguments, closed, with shared definitions at the root. */
export function parametersSchema(properties: PropertyNode[], definitions: Definitions): JsonSchema {
  // Providers expect `properties` on the root even when a tool takes no arguments.
  const schema = objectSchema(properties, [], false, true);
  if (definitions.size > 0) schema.$defs = definitionsJson(definitions);
  return schema;
}

export function definitionsJson(definitions: Definitions): { [name: string]: JsonValue } {
  const defs: { [name: string]: JsonValue } = {};
  for (const [name, node] of definitions) defs[name] = toJsonSchema(node);
  return defs;
}

function objectSchema(
  properties: PropertyNode[],
  patterns: { pattern: string; schema: SchemaNode }[],
  additional: SchemaNode | boolean,
  alwaysProperties = false,
): JsonSchema {
  const schema: JsonSchema = { type: "object" };
  if (properties.length > 0 || alwaysProperties) {
    const props: { [name: string]: JsonValue } = {};
    for (const p of properties) props[p.name] = toJsonSchema(p.schema);
    schema.properties = props;
    const required = properties.filter((p) => p.required).map((p) => p.name);
    if (required.length > 0) schema.required = required;
  }
  if (patterns.length > 0) {
    const byPattern: { [pattern: string]: JsonValue } = {};
    for (const p of patterns) byPattern[p.pattern] = toJsonSchema(p.schema);
    schema.patternProperties = byPattern;
  }
  // `true` is JSON Schema's default: the `object` type says nothing about its keys.
  if (additional !== true) schema.additionalProperties = additional === false ? false : toJsonSchema(additional);
  return schema;
}

/** A numeric enum's member names go into the description (`1 = Low, 2 = High`): the model sees only the values. */
function describeEnum(node: SchemaNode, description: JsonValue | undefined): JsonValue | undefined {
  // `Level | null` is written as one nullable enum, which carries the description.
  const nullable =
    node.kind === "union" &&
    description !== undefined &&
    node.members.length === 2 &&
    node.members.some((m) => m.kind === "primitive" && m.type === "null");
  const e = node.kind === "enum" ? node : nullable ? node.members.find((m) => m.kind === "enum") : undefined;
  if (e?.kind !== "enum" || !e.names) return description;
  const names = e.values.map((v, i) => `${JSON.stringify(v)} = ${e.names![i]}`).join(", ");
  return typeof description === "string" && description !== "" ? `${description} (${names})` : names;
}

function structural(node: SchemaNode): JsonSchema {
  switch (node.kind) {
    case "primitive":
      return { type: node.type };
    case "any":
      return {};
    case "date":
      return { type: "string", format: "date-time" };
    case "url":
      return { type: "string", format: "uri" };
    case "never":
      return { not: {} };
    case "literal":
      return { type: jsonType(node.value), const: node.value };
    case "enum":
      return { type: enumType(node.values), enum: node.values };
    case "array":
      return { type: "array", items: toJsonSchema(node.items) };
    case "tuple": {
      const schema: JsonSchema = { type: "array" };
      // The meta-schema wants a non-empty prefixItems; `[]` and `[...T[]]` need none.
      if (node.prefix.length > 0) schema.prefixItems = node.prefix.map(toJsonSchema);
      if (node.rest) schema.items = toJsonSchema(node.rest);
      if (node.minItems > 0) schema.minItems = node.minItems;
      if (!node.rest) schema.maxItems = node.prefix.length;
      return schema;
    }
    case "object":
      return objectSchema(node.properties, node.patterns, node.additionalProperties);
    case "ref":
      return { $ref: `#/$defs/${node.name}` };
    case "union":
      return typeArray(node.members) ?? nullableShorthand(node.members) ?? { anyOf: node.members.map(toJsonSchema) };
  }
}

/** `string | number | null` as `{ type: ["string", "number", "null"] }`: only for primitives without keywords. */
function typeArray(members: SchemaNode[]): JsonSchema | undefined {
  const types: JsonValue[] = [];
  for (const m of members) {
    if (m.kind !== "primitive" || (m.keywords && Object.keys(m.keywords).length > 0)) return undefined;
    // A type listed twice makes the schema invalid; the reader merges equal branches, this keeps it so regardless.
    if (!types.includes(m.type)) types.push(m.type);
  }
  return { type: types };
}

/**
 * `string | null` with keywords as `{ type: ["string", "null"], minLength: 1 }`, `"a" | "b" | null` as a nullable
 * enum, `Date | null` as a nullable date-time: the compact form models and validators both read well. Type-specific
 * keywords ignore null, so they can sit beside the type array. Anything richer stays `anyOf`.
 */
function nullableShorthand(members: SchemaNode[]): JsonSchema | undefined {
  if (members.length !== 2) return undefined;
  const [value, nullish] = members as [SchemaNode, SchemaNode];
  if (!(nullish.kind === "primitive" && nullish.type === "null" && !nullish.keywords)) return undefined;
  const keywords = value.keywords ?? {};
  switch (value.kind) {
    case "primitive":
      return { type: [value.type, "null"], ...keywords };
    case "date":
      return { type: ["string", "null"], format: "date-time", ...keywords };
    case "url":
      return { type: ["string", "null"], format: "uri", ...keywords };
    case "enum":
    case "literal": {
      const values = value.kind === "enum" ? value.values : [value.value];
      const type = enumType(values);
      const schema: JsonSchema = {
        type: [...(Array.isArray(type) ? type : [type]), "null"],
        enum: [...values, null],
        ...keywords,
      };
      const told = describeEnum(value, keywords.description);
      if (told !== undefined) schema.description = told;
      return schema;
    }
    default:
      return undefined;
  }
}

function jsonType(value: LiteralValue): string {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The JSON type(s) of enum values, in order of first appearance; integers fold into number when both occur. */
function enumType(values: LiteralValue[]): JsonValue {
  const types = [...new Set(values.map(jsonType))];
  if (types.includes("number") && types.includes("integer")) types.splice(types.indexOf("integer"), 1);
  return types.length === 1 ? types[0]! : types;
}
