/**
 * What a generated validator leaves out: saying why a value is invalid. The code the transformer emits answers yes
 * or no only (transformer/validator/generate.ts), so the build output stays small; for an invalid value the kit
 * walks the parameter schema here and collects the errors, in the order, with the paths and params that the
 * generated checks of kit version 1 reported, so the messages the model reads are unchanged.
 *
 * It covers exactly the keywords the generator implements (others never get a generated validator). It runs only
 * on a value already found invalid, with the same bounds as before: at most MAX_ERRORS errors, union alternatives
 * explained in detail up to MAX_UNION_DETAILS per run, patterns under the run's step budget, `$ref` answers
 * remembered per object in yes/no mode so recursive unions stay linear.
 */
import { codePoints } from "./code-points";
import { oneOf } from "./json-equal";
import { type ExplainContext, isObject, type KitError, MAX_ERRORS, MAX_UNION_DETAILS } from "./kit-checks";
import { GuardedPattern } from "./patterns/pattern-guard";
import { StepBudget } from "./patterns/step-budget";
import { firstDuplicate } from "./unique";
import type { KitValidate } from "./kit";

type Schema = unknown;
type Errors = KitError[] | 0;
type Group = "number" | "string" | "array" | "object";

/**
 * The errors of `data`, which `validate` (a generated validator) has just found invalid: at least one, since the
 * walk reports every value the generated code refuses (a guard adds a "false schema" error should it not). Read
 * `validate.budget.refused` afterwards for the strings whose pattern test was refused for its cost.
 */
export function kitErrors(validate: KitValidate, data: unknown): KitError[] {
  validate.budget?.reset();
  const context: ExplainContext = {
    root: validate.schema,
    // The validator's own patterns, under its budget (a schema always has the same patterns as its code).
    pattern: (source) =>
      validate.patterns.find((p) => p.source === source) ??
      new GuardedPattern(source, validate.budget ?? new StepBudget()),
    // The checks the validator itself imported: a format it has none of, unknown to tooltype, accepts everything.
    format: (name) => (Object.hasOwn(validate.formats, name) ? validate.formats[name]! : acceptAll),
  };
  const errors = explain(context, data);
  if (errors.length === 0)
    errors.push({ keyword: "false schema", instancePath: "", schemaPath: "#", params: {}, data });
  return errors;
}

function acceptAll(): boolean {
  return true;
}

/** The errors of `data`, which the generated check found invalid. */
export function explain(context: ExplainContext, data: unknown): KitError[] {
  const errors: KitError[] = [];
  new Explainer(context).check(context.root, "", data, "", errors);
  return errors;
}

/** Reports one error; true when checking should stop (yes/no mode, or the list is full). */
export function report(
  errors: Errors,
  path: string,
  schemaPath: string,
  data: unknown,
  params?: Record<string, unknown>,
  keyword?: string,
): boolean {
  if (!errors) return true;
  const slash = schemaPath.lastIndexOf("/");
  errors.push({
    keyword: keyword ?? schemaPath.slice(slash + 1),
    instancePath: path,
    // A keyword alone: the runtime derives the path from the value's pointer (see derivedSchemaPath in validate.ts).
    schemaPath: slash < 0 ? "" : `#/${schemaPath}`,
    params: params ?? {},
    data,
  });
  return errors.length >= MAX_ERRORS;
}

const GROUPS: Group[] = ["number", "string", "array", "object"];
const BOUNDS: [string, (d: number, limit: number) => boolean][] = [
  ["maximum", (d, limit) => d > limit],
  ["minimum", (d, limit) => d < limit],
  ["exclusiveMaximum", (d, limit) => d >= limit],
  ["exclusiveMinimum", (d, limit) => d <= limit],
];

class Explainer {
  /**
   * True in the root's own checks (outside `allOf`): there an error names its keyword only and the runtime derives
   * the rest of the schema path from the value's pointer; inside `$defs`, union alternatives, `not` and `allOf`
   * errors name the full path.
   */
  private derivable = true;
  private detailed = 0;
  private answers = new WeakMap<object, Map<string, boolean>>();

  constructor(private readonly context: ExplainContext) {}

