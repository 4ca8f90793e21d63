/**
 * OpenAI strict mode (Structured Outputs for function tools), both ways.
 *
 * - `toStrictSchema`: rewrites a parameter schema into OpenAI's strict subset: every property listed in `required`,
 *   the optional ones made nullable (`null` stands for "left out"), `additionalProperties: false` on every object,
 *   and keywords strict mode does not take (`default`, `minLength`, formats outside its list, …) moved into the
 *   description text rather than dropped. What strict mode cannot express at all (tuples, `Record`s, untyped
 *   values, a root union, `allOf` / `not` / conditionals) is a ToolExportError naming the tool and the path.
 * - `checkStrictLimits`: OpenAI's size limits of one strict schema, checked when exporting (openai-limits.ts has the
 *   numbers and the tool count every export checks).
 * The undo (a `null` for an optional property means "left out") is run by dispatch when validation fails, so it
 * lives with the arguments: runtime/arguments/repair/optional-nulls.ts.
 *
 * The rewrite never changes what dispatch validates: arguments are still checked against the original schema, so a
 * constraint moved into the description is still enforced (and explained to the model when broken).
 */
import { ToolExportError } from "../tool/errors";
import type { JsonSchema, JsonValue } from "../tool/meta";
import { acceptsNull, isObjectSchema, isRecord, json, pointerSegment, resolveRef } from "../validation/json-schema";
import { OPENAI_LIMITS } from "./openai-limits";
import { type StrictDialect, StrictWalk } from "./walk";

/** The `format` values strict mode accepts; others go into the description. */
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** Keywords strict mode takes as they are. */
const KEPT = new Set([
  "type",
  "enum",
  "const",
  "$ref",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "title",
]);

/** Refused by OpenAI beyond what neither subset takes (walk.ts). */
const UNSUPPORTED = new Set(["allOf"]);

const cache = new WeakMap<JsonSchema, JsonSchema>();

/**
 * The strict form of a tool's parameter schema, limits checked. Metadata is immutable, so the result is kept per
 * schema object. Throws ToolExportError for what strict mode cannot express.
 */
export function toStrictSchema(schema: JsonSchema, toolName: string): JsonSchema {
  const cached = cache.get(schema);
  if (cached) return cached;
  const strict = new StrictWalk(OPENAI_STRICT, toolName, schema).root();
  checkStrictLimits(strict, toolName);
  cache.set(schema, strict);
  return strict;
}

/** OpenAI's subset: every property required, the optional ones nullable, every object closed. */
const OPENAI_STRICT: StrictDialect = {
  feature: "OpenAI strict mode",
  term: "strict mode",
  otherwise: "Or export this tool without strict mode (@tool({ strict: false }) / tool(fn, { strict: false })).",
  format: "openai-strict",
  kept: KEPT,
  unsupported: UNSUPPORTED,
  formats: STRICT_FORMATS,
  checkRoot(walk, schema) {
    if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
      walk.fail("", "is a union (anyOf)", "strict mode needs the root to be one object");
    }
    if (schema.type !== "object")
      walk.fail("", `has type ${json(schema.type)}`, "strict mode needs the root to be an object");
  },
  keyword(walk, node, keyword, _child, path, out) {
    if (keyword === "properties") {
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      const properties = walk.properties(node, path);
      for (const name of Object.keys(properties)) {
        if (!required.has(name)) properties[name] = nullable(properties[name] as JsonSchema, walk.original);
      }
      Object.assign(out, { properties, required: Object.keys(properties), additionalProperties: false });
      return true;
    }
    // Written with the properties: all of them.
    return keyword === "required";
  },
  closeObject(out) {
    if (!("properties" in out)) Object.assign(out, { properties: {}, required: [], additionalProperties: false });
  },
};

/** The schema, also accepting `null` (the strict way to write "optional"). Key order is kept. */
function nullable(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (acceptsNull(schema, root)) return schema;
  if (typeof schema.$ref === "string" || schema.type === "object" || schema.type === "array") {
    // A reference, an object or an array stays whole; the union with null goes around it, the description with it
    // (OpenAI documents type lists for primitives; for the rest, anyOf is the form its own SDK writes).
    const { description, ...rest } = schema;
    const wrapped: JsonSchema = { anyOf: [rest, { type: "null" }] };
    if (description !== undefined) wrapped.description = description;
    return wrapped;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === "type") out.type = Array.isArray(value) ? [...value, "null"] : [value, "null"];
    else if (keyword === "enum") out.enum = [...(Array.isArray(value) ? value : []), null];
    else if (keyword === "const") out.enum = [value, null];
    else out[keyword] = value;
  }
  return out;
}

