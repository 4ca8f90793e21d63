/**
 * Schema-guided coercion: the arguments the model meant, where its slip is one of a few well-known ones.
 *
 * Walks the parameter schema alongside the value (`$ref` into `$defs`, `anyOf`/`oneOf`, type arrays such as
 * `["string", "null"]`, `properties`, `additionalProperties`, `items`, `prefixItems`) and, only where the value's
 * JSON type is not one the schema accepts, applies these rules and no others:
 * - number: a string in JSON number syntax where a number is expected (`"42"`, `"-1.5e3"`), or an integer is
 *   expected and it is one (`"7"`, not `"7.5"`); no hex, no `+`, no leading zeros, no blanks, no `"NaN"`;
 * - boolean: exactly `"true"` or `"false"` where a boolean is expected;
 * - json: a string holding a JSON object or array where that is expected (double-stringified arguments), read
 *   strictly, with the same depth limit and `__proto__` dropping as the arguments themselves;
 * - array: a lone value where an array is expected that admits one item, when the value fits the item's type;
 * - date: a calendar date alone (`"2025-01-02"`) where the format is `date-time` (a `Date` parameter), read as
 *   midnight UTC (`"2025-01-02T00:00:00Z"`).
 * A value whose type the schema already accepts is never changed (`"5"` stays a string where a string or a number
 * is accepted), nothing becomes a string, and in a union a value is converted only for the one alternative that
 * can take it (or, among several, the first whose whole schema it then satisfies).
 *
 * Dispatch runs this only after validation failed and validates again afterwards, so valid arguments cost nothing;
 * the value is changed in place (it is already the dispatcher's own copy) and each change is recorded.
 */
import { readJson } from "../read/bounded-json";
import { copyJsonValue, isPlainObject } from "../read/read-arguments";
import type { Coercion } from "./coercion";
import type { JsonSchema } from "../../tool/meta";
import { resolveRef } from "../../validation/json-schema";

export type { Coercion, CoercionRule } from "./coercion";

export interface CoercionContext {
  /** The parameter schema: `$ref`s resolve against it. */
  root: JsonSchema;
  /** Whether `value` satisfies `schema`, a part of `root`; only used to choose between union alternatives. */
  fits(schema: unknown, value: unknown): boolean;
  /** The depth limit arguments were read with; parsed JSON strings must keep to it too. */
  maxDepth: number;
}

/** Coerce `args` in place against the root schema; returns what was changed (empty when nothing was). */
export function coerceArguments(args: Record<string, unknown>, context: CoercionContext): Coercion[] {
  const out: Coercion[] = [];
  // Trying union alternatives on copies could revisit nested values once per alternative and level (2^depth for a
  // recursive union); a budget of twice the values plus some bounds that, and an ordinary walk never meets it.
  steps = 2 * countValues(args) + 1000;
  try {
    coerceNode(args, context.root, "", 1, context, out);
  } finally {
    steps = Infinity;
  }
  return out;
}

/** Nodes the coercion under way may still visit (see coerceArguments). */
let steps = Infinity;

function countValues(value: unknown): number {
  if (typeof value !== "object" || value === null) return 1;
  let n = 1;
  for (const child of Array.isArray(value) ? value : Object.values(value)) n += countValues(child);
  return n;
}

type Schema = Record<string, unknown>;

const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** `$ref` hops followed before giving up on a schema (a cycle of bare `$ref`s would otherwise never end). */
const MAX_REF_HOPS = 32;
const NONE = Symbol("no coercion");

/** The value to put where `value` is; `value` itself when nothing applies. */
function coerceNode(
  value: unknown,
  schema: unknown,
  path: string,
  depth: number,
  context: CoercionContext,
  out: Coercion[],
): unknown {
  if (--steps < 0) return value;
  const s = resolve(schema, context.root);
  if (s === undefined) return value;
  const union = alternatives(s);
  if (union) return coerceUnion(value, union, path, depth, context, out);
  const types = expectedTypes(s);
  if (typeof value === "string" && s.format === "date-time" && isCalendarDate(value)) {
    out.push({ path, rule: "date", from: value });
    return `${value}T00:00:00Z`;
  }
  if (types === undefined || hasType(types, value)) return descend(value, s, path, depth, context, out);
  const converted = convert(value, s, types, path, depth, context);
  if (converted === undefined) return value;
  out.push(...converted.coercions);
  return converted.value;
}

