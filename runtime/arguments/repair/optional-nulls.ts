/**
 * The undo of OpenAI's strict rewrite (runtime/strict/openai.ts), run by dispatch when validation fails: in strict
 * mode every property is required and an optional one is sent as `null` to mean "left out". Kept with the arguments
 * because conforming a value (conform.ts) needs it whatever provider the call came from.
 */
import type { JsonSchema, JsonValue } from "../../tool/meta";
import { acceptsNull, isObjectSchema, isRecord, resolveRef } from "../../validation/json-schema";

/**
 * The undo of the strict rewrite, run on every call before validation: a `null` for an optional property whose own
 * schema does not accept null means "left out", so the key is deleted (the function's default then applies). Keys
 * the schema requires, or whose schema accepts null, keep their null. Walks the arguments, not the schema, so it
 * ends for recursive schemas too; unions are honoured (a null is dropped only when no alternative accepts it).
 * Mutates `args`, the fresh copy dispatch made of the model's arguments.
 */
export function dropOptionalNulls(args: Record<string, unknown>, schema: JsonSchema): boolean {
  return strip(args, [schema], schema);
}

/** True when it dropped anything. */
function strip(value: unknown, schemas: readonly JsonValue[], root: JsonSchema): boolean {
  if (typeof value !== "object" || value === null) return false;
  const alternatives = expand(schemas, root);
  if (alternatives.length === 0) return false;
  let dropped = false;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const itemSchemas: JsonValue[] = [];
      for (const alternative of alternatives) {
        const prefix = alternative.prefixItems;
        if (Array.isArray(prefix) && i < prefix.length) itemSchemas.push(prefix[i]!);
        else if (isRecord(alternative.items)) itemSchemas.push(alternative.items);
      }
      if (strip(item, itemSchemas, root)) dropped = true;
    });
    return dropped;
  }
  const record = value as Record<string, unknown>;
  const objects = alternatives.filter(
    (alternative) => isObjectSchema(alternative) || isRecord(alternative.additionalProperties),
  );
  if (objects.length === 0) return false;
  for (const key of Object.keys(record)) {
    const children: JsonValue[] = [];
    let declared = false;
    let optional = true;
    let nullAllowed = false;
    for (const object of objects) {
      const own =
        isRecord(object.properties) && Object.hasOwn(object.properties, key) ? object.properties[key] : undefined;
      if (own !== undefined) {
        declared = true;
        children.push(own);
        if (Array.isArray(object.required) && object.required.includes(key)) optional = false;
        if (acceptsNull(own, root)) nullAllowed = true;
      } else if (object.additionalProperties !== false) {
        // A free-form key: whatever its value schema says about null, it is not an optional parameter left out.
        nullAllowed = true;
        if (isRecord(object.additionalProperties)) children.push(object.additionalProperties);
      }
    }
    if (record[key] === null) {
      if (declared && optional && !nullAllowed) {
        delete record[key];
        dropped = true;
      }
    } else if (strip(record[key], children, root)) {
      dropped = true;
    }
  }
  return dropped;
}

/** The alternatives a value is checked against: references resolved, unions flattened (each schema once). */
function expand(
  schemas: readonly JsonValue[],
  root: JsonSchema,
  out: JsonSchema[] = [],
  seen = new Set<JsonSchema>(),
): JsonSchema[] {
  for (const schema of schemas) {
    if (!isRecord(schema) || seen.has(schema)) continue;
    seen.add(schema);
    if (typeof schema.$ref === "string") {
      const target = resolveRef(root, schema.$ref);
      if (target !== undefined) expand([target], root, out, seen);
    }
    for (const keyword of ["anyOf", "oneOf", "allOf"] as const) {
      const branches = schema[keyword];
      if (Array.isArray(branches)) expand(branches, root, out, seen);
    }
    out.push(schema);
  }
  return out;
}
