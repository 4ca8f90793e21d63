/**
 * What is wrong with arguments that fail their tool's parameter schema, in words a model acts on. Only arguments
 * that were not right the first time come here, so dispatch loads this file on first need (settle.ts).
 *
 * - The violations are those of the tool's validator (validate.ts): the one the transformer compiled, run again to
 *   collect its errors, or for schemas written by hand ajv's, with all errors (one shared ajv, ajv/options.ts).
 * - Under a policy that forbids generating code (`--disallow-code-generation-from-strings`, a CSP without
 *   `unsafe-eval`), the parts that would compile sub-schemas on an error path degrade instead of failing: a union's
 *   message lists its alternatives rather than the errors inside the one that nearly fits. (Coercion's questions
 *   are answered by schema-fit.ts, which compiles nothing.)
 * - Every violation becomes one line: the JSON pointer, what was expected, what arrived. ajv's raw output for unions
 *   lists a failure per branch (via `$ref`, without saying which branch); instead a union says which alternatives it
 *   accepts, or, when exactly one alternative fits the value's shape, the errors inside that one.
 */
import type Ajv2020 from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import { ajvBudget, StepBudget } from "../../validation/patterns/step-budget";
import { AJV_MISSING, newAjv } from "../../validation/ajv/ajv";
import { shortJson } from "./show";
import { resolveRef } from "../../validation/json-schema";
import { GuardedPattern, longestCheckable, patternRisk } from "../../validation/patterns/pattern-guard";
import type { ArgumentsValidator } from "../../validation/validate";
import { type KitError, MAX_ERRORS } from "../../validation/kit-checks";
import { kitErrors } from "../../validation/kit-explain";
import { joinOr, typeWords } from "./type-words";
import { type SchemaError, ToolValidationError } from "../../tool/errors";
import type { JsonSchema } from "../../tool/meta";

/** At most this many lines per message: enough to fix a call, bounded when a long array is wrong throughout. */
const MAX_ISSUES = 30;

/**
 * Arguments with more values than this are checked by ajv for their first error only: ajv cannot stop collecting
 * errors early, and 1 MiB of wrong items would otherwise cost a second and hundreds of megabytes.
 */
const ALL_ERRORS_NODES = 2000;

/** The ajv that collects all errors (hand-written schemas, union branches), made on first need. */
let shared: Ajv2020 | undefined;

/** The result of a failed check: the violations, the message lines, and whether more were left uncollected. */
export interface InvalidArguments {
  errors: SchemaError[];
  issues: string[];
  /** The same lines as `issues`, each as the JSON pointer it is about and the message without it. */
  located?: Located[];
  truncated?: boolean;
}

/** One line of a failed check: where (a JSON pointer, `""` for the value itself) and what is wrong there. */
export interface Located {
  pointer: string;
  message: string;
  /** For a missing required property: its name (the line is about the object at `pointer`). */
  missing?: string;
}

/** A line as messages show it: `/unit: must be one of …`, `(root): …`. */
function lineText(line: Located): string {
  return `${where(line.pointer)}: ${line.message}`;
}

/** describeError's lines for the value at `pointer` (each starts with its place, as `where` writes it), located. */
function located(pointer: string, lines: readonly string[], missing: string | undefined): Located[] {
  const place = `${where(pointer)}: `;
  return lines.map((line) => {
    const out: Located = { pointer, message: line.startsWith(place) ? line.slice(place.length) : line };
    if (missing !== undefined) out.missing = missing;
    return out;
  });
}

function missingProperty(error: ErrorObject): string | undefined {
  const name = (error.params as { missingProperty?: unknown }).missingProperty;
  return error.keyword === "required" && typeof name === "string" ? name : undefined;
}

/** What the descriptions of one validator keep: ajv's all-errors validator and the union branches compiled. */
interface Compiled {
  all?: ValidateFunction;
  /** Sub-schema validators, compiled on error paths only; `null` where code generation is not allowed. */
  branches: WeakMap<object, ValidateFunction | null>;
}

const compiled = new WeakMap<ArgumentsValidator, Compiled>();

/** What a validator without patterns refused for its cost: nothing. */
const NONE_REFUSED: ReadonlySet<string> = new Set();

