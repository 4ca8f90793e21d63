/**
 * Checks a tool's `@example` arguments against its parameter schema at build time (TT1026). A model copies an
 * example more faithfully than it reads a schema, so an example the schema refuses teaches it calls that fail.
 *
 * The check is the runtime's own: ajv over the schema the metadata carries, and the failure path's words
 * (runtime/arguments/explain/invalid.ts), so the diagnostic says what dispatch would answer a model that sent the same
 * arguments. No coercion: an example is written by a person and should be exact.
 */
import type * as invalid from "../runtime/arguments/explain/invalid";
import type * as validate from "../runtime/validation/validate";
import type { JsonSchema, JsonValue } from "../runtime/tool/meta";

/**
 * The runtime's checker, loaded by the first tool with an `@example`: it brings the runtime's failure path and its
 * pattern guard (re2js) along, about 20 ms of `tooltype check`'s start on a project without examples.
 */
let runtime:
  | { findInvalid: typeof invalid.findInvalid; ArgumentsValidator: typeof validate.ArgumentsValidator }
  | undefined;
function loadRuntime(): NonNullable<typeof runtime> {
  runtime ??= {
    findInvalid: (require("../runtime/arguments/explain/invalid") as typeof invalid).findInvalid,
    ArgumentsValidator: (require("../runtime/validation/validate") as typeof validate).ArgumentsValidator,
  };
  return runtime;
}

/** Validators by schema text: a tool with several examples compiles its schema once. */
const validators = new Map<string, validate.ArgumentsValidator>();

/** What is wrong with `example` as arguments of `parameters`, one line per violation; undefined when it fits. */
export function exampleProblems(parameters: JsonSchema, example: { [key: string]: JsonValue }): string[] | undefined {
  const { findInvalid, ArgumentsValidator } = loadRuntime();
  const key = JSON.stringify(parameters);
  let validator = validators.get(key);
  if (!validator) {
    validator = new ArgumentsValidator(parameters);
    if (validators.size > 100) validators.clear();
    validators.set(key, validator);
  }
  return findInvalid(validator, example)?.issues;
}
