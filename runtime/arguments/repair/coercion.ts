/**
 * What a coercion records (coerce.ts applies the rules). Apart from coerce.ts so that reading arguments
 * (read-arguments.ts),
 * which reports the unwrapping of a double-stringified object as a coercion, does not import the rules that use it.
 */

/** Which rule converted a value. */
export type CoercionRule = "number" | "boolean" | "json" | "array" | "date";

/** One value converted to the schema's type. */
export interface Coercion {
  /** JSON pointer of the value in the arguments object (`""` for the object itself). */
  path: string;
  rule: CoercionRule;
  /** The value as it arrived. */
  from: unknown;
}