function compiledOf(validator: ArgumentsValidator): Compiled {
  let entry = compiled.get(validator);
  if (!entry) compiled.set(validator, (entry = { branches: new WeakMap() }));
  return entry;
}

/** `undefined` when `args` is valid, else the violations and their lines. */
export function findInvalid(validator: ArgumentsValidator, args: unknown): InvalidArguments | undefined {
  const kit = validator.kit;
  if (kit) {
    if (kit(args)) return undefined;
    const collected = kitErrors(kit, args);
    const description = new Description(validator, kit.budget?.refused ?? NONE_REFUSED);
    return description.result(
      collected.flatMap((error) => description.complete(error)),
      collected.length >= MAX_ERRORS,
    );
  }
  ajvBudget.reset();
  const first = validator.first!;
  if (first(args)) return undefined;
  let raw = first.errors ?? [];
  let truncated = true;
  if (countNodes(args, ALL_ERRORS_NODES) <= ALL_ERRORS_NODES) {
    const own = compiledOf(validator);
    own.all ??= allErrors().compile(validator.root);
    ajvBudget.reset();
    own.all(args);
    raw = own.all.errors ?? raw;
    truncated = false;
  }
  return new Description(validator, ajvBudget.refused).result(raw, truncated);
}

/** The shared ajv that collects all errors; throws (saying what to import) in a bundle that left ajv out. */
function allErrors(): Ajv2020 {
  shared ??= newAjv(true);
  if (!shared) throw new Error(`tooltype: ${AJV_MISSING}`);
  return shared;
}

/** The lines of one failed check. `refused`: strings whose pattern test was refused for its cost in that run. */
class Description {
  readonly #root: JsonSchema;

  constructor(
    readonly validator: ArgumentsValidator,
    readonly refused: ReadonlySet<string>,
  ) {
    this.#root = validator.root;
  }

  result(raw: readonly ErrorObject[], truncated: boolean): InvalidArguments {
    const lines = this.#lines(raw, "");
    const result: InvalidArguments = { errors: raw.map(toSchemaError), issues: lines.map(lineText), located: lines };
    if (truncated) result.truncated = true;
    return result;
  }