/** `YYYY-MM-DD` naming a day that exists (no `2025-02-30`). */
function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.getUTCMonth() === Number(match[2]) - 1 && day.getUTCDate() === Number(match[3]);
}

/** Coerce inside an array or object whose own type is right. */
function descend(
  value: unknown,
  s: Schema,
  path: string,
  depth: number,
  context: CoercionContext,
  out: Coercion[],
): unknown {
  if (Array.isArray(value)) {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    const items = s.items;
    for (let i = 0; i < value.length; i++) {
      const sub = i < prefix.length ? prefix[i] : items;
      if (typeof sub !== "object" || sub === null) continue;
      const next = coerceNode(value[i], sub, `${path}/${i}`, depth + 1, context, out);
      if (next !== value[i]) value[i] = next;
    }
  } else if (isPlainObject(value)) {
    const properties = isSchema(s.properties) ? s.properties : undefined;
    const additional = isSchema(s.additionalProperties) ? s.additionalProperties : undefined;
    for (const key of Object.keys(value)) {
      // Own properties only: a key such as "constructor" must not find Object.prototype's in the schema's map.
      const sub = properties && Object.hasOwn(properties, key) ? properties[key] : additional;
      if (sub === undefined) continue;
      const next = coerceNode(value[key], sub, `${path}/${escapePointer(key)}`, depth + 1, context, out);
      if (next !== value[key]) value[key] = next;
    }
  }
  return value;
}

/** A value of the wrong type for `s`: the converted value and what was done, or `undefined`. */
function convert(
  value: unknown,
  s: Schema,
  types: ReadonlySet<string>,
  path: string,
  depth: number,
  context: CoercionContext,
): { value: unknown; coercions: Coercion[] } | undefined {
  if (typeof value === "string") {
    const scalar = convertScalar(value, types);
    if (scalar !== NONE)
      return {
        value: scalar,
        coercions: [{ path, rule: typeof scalar === "boolean" ? "boolean" : "number", from: value }],
      };
    if (types.has("object") || types.has("array")) {
      const parsed = parseContainer(value, types, depth, context.maxDepth);
      if (parsed !== NONE) {
        const coercions: Coercion[] = [{ path, rule: "json", from: value }];
        return { value: descend(parsed, s, path, depth, context, coercions), coercions };
      }
    }
  }
  if (types.has("array") && value !== null && value !== undefined && !Array.isArray(value) && admitsOneItem(s)) {
    const itemSchema = Array.isArray(s.prefixItems) && s.prefixItems.length > 0 ? s.prefixItems[0] : s.items;
    const coercions: Coercion[] = [{ path, rule: "array", from: value }];
    if (itemSchema === false) return undefined;
    const item =
      itemSchema === undefined ? value : coerceNode(value, itemSchema, `${path}/0`, depth + 1, context, coercions);
    if (itemSchema !== undefined && !fitsType(item, itemSchema, context.root, 0)) return undefined;
    return { value: [item], coercions };
  }
  return undefined;
}

/** A number or boolean for a string, where the expected types call for one; NONE otherwise. */
function convertScalar(text: string, types: ReadonlySet<string>): number | boolean | typeof NONE {
  if ((types.has("number") || types.has("integer")) && NUMERIC.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n) && (types.has("number") || Number.isInteger(n))) return n;
    return NONE;
  }
  if (types.has("boolean") && (text === "true" || text === "false")) return text === "true";
  return NONE;
}

/** The object or array a JSON string holds, when one is expected there; NONE otherwise. */
function parseContainer(text: string, types: ReadonlySet<string>, depth: number, maxDepth: number): unknown {
  const trimmed = text.trim();
  const first = trimmed[0];
  if (!((first === "{" && types.has("object")) || (first === "[" && types.has("array")))) return NONE;
  // Nesting hidden in a string counts from where the string stands: refused before it is parsed.
  const read = readJson(trimmed, { maxBytes: Infinity, maxDepth: Math.max(0, maxDepth - depth + 1) });
  if (!read.ok) return NONE;
  const parsed = read.value;
  if (first === "{" ? !isPlainObject(parsed) : !Array.isArray(parsed)) return NONE;
  const copy = copyJsonValue(parsed, depth, maxDepth);
  return copy === undefined ? NONE : copy;
}