/**
 * OpenAI's size limits of one strict schema: object properties, nesting depth (references followed, recursion
 * counted once), total string length, enum values. Throws ToolExportError saying which limit, where and by how much.
 */
export function checkStrictLimits(schema: JsonSchema, toolName: string): void {
  const fail = (limit: string, detail: string, path?: string): never => {
    throw new ToolExportError(`Tool "${toolName}" exceeds an OpenAI strict-mode limit: ${limit}; ${detail}.`, {
      format: "openai-strict",
      toolName,
      ...(path === undefined ? {} : { path }),
    });
  };
  const count = (n: number): string => n.toLocaleString("en-US");

  // Size: every schema node once (the root and its definitions), however often it is referenced.
  let properties = 0;
  let characters = 0;
  let enumValues = 0;
  const measure = (node: JsonValue | undefined, path: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        measure(item, `${path}/${i}`);
      });
      return;
    }
    if (!isRecord(node)) return;
    for (const [keyword, value] of Object.entries(node)) {
      const here = `${path}/${pointerSegment(keyword)}`;
      if (keyword === "properties" && isRecord(value)) {
        for (const [name, child] of Object.entries(value)) {
          properties++;
          characters += name.length;
          measure(child, `${here}/${pointerSegment(name)}`);
        }
      } else if ((keyword === "$defs" || keyword === "definitions") && isRecord(value)) {
        for (const [name, child] of Object.entries(value)) {
          characters += name.length;
          measure(child, `${here}/${pointerSegment(name)}`);
        }
      } else if (keyword === "enum" && Array.isArray(value)) {
        const values = value.filter((v) => v !== null);
        enumValues += values.length;
        const length = values.reduce<number>((sum, v) => sum + String(v).length, 0);
        characters += length;
        if (
          values.length > OPENAI_LIMITS.largeEnum &&
          values.every((v) => typeof v === "string") &&
          length > OPENAI_LIMITS.largeEnumLength
        ) {
          fail(
            `a string enum of more than ${OPENAI_LIMITS.largeEnum} values may total at most ${count(OPENAI_LIMITS.largeEnumLength)} characters`,
            `${here} has ${count(values.length)} values totalling ${count(length)} characters`,
            here,
          );
        }
      } else if (keyword === "const") {
        if (value !== null) characters += String(value).length;
      } else if (keyword === "items" || keyword === "anyOf" || keyword === "additionalProperties") {
        measure(value, here);
      }
    }
  };
  measure(schema, "");
  if (properties > OPENAI_LIMITS.properties) {
    fail(
      `at most ${count(OPENAI_LIMITS.properties)} object properties in total`,
      `this schema has ${count(properties)}`,
    );
  }
  if (enumValues > OPENAI_LIMITS.enumValues) {
    fail(`at most ${count(OPENAI_LIMITS.enumValues)} enum values in total`, `this schema has ${count(enumValues)}`);
  }
  if (characters > OPENAI_LIMITS.stringLength) {
    fail(
      `at most ${count(OPENAI_LIMITS.stringLength)} characters in total across property names, definition names, enum and const values`,
      `this schema has ${count(characters)}`,
    );
  }

  // Depth: objects along each path, following references; a reference already on the path (recursion) stops there.
  const deepest = (node: JsonValue | undefined, path: string, level: number, refs: readonly string[]): void => {
    if (!isRecord(node)) return;
    const here = isObjectSchema(node) ? level + 1 : level;
    if (here > OPENAI_LIMITS.depth) {
      fail(`objects may nest at most ${OPENAI_LIMITS.depth} levels deep`, `${path} is at level ${here}`, path);
    }
    const ref = node.$ref;
    if (typeof ref === "string" && !refs.includes(ref)) {
      deepest(resolveRef(schema, ref), `${path} → ${ref}`, level, [...refs, ref]);
    }
    if (isRecord(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        deepest(child, `${path}/properties/${pointerSegment(name)}`, here, refs);
      }
    }
    if (isRecord(node.items)) deepest(node.items, `${path}/items`, here, refs);
    if (Array.isArray(node.anyOf))
      node.anyOf.forEach((branch, i) => {
        deepest(branch, `${path}/anyOf/${i}`, here, refs);
      });
  };
  deepest(schema, "", 0, []);
}