  /** Checks `d` (at pointer `p`) against `schema` (at `sp`); true to stop. */
  check(schema: Schema, sp: string, d: unknown, p: string, r: Errors): boolean {
    if (schema === true) return false;
    if (schema === false) return report(r, p, sp, d, {}, "false schema");
    const s = schema as Record<string, unknown>;
    const at = (keyword: string): string => (sp === "" ? keyword : `${sp}/${keyword}`);
    const rp = (keyword: string): string => (this.derivable ? keyword : at(keyword));
    if (typeof s.$ref === "string" && this.ref(s.$ref, d, p, r)) return true;
    const types = s.type === undefined ? undefined : ((Array.isArray(s.type) ? s.type : [s.type]) as string[]);
    if (types) {
      const right = types.some((type) => isType(type, d));
      const own = types.length === 1 ? groupOf(types[0]!) : undefined;
      if (own) {
        if (!right) {
          if (report(r, p, rp("type"), d)) return true;
        } else if (this.group(own, s, sp, d, p, r)) return true;
      } else {
        if (!right && report(r, p, rp("type"), d)) return true;
        for (const group of GROUPS) {
          if (types.some((type) => groupOf(type) === group) && inGroup(group, d) && this.group(group, s, sp, d, p, r))
            return true;
        }
      }
    } else {
      for (const group of GROUPS) if (inGroup(group, d) && this.group(group, s, sp, d, p, r)) return true;
    }
    if ("const" in s && !oneOf(d, [s.const]) && report(r, p, rp("const"), d, { allowedValue: s.const })) return true;
    if (Array.isArray(s.enum) && !oneOf(d, s.enum) && report(r, p, rp("enum"), d)) return true;
    if (
      typeof s.format === "string" &&
      !this.context.format(s.format)(d) &&
      report(r, p, rp("format"), d, { format: s.format })
    )
      return true;
    if (Array.isArray(s.anyOf) && this.any(s.anyOf, at("anyOf"), rp("anyOf"), d, p, r)) return true;
    const allOf = Array.isArray(s.allOf) ? (s.allOf as unknown[]) : [];
    for (let i = 0; i < allOf.length; i++)
      if (this.explicit(() => this.check(allOf[i], at(`allOf/${i}`), d, p, r))) return true;
    if ("not" in s) {
      const inner = s.not;
      const always =
        inner === true || (isRecord(inner) && Object.keys(inner).every((keyword) => ANNOTATIONS.has(keyword)));
      if ((always || !this.explicit(() => this.check(inner, at("not"), d, p, 0))) && report(r, p, rp("not"), d))
        return true;
    }
    return false;
  }

  /** The checks of one JSON type, for a value of that type. */
  private group(group: Group, s: Record<string, unknown>, sp: string, d: unknown, p: string, r: Errors): boolean {
    const at = (keyword: string): string => (sp === "" ? keyword : `${sp}/${keyword}`);
    const fail = (keyword: string, params?: Record<string, unknown>): boolean =>
      report(r, p, this.derivable ? keyword : at(keyword), d, params);
    const num = (keyword: string): number | undefined =>
      typeof s[keyword] === "number" ? (s[keyword] as number) : undefined;
    if (group === "number") {
      const n = d as number;
      for (const [keyword, beyond] of BOUNDS) {
        const limit = num(keyword);
        if (limit !== undefined && beyond(n, limit) && fail(keyword)) return true;
      }
      const multipleOf = num("multipleOf");
      if (multipleOf !== undefined && n / multipleOf !== parseInt(String(n / multipleOf), 10) && fail("multipleOf"))
        return true;
      return false;
    }
    if (group === "string") {
      const text = d as string;
      const maxLength = num("maxLength");
      if (maxLength !== undefined && text.length > maxLength && codePoints(text) > maxLength && fail("maxLength"))
        return true;
      const minLength = num("minLength");
      if (minLength !== undefined && codePoints(text) < minLength && fail("minLength")) return true;
      if (
        typeof s.pattern === "string" &&
        this.context.pattern(s.pattern).test(text) !== true &&
        fail("pattern", { pattern: s.pattern })
      )
        return true;
      return false;
    }
    if (group === "array") {
      const items = d as unknown[];
      const maxItems = num("maxItems");
      if (maxItems !== undefined && items.length > maxItems && fail("maxItems")) return true;
      const minItems = num("minItems");
      if (minItems !== undefined && items.length < minItems && fail("minItems")) return true;
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      for (let i = 0; i < prefix.length; i++) {
        if (items.length > i && this.check(prefix[i], at(`prefixItems/${i}`), items[i], `${p}/${i}`, r)) return true;
      }
      if (s.items === false) {
        if (items.length > prefix.length && fail("items", { limit: prefix.length })) return true;
      } else if (s.items !== undefined) {
        for (let i = prefix.length; i < items.length; i++)
          if (this.check(s.items, at("items"), items[i], `${p}/${i}`, r)) return true;
      }
      if (s.uniqueItems === true) {
        const pair = firstDuplicate(items);
        if (pair !== undefined && fail("uniqueItems", { i: pair[1], j: pair[0] })) return true;
      }
      return false;
    }
    const object = d as Record<string, unknown>;
    if (Array.isArray(s.required) && s.required.some((name) => object[String(name)] === undefined) && fail("required"))
      return true;
    const properties = isRecord(s.properties) ? s.properties : {};
    const patternProperties = isRecord(s.patternProperties) ? s.patternProperties : {};
    const sources = Object.keys(patternProperties);
    const additional = s.additionalProperties;
    if (additional !== undefined && additional !== true) {
      const known = new Set(Object.keys(properties));
      for (const key in object) {
        if (known.has(key) || sources.some((source) => this.context.pattern(source).test(key) === true)) continue;
        if (additional === false) {
          if (fail("additionalProperties", { additionalProperty: key })) return true;
        } else if (this.check(additional, at("additionalProperties"), object[key], `${p}/${segment(key)}`, r))
          return true;
      }
    }
    for (const name of Object.keys(properties)) {
      const value = object[name];
      if (
        value !== undefined &&
        this.check(properties[name], at(`properties/${segment(name)}`), value, `${p}/${segment(name)}`, r)
      )
        return true;
    }
    for (const source of sources) {
      const pattern = this.context.pattern(source);
      for (const key in object) {
        if (
          pattern.test(key) === true &&
          this.check(
            patternProperties[source],
            at(`patternProperties/${segment(source)}`),
            object[key],
            `${p}/${segment(key)}`,
            r,
          )
        )
          return true;
      }
    }
    return false;
  }