  /**
   * A generated validator's error in ajv's verbose shape: its schema path (derived where it was left out), schema,
   * parent schema and params from the root; a `required` error becomes one per missing property, as ajv reports.
   */
  complete(error: KitError): ErrorObject[] {
    const keyword = error.keyword;
    const path =
      error.schemaPath === ""
        ? [...derivedSchemaPath(this.#root, error.instancePath), ...(keyword === "false schema" ? [] : [keyword])]
        : error.schemaPath
            .slice(2)
            .split("/")
            .filter(Boolean)
            .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    const schemaPath = `#${path.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("")}`;
    const schema = keyword === "false schema" ? false : at(this.#root, path);
    const parentSchema = at(this.#root, path.slice(0, -1)) as ErrorObject["parentSchema"];
    const base = {
      keyword,
      instancePath: error.instancePath,
      schemaPath,
      schema,
      parentSchema,
      data: error.data,
      message: ajvMessage(keyword, schema),
    };
    if (keyword === "required" && error.params.missingProperty === undefined && Array.isArray(schema)) {
      const data = error.data as Record<string, unknown>;
      return schema
        .filter((name) => data[name as string] === undefined)
        .map((name) => ({ ...base, params: { missingProperty: name } }));
    }
    const out: ErrorObject & { branches?: ErrorObject[][] } = {
      ...base,
      params: { ...defaultParams(keyword, schema), ...error.params },
    };
    if (error.branches) out.branches = error.branches.map((branch) => branch.flatMap((inner) => this.complete(inner)));
    return [out];
  }

  /** The lines for a list of ajv errors, with union branches folded; root-level lines last, as a reader expects. */
  #lines(errors: readonly ErrorObject[], prefix: string): Located[] {
    const skip = new Set<number>();
    const replaced = new Map<number, Located[]>();
    // A union's branch errors come right before its own error, so walk backwards and fold them away.
    for (let k = errors.length - 1; k >= 0; k--) {
      const error = errors[k]!;
      if (skip.has(k) || (error.keyword !== "anyOf" && error.keyword !== "oneOf")) continue;
      const { lines, consumed } = this.#union(error, prefix);
      replaced.set(k, lines);
      for (let j = k - 1, left = consumed; j >= 0 && left > 0; j--, left--) {
        if (!isUnder(errors[j]!.instancePath, error.instancePath)) break;
        skip.add(j);
      }
    }
    const nested: Located[] = [];
    const root: Located[] = [];
    errors.forEach((error, k) => {
      if (skip.has(k)) return;
      const lines =
        replaced.get(k) ??
        located(prefix + error.instancePath, describeError(error, prefix, this.refused), missingProperty(error));
      for (const line of lines) (line.pointer === "" ? root : nested).push(line);
    });
    const seen = new Set<string>();
    return [...nested, ...root].filter((line) => {
      const text = lineText(line);
      if (seen.has(text)) return false;
      seen.add(text);
      return true;
    });
  }

  /** Lines for a failed anyOf/oneOf, and how many branch errors precede it in ajv's list. */
  #union(error: ErrorObject, prefix: string): { lines: Located[]; consumed: number } {
    const branches = Array.isArray(error.schema) ? (error.schema as unknown[]) : [];
    const path = prefix + error.instancePath;
    // A generated validator attaches each alternative's errors; ajv lists them before the union's own error.
    const attached = (error as { branches?: ErrorObject[][] }).branches;
    const checked = attached ?? branches.map((branch) => this.#checkBranch(branch, error.data));
    const results = checked.filter((errors): errors is ErrorObject[] => errors !== undefined);
    // Without per-branch results, every error under the union's place belongs to it.
    const consumed = attached
      ? 0
      : results.length === checked.length
        ? results.reduce((sum, errors) => sum + errors.length, 0)
        : Infinity;
    const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
    if (Array.isArray(passing)) {
      const labels = passing.map((i) => `#${Number(i) + 1}`).join(" and ");
      return {
        lines: [
          {
            pointer: path,
            message: `must match exactly one alternative, but matches ${labels} of ${describeUnion(branches, this.#root)}`,
          },
        ],
        consumed,
      };
    }
    const near = results.filter((errors) => errors.length > 0 && fitsShape(errors));
    if (near.length === 1 && results.length === checked.length) {
      return { lines: this.#lines(near[0]!, path), consumed };
    }
    return {
      lines: [
        { pointer: path, message: `must be ${describeUnion(branches, this.#root)}; got ${shortJson(error.data)}` },
      ],
      consumed,
    };
  }

  /** The errors of `data` against one sub-schema; undefined when it cannot be compiled here (no code generation). */
  #checkBranch(branch: unknown, data: unknown): ErrorObject[] | undefined {
    if (typeof branch !== "object" || branch === null) return branch === false ? [falseError()] : [];
    const branches = compiledOf(this.validator).branches;
    let validate = branches.get(branch);
    if (validate === undefined) {
      // Branches point into the root's `$defs` ("#/$defs/X"); give each its own copy so the pointers still resolve.
      const defs = this.#root.$defs;
      // A bundle without ajv: the message lists the alternatives, as where code generation is not allowed.
      if (!shared && !(shared = newAjv(true))) return undefined;
      try {
        validate = shared.compile(defs === undefined ? branch : { ...branch, $defs: defs });
      } catch (error) {
        if (!(error instanceof EvalError)) throw error;
        validate = null;
      }
      branches.set(branch, validate);
    }
    if (validate === null) return undefined;
    return validate(data) ? [] : [...(validate.errors ?? [])];
  }
}

/** The error dispatch reports (and `invoke` throws) for arguments that fail the schema. */
export function invalidArgumentsError(toolName: string, result: InvalidArguments): ToolValidationError {
  const shown = result.issues.slice(0, MAX_ISSUES);
  const more = result.issues.length - shown.length;
  const lines = shown.map((line) => `- ${line}`);
  if (more > 0) lines.push(`- … and ${more} more${result.truncated ? " at least" : ""}`);
  else if (result.truncated) lines.push("- … and possibly more (checking stopped at the first problems)");
  const message = `invalid arguments for ${toolName}:\n${lines.join("\n")}\nCall ${toolName} again with corrected arguments.`;
  return new ToolValidationError(message, {
    reason: "invalid_arguments",
    toolName,
    errors: result.errors,
    issues: result.issues,
  });
}

function toSchemaError(error: ErrorObject): SchemaError {
  const out: SchemaError = {
    keyword: error.keyword,
    instancePath: error.instancePath,
    schemaPath: error.schemaPath,
    params: { ...(error.params as Record<string, unknown>) },
  };
  if (error.message !== undefined) out.message = error.message;
  return out;
}

/** A branch "fits" when the value has its basic shape: no type/const/enum mismatch at its top or its tag property. */
function fitsShape(errors: readonly ErrorObject[]): boolean {
  return !errors.some((error) => {
    const depth = error.instancePath === "" ? 0 : error.instancePath.split("/").length - 1;
    if (depth === 0) return ["type", "const", "enum", "anyOf", "oneOf", "false schema"].includes(error.keyword);
    if (depth === 1) {
      const schema = error.schema;
      return error.keyword === "const" || (error.keyword === "enum" && Array.isArray(schema) && schema.length === 1);
    }
    return false;
  });
}

/** The value at a path of segments in `root`; undefined when there is none. */
function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = Array.isArray(node) ? node[Number(segment)] : (node as Record<string, unknown>)[segment];
  }
  return node;
}

/**
 * Where in `root` the checks of the value at `instancePath` sit, for errors of the generated root function (which
 * crosses no `$ref`, union or `allOf`: those are functions of their own that name full paths). Each step picks
 * what a validator applies to that key or index: `properties`, else a matching `patternProperties`, else
 * `additionalProperties`; `prefixItems` by position, else `items`.
 */
export function derivedSchemaPath(root: unknown, instancePath: string): string[] {
  const out: string[] = [];
  let node = root;
  for (const raw of instancePath.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const s = (typeof node === "object" && node !== null ? node : {}) as Record<string, unknown>;
    const properties = s.properties as Record<string, unknown> | undefined;
    const patterns = s.patternProperties as Record<string, unknown> | undefined;
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : undefined;
    const index = /^(?:0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : undefined;
    let step: string[];
    if (properties && Object.hasOwn(properties, segment)) step = ["properties", segment];
    else if ((prefix || s.items !== undefined) && index !== undefined)
      step = prefix && index < prefix.length ? ["prefixItems", String(index)] : ["items"];
    else {
      // Keys are short in practice; a pattern too costly for this key counts as no match.
      const budget = new StepBudget();
      const matched =
        patterns && Object.keys(patterns).find((source) => new GuardedPattern(source, budget).test(segment) === true);
      step = matched !== undefined ? ["patternProperties", matched] : ["additionalProperties"];
    }
    out.push(...step);
    node = at(node, step);
  }
  return out;
}

/** The params ajv gives an error of `keyword` whose schema value is `schema` (data-dependent ones come with the error). */
function defaultParams(keyword: string, schema: unknown): Record<string, unknown> {
  switch (keyword) {
    case "type":
      // As ajv gives it: the keyword's value itself, a list for a type list.
      return { type: Array.isArray(schema) ? [...schema] : schema };
    case "enum":
      return { allowedValues: schema };
    case "const":
      return { allowedValue: schema };
    case "minimum":
      return { comparison: ">=", limit: schema };
    case "maximum":
      return { comparison: "<=", limit: schema };
    case "exclusiveMinimum":
      return { comparison: ">", limit: schema };
    case "exclusiveMaximum":
      return { comparison: "<", limit: schema };
    case "multipleOf":
      return { multipleOf: schema };
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
      return { limit: schema };
    case "pattern":
      return { pattern: schema };
    case "format":
      return { format: schema };
    default:
      return {};
  }
}

/** ajv's short message for a keyword, kept in `SchemaError.message` for callers that read it. */
function ajvMessage(keyword: string, schema: unknown): string {
  switch (keyword) {
    case "type":
      return `must be ${Array.isArray(schema) ? schema.join(",") : String(schema)}`;
    case "enum":
      return "must be equal to one of the allowed values";
    case "const":
      return "must be equal to constant";
    case "required":
      return "must have required property";
    case "additionalProperties":
      return "must NOT have additional properties";
    case "minimum":
      return `must be >= ${String(schema)}`;
    case "maximum":
      return `must be <= ${String(schema)}`;
    case "exclusiveMinimum":
      return `must be > ${String(schema)}`;
    case "exclusiveMaximum":
      return `must be < ${String(schema)}`;
    case "multipleOf":
      return `must be multiple of ${String(schema)}`;
    case "minLength":
      return `must NOT have fewer than ${String(schema)} characters`;
    case "maxLength":
      return `must NOT have more than ${String(schema)} characters`;
    case "minItems":
      return `must NOT have fewer than ${String(schema)} items`;
    case "maxItems":
      return `must NOT have more than ${String(schema)} items`;
    case "pattern":
      return `must match pattern "${String(schema)}"`;
    case "format":
      return `must match format "${String(schema)}"`;
    case "uniqueItems":
      return "must NOT have duplicate items";
    case "anyOf":
      return "must match a schema in anyOf";
    case "not":
      return "must NOT be valid";
    default:
      return "boolean schema is false";
  }
}

/** How many values `value` holds, counting up to `limit + 1` at most (so huge arguments cost nothing extra). */
function countNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > limit) return count;
    if (typeof node !== "object" || node === null) continue;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (count + stack.length + children.length > limit) return limit + 1;
    for (const child of children) stack.push(child);
  }
  return count;
}

function isUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

function where(path: string): string {
  return path === "" ? "(root)" : path;
}

function falseError(): ErrorObject {
  return { keyword: "false schema", instancePath: "", schemaPath: "#", params: {}, message: "boolean schema is false" };
}

const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2025-01-31T09:30:00Z",
  date: "2025-01-31",
  time: "09:30:00Z",
  duration: "P3DT4H",
  email: "name@example.com",
  hostname: "example.com",
  ipv4: "192.168.0.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/path",
  url: "https://example.com/path",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
};

/** One ajv error as message lines (usually one). `refused`: strings too long to test against their pattern. */
function describeError(error: ErrorObject, prefix: string, refused: ReadonlySet<string>): string[] {
  const at = where(prefix + error.instancePath);
  const params = error.params as Record<string, unknown>;
  const got = `; got ${shortJson(error.data)}`;
  switch (error.keyword) {
    case "type":
      return [`${at}: must be ${typeWords(params.type)}${got}`];
    case "enum":
      return [`${at}: must be one of ${listValues(toArray(error.schema))}${got}`];
    case "const":
      return [`${at}: must be ${shortJson(params.allowedValue)}${got}`];
    case "required":
      return [`${at}: missing required property ${JSON.stringify(params.missingProperty)}`];
    case "additionalProperties":
      return [
        `${at}: unexpected property ${JSON.stringify(params.additionalProperty)}; ${allowedProperties(error.parentSchema)}`,
      ];
    case "unevaluatedProperties":
      return [
        `${at}: unexpected property ${JSON.stringify(params.unevaluatedProperty)}; ${allowedProperties(error.parentSchema)}`,
      ];
    case "dependentRequired":
      return [
        `${at}: missing property ${JSON.stringify(params.missingProperty)}, required when ${JSON.stringify(params.property)} is present`,
      ];
    case "minimum":
      return [`${at}: must be >= ${String(params.limit)}${got}`];
    case "maximum":
      return [`${at}: must be <= ${String(params.limit)}${got}`];
    case "exclusiveMinimum":
      return [`${at}: must be > ${String(params.limit)}${got}`];
    case "exclusiveMaximum":
      return [`${at}: must be < ${String(params.limit)}${got}`];
    case "multipleOf":
      return [`${at}: must be a multiple of ${String(params.multipleOf)}${got}`];
    case "minLength":
      return [
        `${at}: must be at least ${plural(Number(params.limit), "character")} long${got} (${plural(length(error.data), "character")})`,
      ];
    case "maxLength":
      return [
        `${at}: must be at most ${plural(Number(params.limit), "character")} long${got} (${plural(length(error.data), "character")})`,
      ];
    case "pattern": {
      const pattern = String(params.pattern);
      if (typeof error.data === "string" && refused.has(error.data)) {
        const most = longestCheckable(patternRisk(pattern));
        return [
          `${at}: is too long to be checked against the pattern /${pattern}/ (${plural(length(error.data), "character")}; this pattern can only be checked on strings of up to about ${plural(most, "character")}, fewer when several are sent); send a shorter value`,
        ];
      }
      return [`${at}: must match the pattern /${pattern}/${got}`];
    }
    case "format": {
      const format = String(params.format);
      const example = FORMAT_EXAMPLES[format];
      return [
        `${at}: must be a string in the ${format} format${example ? `, such as ${JSON.stringify(example)}` : ""}${got}`,
      ];
    }
    case "minItems":
      return [
        `${at}: must have at least ${plural(Number(params.limit), "item")}; got ${plural(count(error.data), "item")}`,
      ];
    case "maxItems":
    case "items":
      return [
        `${at}: must have at most ${plural(Number(params.limit), "item")}; got ${plural(count(error.data), "item")}`,
      ];
    case "uniqueItems":
      return [`${at}: must not contain duplicates (items ${String(params.j)} and ${String(params.i)} are equal)`];
    case "minProperties":
      return [`${at}: must have at least ${plural(Number(params.limit), "property", "properties")}`];
    case "maxProperties":
      return [`${at}: must have at most ${plural(Number(params.limit), "property", "properties")}`];
    case "false schema":
      return [`${at}: no value is allowed here${got}`];
    case "if":
      // ajv also reports the failing `then`/`else` errors themselves; this summary adds nothing.
      return [];
    default:
      return [`${at}: ${error.message ?? `fails "${error.keyword}"`}${got}`];
  }
}

