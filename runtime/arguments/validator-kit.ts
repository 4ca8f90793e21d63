/**
 * The run-time half of the validators tooltype's transformer generates (transformer/validator/): what the emitted
 * code asks for with `require("tooltype/validator@1")`. Generated code stays small and readable because the
 * checks that need more than an expression live here, once: reporting an error, unions, uniqueness, patterns,
 * formats, string length, deep equality.
 *
 * The contract with generated code (version 1, the id says it):
 * - a generated check is `function (d, p, r)`: the value, its JSON pointer (only built when `r` is set), and the
 *   error list, or `0` for a yes/no answer; it returns truthy to mean "stop": the value is invalid (yes/no mode) or
 *   the error list is full (errors mode);
 * - `v(check)` turns the root check into the validate function the runtime calls: one cheap yes/no pass, and only
 *   for an invalid value a second pass that collects at most {@link MAX_ERRORS} errors, so a wrong 1 MiB array
 *   costs about as much as a right one;
 * - errors name their place in the schema by a path relative to the root (`properties/a/type`), or by the keyword
 *   alone where the place follows from the value's JSON pointer (the root function's own checks): the runtime
 *   derives the path then, and reads the rest (the schema, the allowed values, the missing required names) from
 *   the root when it words the message, so none of it is repeated in the emitted code.
 */
import { GuardedPattern, StepBudget } from "./pattern-guard";
import { firstDuplicate } from "./unique";

/** Errors collected per validation (and per union alternative): past it, the message says "and more". */
export const MAX_ERRORS = 40;

/** A check emitted by the generator: returns truthy to stop (see the file header). */
export type Check = (data: unknown, path: string, errors: KitError[] | 0) => unknown;

/** One violation as generated code reports it (an ajv ErrorObject without the schema copies). */
export interface KitError {
  keyword: string;
  instancePath: string;
  /** `#/` and the path relative to the root schema; `""` when the runtime derives it from `instancePath`. */
  schemaPath: string;
  params: Record<string, unknown>;
  data: unknown;
  /** A failed `anyOf`: the errors of each alternative, in order (their paths relative to this value). */
  branches?: KitError[][];
}

/** What `v()` returns: called with the arguments; `errors` set after a failure (ajv's shape). */
export interface KitValidate {
  (data: unknown): boolean;
  errors: KitError[] | null;
  /** Marks a tooltype-generated validator (errors bounded, schema paths from the root, union branches attached). */
  readonly kit: 1;
  /** Patterns refused for their cost in the last run (see pattern-guard.ts). */
  readonly budget: StepBudget;
}

/**
 * Patterns made by `re()` for the validator being built: a factory calls `re()` for each of its patterns and then
 * `v()`, synchronously, so `v()` claims exactly its own and gives them its budget.
 */
let pending: { budget: StepBudget | undefined; linear: boolean }[] = [];

function v(check: Check): KitValidate {
  const budget = new StepBudget();
  const claimed = pending;
  pending = [];
  for (const slot of claimed) slot.budget = budget;
  // Only patterns not proven linear spend from the budget; without them there is nothing to reset.
  const guarded = claimed.some((slot) => !slot.linear);
  const validate = ((data: unknown): boolean => {
    if (guarded) budget.reset();
    answers = undefined;
    if (!check(data, "", 0)) {
      validate.errors = null;
      return true;
    }
    const errors: KitError[] = [];
    if (guarded) budget.reset();
    answers = undefined;
    detailed = 0;
    check(data, "", errors);
    // A check that fails yes/no always reports in errors mode; this guards the contract anyway.
    if (errors.length === 0) errors.push({ keyword: "false schema", instancePath: "", schemaPath: "#", params: {}, data });
    validate.errors = errors;
    return false;
  }) as KitValidate;
  validate.errors = null;
  Object.defineProperty(validate, "kit", { value: 1 });
  Object.defineProperty(validate, "budget", { value: budget });
  return validate;
}

/** Reports one error; true when checking should stop (yes/no mode, or the list is full). */
function e(errors: KitError[] | 0, path: string, schemaPath: string, data: unknown, params?: Record<string, unknown>, keyword?: string): boolean {
  if (!errors) return true;
  const slash = schemaPath.lastIndexOf("/");
  errors.push({
    keyword: keyword ?? schemaPath.slice(slash + 1),
    instancePath: path,
    // A keyword alone: the runtime derives the path from the value's pointer (see the generator).
    schemaPath: slash < 0 ? "" : `#/${schemaPath}`,
    params: params ?? {},
    data,
  });
  return errors.length >= MAX_ERRORS;
}

/**
 * Yes/no answers of `$defs` checks per object, for the run under way. A recursive union (`type T = { next?: T; x?:
 * string } | { next?: T; y?: number }`) tries each alternative on the same nested objects; without this a value
 * 20 levels deep takes 2^20 checks (ajv has the same blow-up), with it each object is checked once per definition.
 */
let answers: WeakMap<object, Map<Check, unknown>> | undefined;

/** A `$ref`: the definition's check, remembered per object in yes/no mode. */
function c(check: Check, data: unknown, path: string, errors: KitError[] | 0): unknown {
  if (errors || typeof data !== "object" || data === null) return check(data, path, errors);
  answers ??= new WeakMap();
  let known = answers.get(data);
  if (!known) answers.set(data, (known = new Map()));
  if (known.has(check)) return known.get(check);
  const answer = check(data, path, 0);
  known.set(check, answer);
  return answer;
}

