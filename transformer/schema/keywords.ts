/**
 * Checks on keywords a user attaches to a type (JSDoc tags and type tags), done on the schema model:
 * - a constraint must fit the type it is put on (`@minLength` on a number would be silently ignored by every
 *   validator, so the schema would promise a check that never happens);
 * - a `@default` or `@examples` value must be one the type accepts (models copy defaults and examples);
 * - a `format` should be one the runtime validator knows, or it is sent to the model but never checked.
 */
import type { JsonValue } from "../../runtime/tool/meta";
import type { SchemaNode } from "./model";

type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/** Keywords that only constrain values of one JSON type. */
const TARGETS: Record<string, "number" | "string" | "array"> = {
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  minItems: "array",
  maxItems: "array",
  uniqueItems: "array",
};

/**
 * Formats the runtime actually checks: those of ajv-formats (what the runtime's validator options load) that reject
 * some
 * value. Left out, so they get the TT1014 warning: JSON Schema's `idn-email`, `idn-hostname`, `iri` and
 * `iri-reference` (ajv-formats has none of them), and ajv-formats' `float`, `double`, `password` and `binary`,
 * which accept every value of their type. The transformer's format tests prove the list against the validator.
 */
export const KNOWN_FORMATS = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "uri-template",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
  "regex",
  "url",
  "iso-time",
  "iso-date-time",
  "json-pointer-uri-fragment",
  "byte",
  "int32",
  "int64",
]);

/** Keywords where the larger value is the stricter (a lower bound), and where the smaller is. */
const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems"]);
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems"]);
/** Keywords that describe rather than constrain: a more specific place (the property) overrides a general one (its type). */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "deprecated"]);

/**
 * The one rule for a keyword given twice (two type tags, two JSDoc tags, a tag on a property whose type already
 * has one): bounds combine to the stricter, `uniqueItems` and `deprecated` to true, a `multipleOf` that is a
 * multiple of the other wins; equal values are one. `override`: the new value comes from a more specific place,
 * so an annotation (`default`, `title`, ...) replaces the old one instead of conflicting. Anything else that
 * differs (two patterns, two formats, two defaults in one place) cannot both hold as written: the conflict is
 * returned for the caller to report.
 */
export function mergeKeyword(
  keywords: { [keyword: string]: JsonValue },
  keyword: string,
  value: JsonValue,
  override: boolean,
): { conflict: JsonValue } | undefined {
  const old = keywords[keyword];
  if (old === undefined || sameJson(old, value)) {
    keywords[keyword] = value;
    return undefined;
  }
  if (typeof old === "number" && typeof value === "number") {
    if (LOWER_BOUNDS.has(keyword)) return void (keywords[keyword] = Math.max(old, value));
    if (UPPER_BOUNDS.has(keyword)) return void (keywords[keyword] = Math.min(old, value));
    if (keyword === "multipleOf") {
      if (isMultiple(value, old)) return void (keywords[keyword] = value);
      if (isMultiple(old, value)) return undefined;
    }
  }
  if (
    (keyword === "uniqueItems" || keyword === "deprecated") &&
    typeof old === "boolean" &&
    typeof value === "boolean"
  ) {
    return void (keywords[keyword] = old || value);
  }
  if (keyword === "examples" && Array.isArray(old) && Array.isArray(value))
    return void (keywords[keyword] = [...old, ...value]);
  if (override && ANNOTATIONS.has(keyword)) return void (keywords[keyword] = value);
  return { conflict: old };
}