/** What a union accepts, e.g. `a string or null`, `an object with kind: "circle" or an object with kind: "square"`. */
function describeUnion(branches: readonly unknown[], root: JsonSchema): string {
  return joinOr(branches.map((branch) => describeSchema(branch, root, 0)));
}

function describeSchema(schema: unknown, root: JsonSchema, depth: number): string {
  if (schema === true) return "anything";
  if (typeof schema !== "object" || schema === null) return "nothing";
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === "string" && depth < 3) {
    const target = resolveRef(root, s.$ref);
    if (target !== undefined) return describeSchema(target, root, depth + 1);
  }
  if ("const" in s) return shortJson(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 1 ? shortJson(s.enum[0]) : `one of ${listValues(s.enum)}`;
  if (Array.isArray(s.anyOf) && depth < 3)
    return joinOr(s.anyOf.map((branch) => describeSchema(branch, root, depth + 1)));
  const types = toArray(s.type).map(String);
  if (types.length === 1 && types[0] === "object") return describeObject(s);
  if (types.length > 0) return typeWords(types);
  if (typeof s.properties === "object" && s.properties !== null) return describeObject(s);
  return "a value of another shape";
}

function describeObject(schema: Record<string, unknown>): string {
  const properties = (
    typeof schema.properties === "object" && schema.properties !== null ? schema.properties : {}
  ) as Record<string, unknown>;
  // A property fixed to one value (a discriminant such as kind: "circle") names the alternative best.
  for (const [key, property] of Object.entries(properties)) {
    if (typeof property !== "object" || property === null) continue;
    const p = property as Record<string, unknown>;
    if ("const" in p) return `an object with ${key}: ${shortJson(p.const)}`;
    if (Array.isArray(p.enum) && p.enum.length === 1) return `an object with ${key}: ${shortJson(p.enum[0])}`;
  }
  const keys = Object.keys(properties);
  if (keys.length === 0) return "an object";
  const shown = keys.slice(0, 6).join(", ");
  return `an object with properties ${shown}${keys.length > 6 ? ", …" : ""}`;
}

function allowedProperties(parentSchema: unknown): string {
  const properties =
    typeof parentSchema === "object" && parentSchema !== null
      ? (parentSchema as { properties?: unknown }).properties
      : undefined;
  const keys = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  if (keys.length === 0) return "this object takes no properties";
  const shown = keys.slice(0, 20).join(", ");
  return `allowed properties: ${shown}${keys.length > 20 ? `, … (${keys.length - 20} more)` : ""}`;
}

function listValues(values: readonly unknown[]): string {
  const shown = values
    .slice(0, 20)
    .map((value) => shortJson(value))
    .join(", ");
  return values.length > 20 ? `${shown}, … (${values.length - 20} more)` : shown;
}

function toArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

function length(value: unknown): number {
  return typeof value === "string" ? [...value].length : 0;
}

function count(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}
