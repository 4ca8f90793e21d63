/**
 * The run-time half of the validators tooltype's transformer generates (transformer/validator/): what the emitted
 * code asks for with `require("tooltype/validator@2")`. Generated code stays small and readable because it only
 * answers yes or no, and what needs more than an expression lives here, once: explaining an invalid value (the
 * errors, kit-explain.ts), `$ref` memory, uniqueness, guarded patterns, formats, string length, deep equality.
 *
 * The contract with generated code (version 2, the id says it):
 * - a generated check is `function (d)`: it returns truthy when the value is invalid;
 * - `v(check)` turns the root check into the validate function the runtime calls: one yes/no pass of the generated
 *   code. For an invalid value the failure path calls `kitErrors` (kit-explain.ts, loaded on need, not by this
 *   module), a walk of the parameter schema (set on the validate function as `schema` by
 *   runtime/arguments/compiled-validator.ts) that collects at most {@link MAX_ERRORS} errors, so a wrong 1 MiB array
 *   costs about as much as a right one, and the emitted code carries no error paths, params or messages;
 * - errors name their place in the schema by a path relative to the root (`properties/a/type`), or by the keyword
 *   alone where the place follows from the value's JSON pointer: the runtime derives the path then, and reads the
 *   rest (the schema, the allowed values, the missing required names) from the root when it words the message.
 */
import { codePoints, type ExplainContext, isObject, type KitError, MAX_ERRORS, MAX_UNION_DETAILS, oneOf } from "./kit-checks";
import { FORMAT_LENGTH_LIMITS, formatChecker } from "./formats";
import { GuardedPattern, StepBudget } from "./pattern-guard";
import { firstDuplicate } from "./unique";

export { FORMAT_LENGTH_LIMITS, type KitError, MAX_ERRORS, MAX_UNION_DETAILS };

/** The kit version: generated code and kit agree on it through the id `tooltype/validator@2`. */
export const KIT_VERSION = 2;

/** A check emitted by the generator: returns truthy when the value is invalid. */
export type Check = (data: unknown) => unknown;


/** What `v()` returns: called with the arguments, true when they are valid (`kitErrors` says why not). */
export interface KitValidate {
  (data: unknown): boolean;
  /** Marks a tooltype-generated validator of this kit version (errors bounded, schema paths from the root, union branches attached). */
  readonly kit: typeof KIT_VERSION;
  /** Patterns refused for their cost in the last run (see pattern-guard.ts). */
  readonly budget: StepBudget;
  /** The schema the code was generated from: errors are explained against it (kit-explain.ts `kitErrors`). */
  schema: unknown;
  /** What the explanation of an invalid value needs from this validator: its patterns and the format checks. */
  readonly context: Omit<ExplainContext, "root">;
}

/**
 * Patterns made by `re()` for the validator being built: a factory calls `re()` for each of its patterns and then
 * `v()`, synchronously, so `v()` claims exactly its own and gives them its budget.
 */
let pending: { budget: StepBudget | undefined; linear: boolean; pattern: GuardedPattern }[] = [];

function v(check: Check): KitValidate {
  const budget = new StepBudget();
  const claimed = pending;
  pending = [];
  const patterns = new Map<string, GuardedPattern>();
  for (const slot of claimed) {
    slot.budget = budget;
    patterns.set(slot.pattern.source, slot.pattern);
  }
  // Only patterns not proven linear spend from the budget; without them there is nothing to reset.
  const guarded = claimed.some((slot) => !slot.linear);
  const context: KitValidate["context"] = {
    pattern: (source: string) => patterns.get(source) ?? new GuardedPattern(source, () => budget),
    format: f,
  };
  // Yes or no only: the words of an invalid value come from kit-explain.ts, on the failure path, loaded on need.
  const validate = ((data: unknown): boolean => {
    if (guarded) budget.reset();
    answers = undefined;
    return !check(data);
  }) as KitValidate;
  validate.schema = true;
  Object.defineProperty(validate, "kit", { value: KIT_VERSION });
  Object.defineProperty(validate, "budget", { value: budget });
  Object.defineProperty(validate, "context", { value: context });
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

/** `uniqueItems`: true when two items are equal (linear time). */
function u(data: unknown[]): boolean {
  return firstDuplicate(data) !== undefined;
}

/** A pattern, compiled once per validator; `linear`: proven linear at build time. */
function re(source: string, linear?: 1): GuardedPattern {
  const slot: (typeof pending)[number] = { budget: undefined, linear: linear === 1, pattern: undefined as unknown as GuardedPattern };
  // A pattern used outside a validator (never, in generated code) gets a budget of its own.
  slot.pattern = new GuardedPattern(source, () => (slot.budget ??= new StepBudget()), linear === 1);
  pending.push(slot);
  return slot.pattern;
}

/** A lookup of property names (`set[key] === 1`), free of inherited keys. */
function s(names: readonly string[]): Record<string, 1> {
  const set = Object.create(null) as Record<string, 1>;
  for (const name of names) set[name] = 1;
  return set;
}

/** The checker of a `format`; `true` for values of other types, as JSON Schema applies formats. */
function f(name: string): (value: unknown) => boolean {
  return formatChecker(name);
}

/** The kit generated code receives. One-letter names keep the emitted code short; each is documented above. */
export const validatorKit = { v, c, u, re, f, s, l: codePoints, o: isObject, n: oneOf };