/**
 * A union: with alternatives that take the value's type, coerce inside the one that does (among several, the first
 * whose whole schema the coerced value satisfies); with none, convert for the one alternative a rule applies to.
 */
function coerceUnion(
  value: unknown,
  branches: readonly unknown[],
  path: string,
  depth: number,
  context: CoercionContext,
  out: Coercion[],
): unknown {
  const fitting = branches.filter((branch) => fitsType(value, branch, context.root, 0));
  if (fitting.length > 0) {
    if (fitting.length === 1) return coerceNode(value, fitting[0], path, depth, context, out);
    if (typeof value !== "object" || value === null) return value;
    if (fitting.some((branch) => context.fits(branch, value))) return value;
    for (const branch of fitting) {
      const found: Coercion[] = [];
      const trial = coerceNode(cloneJson(value), branch, path, depth, context, found);
      if (found.length > 0 && context.fits(branch, trial)) {
        out.push(...found);
        return trial;
      }
    }
    return value;
  }
  const candidates: { branch: unknown; value: unknown; coercions: Coercion[] }[] = [];
  for (const branch of branches) {
    const s = resolve(branch, context.root);
    const types = s && expectedTypes(s);
    if (!s || !types) continue;
    const converted = convert(cloneJson(value), s, types, path, depth, context);
    if (converted) candidates.push({ branch, ...converted });
  }
  const chosen = candidates.length === 1 ? candidates[0] : candidates.find((c) => context.fits(c.branch, c.value));
  if (!chosen) return value;
  out.push(...chosen.coercions);
  return chosen.value;
}

/** Whether the value's JSON type is one `schema` takes (no other keyword is looked at). */
function fitsType(value: unknown, schema: unknown, root: JsonSchema, hops: number): boolean {
  if (schema === false) return false;
  const s = resolve(schema, root);
  if (s === undefined) return true;
  const union = alternatives(s);
  if (union) return hops < MAX_REF_HOPS && union.some((branch) => fitsType(value, branch, root, hops + 1));
  const types = expectedTypes(s);
  return types === undefined || hasType(types, value);
}

/** An array schema a single item can satisfy (not a tuple of two or more, not `minItems` > 1). */
function admitsOneItem(s: Schema): boolean {
  const min = typeof s.minItems === "number" ? s.minItems : 0;
  const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
  return min <= 1 && max >= 1;
}

/** The types a schema accepts: `type`, else those of its `const` or `enum` values; `undefined` for any type. */
function expectedTypes(s: Schema): ReadonlySet<string> | undefined {
  if (typeof s.type === "string") return new Set([s.type]);
  if (Array.isArray(s.type)) return new Set(s.type.filter((t): t is string => typeof t === "string"));
  if ("const" in s) return new Set([jsonType(s.const)]);
  if (Array.isArray(s.enum)) return new Set(s.enum.map(jsonType));
  return undefined;
}

function hasType(types: ReadonlySet<string>, value: unknown): boolean {
  const type = jsonType(value);
  if (type === "number") return types.has("number") || (types.has("integer") && Number.isInteger(value));
  return types.has(type);
}

/** The JSON Schema type of a value as ajv sees it (any non-array object is an "object"); else its `typeof`. */
function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The schema object `schema` stands for, following local `$ref`s; `undefined` for boolean and unknown schemas. */
function resolve(schema: unknown, root: JsonSchema): Schema | undefined {
  let current = schema;
  for (let hops = 0; hops <= MAX_REF_HOPS; hops++) {
    if (!isSchema(current)) return undefined;
    if (typeof current.$ref !== "string") return current;
    current = resolveRef(root, current.$ref);
  }
  return undefined;
}

function alternatives(s: Schema): readonly unknown[] | undefined {
  if (Array.isArray(s.anyOf)) return s.anyOf;
  if (Array.isArray(s.oneOf)) return s.oneOf;
  return undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of plain JSON data to try a union alternative on; anything else is shared, as it is never changed. */
function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = cloneJson(value[key]);
    return out;
  }
  return value;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