  /** `anyOf`: valid when one alternative is; otherwise one error carrying each alternative's own errors. */
  private any(branches: unknown[], sp: string, reported: string, d: unknown, p: string, r: Errors): boolean {
    const passes = (branch: unknown, i: number, errors: Errors): boolean =>
      !this.explicit(() => this.check(branch, `${sp}/${i}`, d, errors ? "" : p, errors));
    if (branches.some((branch, i) => passes(branch, i, 0))) return false;
    if (!r) return true;
    // Explaining an alternative checks it again in errors mode, nested unions inside it too: bounded per run.
    this.detailed += branches.length;
    // Paths inside an alternative are relative to the union's value, as the runtime's messages expect.
    const collected = branches.map((branch, i) => {
      const own: KitError[] = [];
      if (this.detailed <= MAX_UNION_DETAILS) passes(branch, i, own);
      return own;
    });
    const stop = report(r, p, reported, d);
    r[r.length - 1]!.branches = collected;
    return stop;
  }

  /** A `$ref` into the root's `$defs`; yes/no answers remembered per object. */
  private ref(ref: string, d: unknown, p: string, r: Errors): boolean {
    const key = /^#\/\$defs\/([^/]+)$/.exec(ref)![1]!.replace(/~1/g, "/").replace(/~0/g, "~");
    const definition = ((this.context.root as Record<string, unknown>).$defs as Record<string, unknown>)[key];
    const run = (): boolean => this.explicit(() => this.check(definition, `$defs/${segment(key)}`, d, p, r));
    if (r || typeof d !== "object" || d === null) return run();
    let known = this.answers.get(d);
    if (!known) this.answers.set(d, (known = new Map()));
    let answer = known.get(key);
    if (answer === undefined) known.set(key, (answer = run()));
    return answer;
  }

  private explicit<T>(check: () => T): T {
    const outer = this.derivable;
    this.derivable = false;
    try {
      return check();
    } finally {
      this.derivable = outer;
    }
  }
}

/** Keywords that describe and never constrain. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "deprecated",
  "$comment",
  "readOnly",
  "writeOnly",
  "$schema",
]);

function isType(type: string, d: unknown): boolean {
  switch (type) {
    case "string":
    case "boolean":
      return typeof d === type;
    case "number":
      return typeof d === "number" && Number.isFinite(d);
    case "integer":
      return typeof d === "number" && !(d % 1) && Number.isFinite(d);
    case "null":
      return d === null;
    case "array":
      return Array.isArray(d);
    default:
      return isObject(d);
  }
}

function groupOf(type: string): Group | undefined {
  if (type === "integer" || type === "number") return "number";
  return type === "string" || type === "array" || type === "object" ? type : undefined;
}

function inGroup(group: Group, d: unknown): boolean {
  if (group === "number" || group === "string") return typeof d === group;
  return group === "array" ? Array.isArray(d) : isObject(d);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return isObject(value);
}

/** A property name as a JSON pointer segment. */
function segment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