/** Union alternatives explained in detail per run; past it a failed union lists its alternatives only. */
export const MAX_UNION_DETAILS = 64;
let detailed = 0;

/** `anyOf`: valid when one alternative is; otherwise one error carrying each alternative's own errors. */
function any(errors: KitError[] | 0, path: string, schemaPath: string, data: unknown, branches: readonly Check[]): boolean {
  for (const branch of branches) if (!branch(data, path, 0)) return false;
  if (!errors) return true;
  // Explaining an alternative checks it again in errors mode, nested unions inside it too: bounded per run.
  detailed += branches.length;
  // Paths inside an alternative are relative to the union's value, as the runtime's messages expect.
  const collected = branches.map((branch) => {
    const own: KitError[] = [];
    if (detailed <= MAX_UNION_DETAILS) branch(data, "", own);
    return own;
  });
  const stop = e(errors, path, schemaPath, data);
  errors[errors.length - 1]!.branches = collected;
  return stop;
}

/** `uniqueItems` on an array, in linear time. */
function u(errors: KitError[] | 0, path: string, schemaPath: string, data: unknown[]): boolean {
  const pair = firstDuplicate(data);
  return pair !== undefined && e(errors, path, schemaPath, data, { i: pair[1], j: pair[0] });
}

/** A pattern, compiled once per validator; `linear`: proven linear at build time. */
function re(source: string, linear?: 1): GuardedPattern {
  const slot: (typeof pending)[number] = { budget: undefined, linear: linear === 1 };
  pending.push(slot);
  // A pattern used outside a validator (never, in generated code) gets a budget of its own.
  return new GuardedPattern(source, () => (slot.budget ??= new StepBudget()), linear === 1);
}

/** `pattern` on a string: a failed or refused test is an error. */
function m(pattern: GuardedPattern, errors: KitError[] | 0, path: string, schemaPath: string, data: string): boolean {
  return pattern.test(data) !== true && e(errors, path, schemaPath, data, { pattern: pattern.source });
}

/** Length in Unicode code points, as JSON Schema counts `minLength` / `maxLength`. */
function l(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Deep JSON equality, for `const` and `enum` values that are objects or arrays. */
function q(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => q(item, other[i]));
  }
  const ka = Object.keys(a);
  const rb = b as Record<string, unknown>;
  return ka.length === Object.keys(rb).length && ka.every((key) => Object.prototype.hasOwnProperty.call(rb, key) && q((a as Record<string, unknown>)[key], rb[key]));
}

/** Whether `d` is a JSON object (not null, not an array). */
function o(d: unknown): boolean {
  return typeof d === "object" && d !== null && !Array.isArray(d);
}

/** A lookup of property names (`set[key] === 1`), free of inherited keys. */
function s(names: readonly string[]): Record<string, 1> {
  const set = Object.create(null) as Record<string, 1>;
  for (const name of names) set[name] = 1;
  return set;
}

/** Whether `d` equals one of `values` (enum values that are objects, or many values). */
function n(d: unknown, values: readonly unknown[]): boolean {
  if (typeof d !== "object" || d === null) return values.includes(d);
  return values.some((value) => q(d, value));
}

/** A property name as a JSON pointer segment. */
function x(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The checker of a `format`; `true` for values of other types, as JSON Schema applies formats. */
function f(name: string): (value: unknown) => boolean {
  return formatChecker(name);
}

let formats: Record<string, unknown> | undefined;

/**
 * ajv-formats' own definitions (the module without ajv), so a generated validator accepts exactly what ajv with
 * ajv-formats accepts; loaded on the first validator with a format.
 */
function formatChecker(name: string): (value: unknown) => boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  formats ??= (require("ajv-formats/dist/formats") as { fullFormats: Record<string, unknown> }).fullFormats;
  const format = Object.prototype.hasOwnProperty.call(formats, name) ? formats[name] : undefined;
  const definition = (typeof format === "object" && format !== null && !(format instanceof RegExp) ? format : { validate: format }) as {
    type?: string;
    validate?: unknown;
  };
  const type = definition.type ?? "string";
  const check = definition.validate;
  const limit = FORMAT_LENGTH_LIMITS[name];
  return (value) => {
    if (typeof value !== type) return true;
    if (limit !== undefined && typeof value === "string" && value.length > limit) return false;
    if (check instanceof RegExp) return check.test(value as string);
    if (typeof check === "function") return (check as (v: unknown) => boolean)(value) === true;
    // Unknown or annotation-only formats (`password`): nothing to check, as with ajv's `logger: false`.
    return true;
  };
}

/**
 * Longest string some formats are tried on. Their regular expressions backtrack on long near-misses, and a longer
 * value is no valid instance anyway (an email address has at most 254 characters, a host name 253).
 */
export const FORMAT_LENGTH_LIMITS: Record<string, number> = {
  email: 254,
  hostname: 253,
  ipv4: 15,
  ipv6: 45,
  "date-time": 64,
  "iso-date-time": 64,
  date: 32,
  time: 32,
  "iso-time": 32,
  duration: 64,
  uuid: 45,
  url: 8192,
  uri: 8192,
  "uri-reference": 8192,
  "uri-template": 8192,
  // Compiling a regular expression costs more than linear time in its length.
  regex: 4096,
};

/** The kit generated code receives. One-letter names keep the emitted code short; each is documented above. */
export const validatorKit = { v, e, c, any, u, re, m, l, q, x, f, o, s, n };
