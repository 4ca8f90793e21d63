/**
 * Writes the schema model as JSON Schema (draft 2020-12): the exact shape the runtime validates with and the
 * providers receive. Structural keywords come first, then constraints, then `description` and `default`, so the
 * emitted schema reads the way a person would write it.
 */
import type { JsonSchema, JsonValue } from "../../runtime/meta";
import type { Definitions, PropertyNode, SchemaNode } from "./model";

export function toJsonSchema(node: SchemaNode): JsonSchema {
  const schema = structural(node);
  const { description, default: defaultValue, ...rest } = node.keywords ?? {};
  Object.assign(schema, rest);
  if (description !== undefined) schema.description = description;
  if (defaultValue !== undefined) schema.default = defaultValue;
  return schema;
}

/** The tool's `parameters`: an object of its arguments, closed, with shared definitions at the root. */
export function parametersSchema(properties: PropertyNode[], definitions: Definitions): JsonSchema {
  const schema = objectSchema(properties, false);
  if (definitions.size > 0) schema.$defs = definitionsJson(definitions);
  return schema;
}

export function definitionsJson(definitions: Definitions): { [name: string]: JsonValue } {
  const defs: { [name: string]: JsonValue } = {};
  for (const [name, node] of definitions) defs[name] = toJsonSchema(node);
  return defs;
}

function objectSchema(properties: PropertyNode[], additional: SchemaNode | false): JsonSchema {
  const props: { [name: string]: JsonValue } = {};
  for (const p of properties) props[p.name] = toJsonSchema(p.schema);
  const schema: JsonSchema = { type: "object", properties: props };
  const required = properties.filter((p) => p.required).map((p) => p.name);
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = additional === false ? false : toJsonSchema(additional);
  return schema;
}

function structural(node: SchemaNode): JsonSchema {
  switch (node.kind) {
    case "primitive":
      return { type: node.type };
    case "any":
      return {};
    case "literal":
      return { type: jsonType(node.value), const: node.value };
    case "enum":
      return { type: enumType(node.values), enum: node.values };
    case "array":
      return { type: "array", items: toJsonSchema(node.items) };
    case "tuple": {
      const schema: JsonSchema = { type: "array", prefixItems: node.prefix.map(toJsonSchema), minItems: node.minItems };
      if (node.rest) schema.items = toJsonSchema(node.rest);
      else schema.maxItems = node.prefix.length;
      return schema;
    }
    case "object":
      return objectSchema(node.properties, node.additionalProperties);
    case "ref":
      return { $ref: `#/$defs/${node.name}` };
    case "union":
      return nullableShorthand(node.members) ?? { anyOf: node.members.map(toJsonSchema) };
  }
}

/**
 * `string | null` as `{ type: ["string", "null"] }` and `"a" | "b" | null` as a nullable enum: the compact form
 * models and validators both read well. Anything richer stays `anyOf`.
 */
function nullableShorthand(members: SchemaNode[]): JsonSchema | undefined {
  if (members.length !== 2) return undefined;
  const [value, nullish] = members as [SchemaNode, SchemaNode];
  if (!(nullish.kind === "primitive" && nullish.type === "null")) return undefined;
  // Type-specific keywords (minLength, format, ...) ignore null, so they can sit beside the type array.
  const { description: _ignored, ...keywords } = value.keywords ?? {};
  if (value.kind === "primitive") return { type: [value.type, "null"], ...keywords };
  if (value.kind === "enum") {
    const type = enumType(value.values);
    return { type: [...(Array.isArray(type) ? type : [type]), "null"], enum: [...value.values, null], ...keywords };
  }
  return undefined;
}

function jsonType(value: string | number | boolean): string {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function enumType(values: (string | number)[]): JsonValue {
  const types = [...new Set(values.map(jsonType))];
  if (types.includes("number") && types.includes("integer")) types.splice(types.indexOf("integer"), 1);
  return types.length === 1 ? types[0]! : types;
}
