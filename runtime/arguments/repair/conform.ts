/**
 * Bringing a parsed JSON object to its schema: validate; only if that fails, apply the coercion rules (a `null` for
 * an optional property left out, then coerce.ts) and validate again; then revive Dates. Tool arguments
 * (pipeline.ts) and structured answers (structured.ts) go through the same steps, so both follow the same rules.
 */
import { reviveDates } from "../read/read-arguments";
import { type Coercion, coerceArguments } from "./coerce";
import type { SchemaError } from "../../tool/errors";
import { dropOptionalNulls } from "./optional-nulls";
import { findInvalid, type Located } from "../explain/invalid";
import type { JsonSchema } from "../../tool/meta";
import { fitsSchema } from "../../validation/schema-fit";
import type { ArgumentsValidator } from "../../validation/validate";

export interface ConformSettings {
  coerce: boolean;
  /** The depth limit the value was read with; JSON strings parsed by coercion keep to it too. */
  maxDepth: number;
}

export interface Conformed {
  coercions: Coercion[];
  /** Present when the value still fails its schema: the violations and their lines. */
  invalid?: { errors: SchemaError[]; issues: string[]; located?: Located[] };
}

/** The answer for a value that was valid as it came: shared, since nothing about it is particular. */
const VALID: Conformed = Object.freeze({ coercions: Object.freeze([]) as unknown as Coercion[] });

/**
 * Conform `value` in place (coercions, revived Dates and URLs at the metadata's pointers). Already-valid values are
 * validated once and never walked.
 */
export function conform(
  value: Record<string, unknown>,
  schema: JsonSchema,
  validator: ArgumentsValidator,
  revive: { readonly dates?: readonly string[]; readonly urls?: readonly string[] },
  settings: ConformSettings,
): Conformed {
  let invalid = findInvalid(validator, value);
  if (!invalid) {
    reviveDates(value, revive.dates, revive.urls);
    return VALID;
  }
  const coercions: Coercion[] = [];
  // A null for an optional property means "left out", the form OpenAI strict mode gives optional values.
  if (invalid && settings.coerce && dropOptionalNulls(value, schema)) invalid = findInvalid(validator, value);
  if (invalid && settings.coerce) {
    const found = coerceArguments(value, {
      root: schema,
      fits: (s, v) => fitsSchema(v, s, validator.root),
      maxDepth: settings.maxDepth,
    });
    if (found.length > 0) {
      coercions.push(...found);
      invalid = findInvalid(validator, value);
    }
  }
  if (invalid) return { coercions, invalid };
  reviveDates(value, revive.dates, revive.urls);
  return { coercions };
}