/** Bounds that no value can meet once combined (`minimum` above `maximum`): the pair, for the message. */
export function impossibleBounds(keywords: { [keyword: string]: JsonValue }): [string, string] | undefined {
  const pairs: [string, string][] = [
    ["minimum", "maximum"],
    ["minLength", "maxLength"],
    ["minItems", "maxItems"],
  ];
  for (const [low, high] of pairs) {
    const a = keywords[low];
    const b = keywords[high];
    if (typeof a === "number" && typeof b === "number" && a > b) return [low, high];
  }
  return undefined;
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function isMultiple(value: number, of: number): boolean {
  const ratio = value / of;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

export function sameJson(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Looks up a `$defs` entry while reading; undefined while that entry is still being read (recursion). */
export type Resolve = (name: string) => SchemaNode | undefined;

/** The JSON types a node's values can have, or "any" when that is not known or not limited. */
export function jsonTypes(node: SchemaNode, resolve: Resolve, seen = new Set<string>()): Set<JsonType> | "any" {
  switch (node.kind) {
    case "primitive":
      return new Set([node.type]);
    case "any":
      return "any";
    case "date":
    case "url":
      return new Set(["string"]);
    case "never":
      return new Set();
    case "literal":
      return new Set([valueType(node.value)]);
    case "enum":
      return new Set(node.values.map(valueType));
    case "array":
    case "tuple":
      return new Set(["array"]);
    case "object":
      return new Set(["object"]);
    case "union": {
      const all = new Set<JsonType>();
      for (const member of node.members) {
        const types = jsonTypes(member, resolve, seen);
        if (types === "any") return "any";
        types.forEach((t) => {
          all.add(t);
        });
      }
      return all;
    }
    case "ref": {
      const target = seen.has(node.name) ? undefined : resolve(node.name);
      if (!target) return "any";
      seen.add(node.name);
      return jsonTypes(target, resolve, seen);
    }
  }
}

/**
 * When `keyword` cannot constrain any value of `node`, the JSON type(s) the node has instead (for the message);
 * undefined when it fits. `null` alongside does not count: `(string & MinLength<1>) | null` is fine.
 */
export function misfit(keyword: string, node: SchemaNode, resolve: Resolve): string | undefined {
  const target = TARGETS[keyword];
  if (!target) return undefined;
  const types = jsonTypes(node, resolve);
  if (types === "any") return undefined;
  const fits = target === "number" ? types.has("number") || types.has("integer") : types.has(target);
  if (fits) return undefined;
  return [...types].join(" | ");
}

/** What a keyword constrains, for messages: "numbers", "strings", "arrays". */
export function targetOf(keyword: string): string | undefined {
  const target = TARGETS[keyword];
  return target && `${target}s`;
}

/**
 * Whether `value` is a value of `node`'s type, as far as the model can tell without running a validator:
 * JSON types, literals, enums, array items, tuple lengths, required and known properties. Constraint keywords
 * are not checked; references not yet read are taken to accept anything.
 */
export function accepts(node: SchemaNode, value: JsonValue, resolve: Resolve, seen = new Set<string>()): boolean {
  switch (node.kind) {
    case "any":
      return true;
    case "primitive":
      if (node.type === "null") return value === null;
      if (node.type === "integer") return typeof value === "number" && Number.isInteger(value);
      return typeof value === node.type;
    case "date":
      return typeof value === "string" && !Number.isNaN(Date.parse(value));
    case "url":
      return typeof value === "string" && isUrl(value);
    case "never":
      return false;
    case "literal":
      return value === node.value;
    case "enum":
      return (node.values as JsonValue[]).includes(value);
    case "array":
      return Array.isArray(value) && value.every((item) => accepts(node.items, item, resolve, seen));
    case "tuple": {
      if (!Array.isArray(value) || value.length < node.minItems) return false;
      if (!node.rest && value.length > node.prefix.length) return false;
      return value.every((item, i) => {
        const schema = node.prefix[i] ?? node.rest;
        return !schema || accepts(schema, item, resolve, seen);
      });
    }
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      for (const p of node.properties) {
        const v = value[p.name];
        if (v === undefined) {
          if (p.required) return false;
        } else if (!accepts(p.schema, v, resolve, seen)) return false;
      }
      if (node.additionalProperties === false && node.patterns.length === 0) {
        const known = new Set(node.properties.map((p) => p.name));
        if (Object.keys(value).some((k) => !known.has(k))) return false;
      }
      return true;
    }
    case "union":
      return node.members.some((m) => accepts(m, value, resolve, seen));
    case "ref": {
      const target = seen.has(node.name) ? undefined : resolve(node.name);
      if (!target) return true;
      return accepts(target, value, resolve, new Set([...seen, node.name]));
    }
  }
}

function valueType(value: string | number | boolean): JsonType {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as "string" | "boolean";
}
