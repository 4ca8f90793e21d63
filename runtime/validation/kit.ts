/**
 * The run-time half of the validators tooltype's transformer generates (transformer/validator/): what the emitted
 * code asks for with `require("tooltype/validator@3")`. Generated code stays small and readable because it only
 * answers yes or no, and what needs more than an expression and most validators use lives here, once: explaining an
 * invalid value (the errors, kit-explain.ts), `$ref` memory, the object test. What only some schemas need (format
 * checks, guarded patterns, `uniqueItems`, string length in code points, deep equality) is not here: generated code
 * imports exactly those by name from `tooltype/kit` (runtime/entries/kit.ts), so a bundle holds only what its tools
 * use.
 *
 * The contract with generated code (version 3, the id says it):
 * - a generated check is `function (d)`: it returns truthy when the value is invalid;
 * - `v(check, patterns?, formats?)` turns the root check into the validate function the runtime calls: one yes/no
 *   pass of the generated code. `patterns` are the validator's guarded patterns (`tooltype/kit`'s `pattern()`),
 *   which then share one step budget, reset per run; `formats` the format checks it imported, by format name, with
 *   which the failure path explains a value (so the explainer imports no format checks of its own). For an invalid
 * value the failure path calls `kitErrors` (kit-explain.ts,
 *   loaded on need, not by this module), a walk of the parameter schema (set on the validate function as `schema`
 *   by runtime/validation/compiled-validator.ts) that collects at most {@link MAX_ERRORS} errors, so a wrong 1 MiB
 *   array costs about as much as a right one, and the emitted code carries no error paths, params or messages;
 * - errors name their place in the schema by a path relative to the root (`properties/a/type`), or by the keyword
 *   alone where the place follows from the value's JSON pointer: the runtime derives the path then, and reads the
 *   rest (the schema, the allowed values, the missing required names) from the root when it words the message.
 */
import { isObject, type KitError, MAX_ERRORS, MAX_UNION_DETAILS } from "./kit-checks";
import type { GuardedPattern } from "./patterns/pattern-guard";
import type { StepBudget } from "./patterns/step-budget";

export { type KitError, MAX_ERRORS, MAX_UNION_DETAILS };

/** The kit version: generated code and kit agree on it through the id `tooltype/validator@3`. */
export const KIT_VERSION = 3;

/** A check emitted by the generator: returns truthy when the value is invalid. */
export type Check = (data: unknown) => unknown;

/** What `v()` returns: called with the arguments, true when they are valid (`kitErrors` says why not). */
export interface KitValidate {
  (data: unknown): boolean;
  /** Marks a tooltype-generated validator of this kit version (errors bounded, schema paths from the root, union branches attached). */
  readonly kit: typeof KIT_VERSION;
  /** The validator's guarded patterns (none for most). */
  readonly patterns: readonly GuardedPattern[];
  /** The format checks its code uses, by format name (`"date-time"`). */
  readonly formats: Readonly<Record<string, (value: unknown) => boolean>>;
  /** The budget they share: which strings were refused for their cost in the last run (see pattern-guard.ts). */
  readonly budget: StepBudget | undefined;
  /** The schema the code was generated from: errors are explained against it (kit-explain.ts `kitErrors`). */
  schema: unknown;
}

function v(check: Check, patterns: readonly GuardedPattern[] = [], formats: KitValidate["formats"] = {}): KitValidate {
  // Each pattern came with a budget of its own (`tooltype/kit`'s `pattern()`): they share the first one.
  const budget = patterns[0]?.budget;
  for (const pattern of patterns) pattern.budget = budget!;
  // Only patterns not proven linear spend from the budget; without them there is nothing to reset.
  const guarded = patterns.some((pattern) => pattern.risk.kind !== "linear");
  // Yes or no only: the words of an invalid value come from kit-explain.ts, on the failure path, loaded on need.
  const validate = ((data: unknown): boolean => {
    if (guarded) budget!.reset();
    answers = undefined;
    return !check(data);
  }) as KitValidate;
  validate.schema = true;
  Object.defineProperty(validate, "kit", { value: KIT_VERSION });
  Object.defineProperty(validate, "patterns", { value: patterns });
  Object.defineProperty(validate, "budget", { value: budget });
  Object.defineProperty(validate, "formats", { value: formats });
  return validate;
}

/**
 * Yes/no answers of `$defs` checks per object, for the run under way. A recursive union (`type T = { next?: T; x?:
 * string } | { next?: T; y?: number }`) tries each alternative on the same nested objects; without this a value
 * 20 levels deep takes 2^20 checks (ajv has the same blow-up), with it each object is checked once per definition.
 */
let answers: WeakMap<object, Map<Check, unknown>> | undefined;

/** A `$ref`: the definition's check, remembered per object. */
function c(check: Check, data: unknown): unknown {
  if (typeof data !== "object" || data === null) return check(data);
  answers ??= new WeakMap();
  let known = answers.get(data);
  if (!known) answers.set(data, (known = new Map()));
  if (known.has(check)) return known.get(check);
  const answer = check(data);
  known.set(check, answer);
  return answer;
}

/** A lookup of property names (`set[key] === 1`), free of inherited keys. */
function s(names: readonly string[]): Record<string, 1> {
  const set = Object.create(null) as Record<string, 1>;
  for (const name of names) set[name] = 1;
  return set;
}

/** The kit generated code receives. One-letter names keep the emitted code short; each is documented above. */
export const validatorKit = { v, c, s, o: isObject };
