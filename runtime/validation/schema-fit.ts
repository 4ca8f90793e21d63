/**
 * Whether a value satisfies a JSON Schema, decided by walking the schema, without compiling anything.
 *
 * Coercion asks this of union alternatives ("does the converted value fit this branch?"). Compiling each branch
 * with ajv would generate code at run time, which a no-eval policy forbids and which costs more than the walk for
 * a one-off question. It covers the keywords the transformer emits; the tool's real validator (compiled at build
 * time) still checks the final arguments, so this only has to choose well, never to be the last word.
 */
import { isRecord, resolveRef } from "./json-schema";
import { GuardedPattern } from "./patterns/pattern-guard";
import { StepBudget } from "./patterns/step-budget";
import type { JsonSchema } from "../tool/meta";

const MAX_REF_HOPS = 32;

/**
 * Answers for objects already asked about in the question under way: a recursive union tries each alternative on
 * the same nested objects, which without them costs 2^depth walks.
 */
let answers: WeakMap<object, Map<unknown, boolean>> | undefined;
/** The pattern budget of the question under way: one, however many branches and strings it tries. */
let budget: StepBudget | undefined;

export function fitsSchema(value: unknown, schema: unknown, root: JsonSchema, hops = 0): boolean {
  if (budget === undefined) {
    budget = new StepBudget();
    try {
      return fitsSchema(value, schema, root, hops);
    } finally {
      budget = undefined;
    }
  }
  if (typeof value !== "object" || value === null) return fits(value, schema, root, hops);
  const outermost = answers === undefined;
  answers ??= new WeakMap();
  try {
    let known = answers.get(value);
    if (!known) answers.set(value, (known = new Map()));
    let answer = known.get(schema);
    if (answer === undefined) {
      answer = fits(value, schema, root, hops);
      known.set(schema, answer);
    }
    return answer;
  } finally {
    if (outermost) answers = undefined;
  }
}

function fits(value: unknown, schema: unknown, root: JsonSchema, hops: number): boolean {
  if (schema === true || schema === undefined) return true;
  if (schema === false || typeof schema !== "object" || schema === null) return false;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === "string") {
    const target = resolveRef(root, s.$ref);
    if (target === undefined || hops >= MAX_REF_HOPS || !fitsSchema(value, target, root, hops + 1)) return false;
  }
  if (Array.isArray(s.anyOf) && !s.anyOf.some((b) => fitsSchema(value, b, root, hops))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((b) => fitsSchema(value, b, root, hops)).length !== 1) return false;
  if (Array.isArray(s.allOf) && !s.allOf.every((b) => fitsSchema(value, b, root, hops))) return false;
  if (s.type !== undefined && !(Array.isArray(s.type) ? s.type : [s.type]).some((t) => hasType(value, t))) return false;
  if ("const" in s && !sameJson(value, s.const)) return false;
  if (Array.isArray(s.enum) && !s.enum.some((e) => sameJson(value, e))) return false;
  if (typeof value === "number" && !fitsNumber(value, s)) return false;
  if (typeof value === "string" && !fitsString(value, s)) return false;
  if (Array.isArray(value)) return fitsArray(value, s, root, hops);
  if (typeof value === "object" && value !== null) return fitsObject(value as Record<string, unknown>, s, root, hops);
  return true;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

function fitsNumber(n: number, s: Record<string, unknown>): boolean {
  if (typeof s.minimum === "number" && n < s.minimum) return false;
  if (typeof s.maximum === "number" && n > s.maximum) return false;
  if (typeof s.exclusiveMinimum === "number" && n <= s.exclusiveMinimum) return false;
  if (typeof s.exclusiveMaximum === "number" && n >= s.exclusiveMaximum) return false;
  if (typeof s.multipleOf === "number" && !Number.isInteger(n / s.multipleOf)) return false;
  return true;
}

function fitsString(text: string, s: Record<string, unknown>): boolean {
  const length = [...text].length;
  if (typeof s.minLength === "number" && length < s.minLength) return false;
  if (typeof s.maxLength === "number" && length > s.maxLength) return false;
  if (typeof s.pattern === "string" && !matches(s.pattern, text)) return false;
  return true;
}

function fitsArray(items: unknown[], s: Record<string, unknown>, root: JsonSchema, hops: number): boolean {
  if (typeof s.minItems === "number" && items.length < s.minItems) return false;
  if (typeof s.maxItems === "number" && items.length > s.maxItems) return false;
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  for (let i = 0; i < items.length; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : s.items;
    if (!fitsSchema(items[i], itemSchema, root, hops)) return false;
  }
  if (s.uniqueItems === true && new Set(items.map((i) => JSON.stringify(i))).size !== items.length) return false;
  return true;
}

function fitsObject(
  record: Record<string, unknown>,
  s: Record<string, unknown>,
  root: JsonSchema,
  hops: number,
): boolean {
  const properties = isRecord(s.properties) ? s.properties : {};
  if (Array.isArray(s.required) && !s.required.every((key) => typeof key === "string" && Object.hasOwn(record, key))) {
    return false;
  }
  const patterns = isRecord(s.patternProperties) ? Object.entries(s.patternProperties) : [];
  for (const [key, value] of Object.entries(record)) {
    if (Object.hasOwn(properties, key)) {
      if (!fitsSchema(value, properties[key], root, hops)) return false;
      continue;
    }
    const matching = patterns.filter(([pattern]) => matches(pattern, key));
    if (matching.length > 0) {
      if (!matching.every(([, sub]) => fitsSchema(value, sub, root, hops))) return false;
      continue;
    }
    if (s.additionalProperties !== undefined && !fitsSchema(value, s.additionalProperties, root, hops)) return false;
  }
  return true;
}

/** Through the guarded matcher, as every pattern test: a test refused for its cost counts as no match. */
function matches(pattern: string, text: string): boolean {
  try {
    return new GuardedPattern(pattern, budget ?? new StepBudget()).test(text) === true;
  } catch {
    return false;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
