/**
 * Small helpers the runtime shares for reading JSON Schema as plain data (provider formats, validation messages,
 * coercion, schema-fit): is it an object schema, resolve a
 * local `$ref`, does a schema accept `null`, write a JSON pointer. No provider knowledge lives here.
 */
import type { JsonSchema, JsonValue } from "../tool/meta";

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema a local reference (`#/$defs/Name`, or any `#/…` pointer) points at, if it resolves. */
export function resolveRef(root: JsonSchema, ref: string): JsonValue | undefined {
  if (!ref.startsWith("#")) return undefined;
  const pointer = ref.slice(1);
  if (pointer === "") return root;
  if (!pointer.startsWith("/")) return undefined;
  let node: JsonValue | undefined = root;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isRecord(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** The name of the `$defs` entry a reference points at (`#/$defs/Tree` → `Tree`), else the reference itself. */
export function refName(ref: string): string {
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  return match ? match[1]!.replace(/~1/g, "/").replace(/~0/g, "~") : ref;
}

/** True when the schema says "object": `type: "object"` (alone or in a type list) or listed `properties`. */
export function isObjectSchema(schema: JsonSchema): boolean {
  const type = schema.type;
  return type === "object" || (Array.isArray(type) && type.includes("object")) || isRecord(schema.properties);
}

/** True when `null` passes the schema's own type, enum, const, union and reference checks. */
export function acceptsNull(schema: JsonValue | undefined, root: JsonSchema, seen: Set<string> = new Set()): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  const ref = schema.$ref;
  if (typeof ref === "string") {
    if (seen.has(ref)) return false;
    const target = resolveRef(root, ref);
    if (target === undefined || !acceptsNull(target, root, new Set([...seen, ref]))) return false;
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && !branches.some((branch) => acceptsNull(branch, root, seen))) return false;
  }
  if ("const" in schema && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  const type = schema.type;
  if (typeof type === "string" && type !== "null") return false;
  if (Array.isArray(type) && !type.includes("null")) return false;
  return true;
}

/** A schema that accepts anything: `{}`, `true`, or only annotations (the transformer's `unknown` / `any`). */
export function isAnySchema(schema: JsonValue | undefined): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "deprecated",
  "$comment",
  "readOnly",
  "writeOnly",
]);

/** One JSON pointer segment, escaped. */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** How a path is shown in messages: the pointer, or `(root)` for the schema itself. */
export function showPath(path: string): string {
  return path === "" ? "(root)" : path;
}

/** Short JSON for messages and descriptions. */
export function json(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}
