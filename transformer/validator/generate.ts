/**
 * tooltype's validator code generator: a tool's parameter schema in, the text of a small validator factory out,
 * `function (require) { var k = require("tooltype/validator@1"); ...; return k.v(v); }`.
 *
 * The code is ES5 (var and function only), so it needs no down-levelling for any target and no code generation at
 * run time. Each schema becomes straight-line checks on local variables; only `$defs` entries and union
 * alternatives become functions of their own. What takes more than an expression (reporting, unions, uniqueness,
 * guarded patterns, formats, Unicode lengths, deep equality) is a call into the kit, runtime/arguments/
 * validator-kit.ts, whose header states the contract between the two halves.
 *
 * Only the keywords tooltype emits (and `allOf`/`not`) are generated; any other keyword makes `generate` return
 * undefined, and the runtime then validates that schema with ajv.
 */
import { type JsonSchema, type JsonValue, VALIDATOR_KIT_ID as KIT_ID } from "../../runtime/tool/meta";

/** Keywords that describe and never constrain. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "deprecated", "$comment", "readOnly", "writeOnly", "$schema"]);

/** Keywords this generator implements (with `$defs` at the root). */
const IMPLEMENTED = new Set([
  "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties", "items", "prefixItems",
  "minItems", "maxItems", "uniqueItems", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
  "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "anyOf", "allOf", "not", "$ref",
]);

/** What the generator asks of its caller about a pattern. */
export interface PatternJudge {
  /** True when `source` is proven to match in linear time (so the run-time budget can skip it). */
  linear(source: string, schemaPath: string): boolean;
}

class Unsupported extends Error {}

const ROOT: Path = { head: "p", tail: "" };

type Type = "string" | "number" | "integer" | "boolean" | "null" | "object" | "array";

/** The code of a validator factory for `schema`, or undefined when it uses a keyword not generated here. */
export function generateValidator(schema: JsonSchema, patterns: PatternJudge): string | undefined {
  try {
    return new Generator(schema, patterns).factory();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

class Generator {
  /** Factory-scope declarations: patterns, formats, sets, constant values, alternative lists. */
  private readonly hoisted: string[] = [];
  private readonly functions: string[] = [];
  private readonly defFunctions = new Map<string, string>();
  private readonly memo = new Map<string, string>();
  private count = 0;
  /**
   * True while writing the root function outside `allOf`: there a check's place in the schema follows from the
   * value's JSON pointer, so errors name only their keyword and the runtime finds the rest (see derivedSchemaPath in
   * runtime/arguments/validate.ts). Functions of their own (`$defs`, alternatives, `not`) write full paths.
   */
  private derivable = true;

  constructor(
    private readonly root: JsonSchema,
    private readonly patterns: PatternJudge,
  ) {}

  factory(): string {
    const body = this.checks(this.root, "", "d", ROOT, true);
    this.functions.push(fn("v", body));
    return [
      "function (require) {",
      `var k = require(${JSON.stringify(KIT_ID)});`,
      ...this.hoisted,
      ...this.functions,
      "return k.v(v);",
      "}",
    ].join("\n");
  }

  private name(prefix: string): string {
    return `${prefix}${this.count++}`;
  }

  /** A factory-scope constant, shared when the same expression is needed again. */
  private constant(prefix: string, expression: string): string {
    const known = this.memo.get(expression);
    if (known) return known;
    const name = this.name(prefix);
    this.hoisted.push(`var ${name} = ${expression};`);
    this.memo.set(expression, name);
    return name;
  }

  /** A function checking `schema` (at `sp`): for `$defs` entries, alternatives and `not`. */
  private checkFunction(schema: JsonValue, sp: string): string {
    const name = this.name("c");
    // Registered before the body is generated, so recursive references find it.
    this.functions.push("");
    const index = this.functions.length - 1;
    this.functions[index] = fn(name, this.explicit(() => this.checks(schema, sp, "d", ROOT, false)));
    return name;
  }

  private defFunction(ref: string): string {
    const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
    const defs = this.root.$defs;
    const key = match ? match[1]!.replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
    if (key === undefined || typeof defs !== "object" || defs === null || Array.isArray(defs) || !(key in defs)) throw new Unsupported();
    let name = this.defFunctions.get(key);
    if (!name) {
      name = this.name("c");
      this.defFunctions.set(key, name);
      this.functions.push("");
      const index = this.functions.length - 1;
      this.functions[index] = fn(name, this.explicit(() => this.checks(defs[key]!, `$defs/${pointer(key)}`, "d", ROOT, false)));
    }
    return name;
  }

  /** Generates with full schema paths in errors. */
  private explicit<T>(generate: () => T): T {
    const outer = this.derivable;
    this.derivable = false;
    try {
      return generate();
    } finally {
      this.derivable = outer;
    }
  }

  /** The schema path an error reports: the keyword alone where the runtime can derive the rest. */
  private reported(sp: string, keyword: string): string {
    return this.derivable ? keyword : sp === "" ? keyword : `${sp}/${keyword}`;
  }

  /**
   * Statements checking the value in variable `d` against `schema`; `p` is the expression of its JSON pointer.
   * Each failed check reports and returns 1 when told to stop.
   */
  private checks(schema: JsonValue, sp: string, d: string, p: Path, isRoot: boolean): string[] {
    if (schema === true) return [];
    if (schema === false) return [`if (${report(p, sp, d, "{}", "false schema")}) return 1;`];
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new Unsupported();
    for (const keyword of Object.keys(schema)) {
      if (ANNOTATIONS.has(keyword) || IMPLEMENTED.has(keyword) || (keyword === "$defs" && isRoot)) continue;
      throw new Unsupported();
    }
    const at = (keyword: string): string => (sp === "" ? keyword : `${sp}/${keyword}`);
    const rp = (keyword: string): string => this.reported(sp, keyword);
    const out: string[] = [];
    // Through the kit, which remembers yes/no answers per object: recursive unions stay linear (see `c` there).
    if (typeof schema.$ref === "string") out.push(`if (k.c(${this.defFunction(schema.$ref)}, ${d}, ${lazy(p)}, r)) return 1;`);
    const types = typeList(schema.type);
    const groups = this.typeGroups(schema, sp, d, p);
    if (types) {
      const test = types.map((t) => typeTest(t, d)).join(" || ");
      // One declared type: its checks run only when the type is right, as the `else` of the type check.
      const own = types.length === 1 ? groupOf(types[0]!) : undefined;
      const single = own ? groups.get(own) : undefined;
      const guarded = [...groups].filter(([group]) => !(types.length === 1 && group === own));
      if (single && single.length > 0) out.push(`if (${types.length === 1 ? negatedTypeTest(types[0]!, d) : `!(${test})`}) { if (${report(p, rp("type"), d, "")}) return 1; } else {\n${single.join("\n")}\n}`);
      else out.push(`if (${types.length === 1 ? negatedTypeTest(types[0]!, d) : `!(${test})`} && ${report(p, rp("type"), d, "")}) return 1;`);
      for (const [group, lines] of guarded) if (types.some((t) => groupOf(t) === group)) out.push(...guard(group, d, lines));
    } else {
      for (const [group, lines] of groups) out.push(...guard(group, d, lines));
    }
    if ("const" in schema) out.push(`if (${this.differs(d, [schema.const!])}) { if (${report(p, rp("const"), d, `{ allowedValue: ${JSON.stringify(schema.const)} }`)}) return 1; }`);
    if (Array.isArray(schema.enum)) out.push(`if (${this.differs(d, schema.enum)}) { if (${report(p, rp("enum"), d, "")}) return 1; }`);
    if (typeof schema.format === "string") {
      const check = this.constant("F", `k.f(${JSON.stringify(schema.format)})`);
      out.push(`if (!${check}(${d}) && ${report(p, rp("format"), d, `{ format: ${JSON.stringify(schema.format)} }`)}) return 1;`);
    }
    if (Array.isArray(schema.anyOf)) {
      const branches = schema.anyOf.map((branch, i) => this.checkFunction(branch, at(`anyOf/${i}`)));
      const list = this.constant("A", `[${branches.join(", ")}]`);
      out.push(`if (k.any(r, ${render(p)}, ${JSON.stringify(rp("anyOf"))}, ${d}, ${list})) return 1;`);
    }
    if (Array.isArray(schema.allOf)) schema.allOf.forEach((part, i) => out.push(...this.explicit(() => this.checks(part, at(`allOf/${i}`), d, p, false))));
    if ("not" in schema) {
      const inner = schema.not!;
      const always = inner === true || (typeof inner === "object" && inner !== null && !Array.isArray(inner) && Object.keys(inner).every((k) => ANNOTATIONS.has(k)));
      const test = always ? "" : `!${this.checkFunction(inner, at("not"))}(${d}, p, 0) && `;
      out.push(`if (${test}${report(p, rp("not"), d, "")}) return 1;`);
    }
    return out;
  }

  /** The type-specific checks, by the JSON type they apply to. */
  private typeGroups(schema: JsonSchema, sp: string, d: string, p: Path): Map<"string" | "number" | "array" | "object", string[]> {
    const at = (keyword: string): string => (sp === "" ? keyword : `${sp}/${keyword}`);
    const rp = (keyword: string): string => this.reported(sp, keyword);
    const groups = new Map<"string" | "number" | "array" | "object", string[]>();
    const add = (group: "string" | "number" | "array" | "object", line: string): void => {
      const lines = groups.get(group) ?? [];
      lines.push(line);
      groups.set(group, lines);
    };
    const fail = (keyword: string, params = ""): string => `${report(p, rp(keyword), d, params)}) return 1;`;
    const num = (keyword: string): number | undefined => (typeof schema[keyword] === "number" ? (schema[keyword] as number) : undefined);
    // Numbers, as ajv compares them.
    const bounds: [string, string][] = [["maximum", ">"], ["minimum", "<"], ["exclusiveMaximum", ">="], ["exclusiveMinimum", "<="]];
    for (const [keyword, op] of bounds) {
      const limit = num(keyword);
      if (limit !== undefined) add("number", `if (${d} ${op} ${limit} && ${fail(keyword)}`);
    }
    const multipleOf = num("multipleOf");
    if (multipleOf !== undefined) add("number", `if (${d} / ${multipleOf} !== parseInt(${d} / ${multipleOf}) && ${fail("multipleOf")}`);
    // Strings: lengths in code points, then the pattern (guarded), as JSON Schema counts them.
    const maxLength = num("maxLength");
    if (maxLength !== undefined) add("string", `if (${d}.length > ${maxLength} && k.l(${d}) > ${maxLength} && ${fail("maxLength")}`);
    const minLength = num("minLength");
    if (minLength !== undefined) add("string", `if (k.l(${d}) < ${minLength} && ${fail("minLength")}`);
    if (typeof schema.pattern === "string") {
      const pattern = this.pattern(schema.pattern, at("pattern"));
      add("string", `if (k.m(${pattern}, r, ${render(p)}, ${JSON.stringify(rp("pattern"))}, ${d})) return 1;`);
    }
    // Arrays.
    const maxItems = num("maxItems");
    if (maxItems !== undefined) add("array", `if (${d}.length > ${maxItems} && ${fail("maxItems")}`);
    const minItems = num("minItems");
    if (minItems !== undefined) add("array", `if (${d}.length < ${minItems} && ${fail("minItems")}`);
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    prefix.forEach((item, i) => {
      const v = this.name("d");
      const lines = this.checks(item, at(`prefixItems/${i}`), v, concat(p, `/${i}`), false);
      if (lines.length > 0) add("array", `if (${d}.length > ${i}) {\nvar ${v} = ${d}[${i}];\n${lines.join("\n")}\n}`);
    });
    if (schema.items === false && prefix.length > 0) add("array", `if (${d}.length > ${prefix.length} && ${fail("items", `{ limit: ${prefix.length} }`)}`);
    else if (schema.items === false) add("array", `if (${d}.length > 0 && ${fail("items", "{ limit: 0 }")}`);
    else if (schema.items !== undefined) {
      const i = this.name("i");
      const v = this.name("d");
      const lines = this.checks(schema.items, at("items"), v, dynamic(p, i), false);
      if (lines.length > 0) add("array", `for (var ${i} = ${prefix.length}; ${i} < ${d}.length; ${i}++) {\nvar ${v} = ${d}[${i}];\n${lines.join("\n")}\n}`);
    }
    if (schema.uniqueItems === true) add("array", `if (k.u(r, ${render(p)}, ${JSON.stringify(rp("uniqueItems"))}, ${d})) return 1;`);
    // Objects: required, unknown keys, known properties, pattern properties (ajv's order).
    if (Array.isArray(schema.required) && schema.required.length > 0) {
      // One error for the object; the runtime names each missing property from the schema's list.
      const missing = (schema.required as JsonValue[]).map((name) => `${d}${member(String(name))} === undefined`).join(" || ");
      add("object", `if ((${missing}) && ${fail("required")}`);
    }
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const patternProperties = isRecord(schema.patternProperties) ? schema.patternProperties : {};
    const patternNames = Object.keys(patternProperties).map((source) => this.pattern(source, at(`patternProperties/${pointer(source)}`)));
    const additional = schema.additionalProperties;
    if (additional !== undefined && additional !== true) {
      const unknownKey = (key: string): string => {
        const known = this.knownKey(Object.keys(properties), key);
        const matches = patternNames.map((name) => `!(${name}.test(${key}) === true)`);
        return [known ? `!(${known})` : "", ...matches].filter(Boolean).join(" && ") || "true";
      };
      if (additional === false && patternNames.length === 0) {
        // The loop stays in the generated code (one object shape per loop keeps V8's for-in fast), and a few names
        // are compared directly, which is twice as fast as a lookup.
        const names = Object.keys(properties);
        const key = this.name("k");
        const unknown = names.length <= 8 ? names.map((name) => `${key} !== ${JSON.stringify(name)}`).join(" && ") || "true" : `${this.constant("K", `k.s(${JSON.stringify(names)})`)}[${key}] !== 1`;
        add("object", `for (var ${key} in ${d}) if (${unknown} && ${fail("additionalProperties", `{ additionalProperty: ${key} }`)}`);
      } else if (additional === false) {
        const key = this.name("k");
        add("object", `for (var ${key} in ${d}) if (${unknownKey(key)} && ${fail("additionalProperties", `{ additionalProperty: ${key} }`)}`);
      } else {
        const key = this.name("k");
        const unknown = unknownKey(key);
        const v = this.name("d");
        const lines = this.checks(additional, at("additionalProperties"), v, dynamic(p, `k.x(${key})`), false);
        if (lines.length > 0) add("object", `for (var ${key} in ${d}) if (${unknown}) {\nvar ${v} = ${d}[${key}];\n${lines.join("\n")}\n}`);
      }
    }
    for (const [name, property] of Object.entries(properties)) {
      const v = this.name("d");
      const lines = this.checks(property, at(`properties/${pointer(name)}`), v, concat(p, `/${pointer(name)}`), false);
      if (lines.length === 0) continue;
      const only = lines.length === 1 ? /^if \((.*)\) return 1;$/.exec(lines[0]!) : null;
      // One plain check folds into the presence test; anything else gets a block.
      if (only && !only[1]!.includes("{")) add("object", `var ${v} = ${d}${member(name)};\nif (${v} !== undefined && ${only[1]}) return 1;`);
      else add("object", `var ${v} = ${d}${member(name)};\nif (${v} !== undefined) {\n${lines.join("\n")}\n}`);
    }
    Object.entries(patternProperties).forEach(([source, property], i) => {
      const key = this.name("k");
      const v = this.name("d");
      const lines = this.checks(property, at(`patternProperties/${pointer(source)}`), v, dynamic(p, `k.x(${key})`), false);
      if (lines.length > 0) add("object", `for (var ${key} in ${d}) if (${patternNames[i]}.test(${key}) === true) {\nvar ${v} = ${d}[${key}];\n${lines.join("\n")}\n}`);
    });
    return groups;
  }

  /** The test "this key is one of the known properties": a chain for a few, a set for many. */
  private knownKey(names: string[], key: string): string {
    if (names.length === 0) return "";
    if (names.length <= 8) return names.map((name) => `${key} === ${JSON.stringify(name)}`).join(" || ");
    const set = this.constant("K", `k.s(${JSON.stringify(names)})`);
    return `${set}[${key}] === 1`;
  }

  /** The test "`d` is none of `values`": strict equality for primitives, deep equality for the rest. */
  private differs(d: string, values: JsonValue[]): string {
    const primitive = values.every((value) => typeof value !== "object" || value === null);
    if (primitive && values.length <= 8) return values.map((value) => `${d} !== ${JSON.stringify(value)}`).join(" && ") || "true";
    const list = this.constant("V", JSON.stringify(values));
    return `!k.n(${d}, ${list})`;
  }

  private pattern(source: string, sp: string): string {
    const linear = this.patterns.linear(source, sp);
    return this.constant("R", `k.re(${JSON.stringify(source)}${linear ? ", 1" : ""})`);
  }
}

function fn(name: string, body: string[]): string {
  return [`function ${name}(d, p, r) {`, ...body, "return 0;", "}"].join("\n");
}

/** The call reporting an error (its arguments are only evaluated when the check failed). */
function report(p: Path, sp: string, d: string, params: string, keyword?: string): string {
  const args = [`r`, render(p), JSON.stringify(sp), d];
  if (params || keyword) args.push(params || "undefined");
  if (keyword) args.push(JSON.stringify(keyword));
  return `k.e(${args.join(", ")})`;
}

/**
 * A value's JSON pointer while generating: an expression (`p`, `p + "/items/" + i3`) and a constant tail not yet
 * appended, so that `/a/b` is written as one string literal.
 */
interface Path {
  head: string;
  tail: string;
}

function render(path: Path): string {
  return path.tail === "" ? path.head : `${path.head} + ${JSON.stringify(path.tail)}`;
}

function concat(path: Path, segment: string): Path {
  return { head: path.head, tail: path.tail + segment };
}

/** An array item's or a map value's path: the parent's, then `/` and a run-time segment. */
function dynamic(path: Path, segment: string): Path {
  return { head: `${render(concat(path, "/"))} + ${segment}`, tail: "" };
}

/** A path passed to a function: built only when errors are collected. */
function lazy(path: Path): string {
  return path.tail === "" && path.head === "p" ? "p" : `r && ${render(path)}`;
}

function pointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function typeList(type: JsonValue | undefined): Type[] | undefined {
  if (type === undefined) return undefined;
  const list = Array.isArray(type) ? type : [type];
  const known = ["string", "number", "integer", "boolean", "null", "object", "array"];
  if (!list.every((t) => typeof t === "string" && known.includes(t))) throw new Unsupported();
  return list as Type[];
}

function typeTest(type: Type, d: string): string {
  switch (type) {
    case "string":
    case "boolean":
      return `typeof ${d} === "${type}"`;
    case "number":
      return `typeof ${d} === "number" && isFinite(${d})`;
    case "integer":
      return `typeof ${d} === "number" && !(${d} % 1) && isFinite(${d})`;
    case "null":
      return `${d} === null`;
    case "array":
      return `Array.isArray(${d})`;
    case "object":
      return `k.o(${d})`;
  }
}

/** `typeTest` negated, written plainly where it is one comparison. */
function negatedTypeTest(type: Type, d: string): string {
  switch (type) {
    case "string":
    case "boolean":
      return `typeof ${d} !== "${type}"`;
    case "null":
      return `${d} !== null`;
    case "array":
      return `!Array.isArray(${d})`;
    case "object":
      return `!k.o(${d})`;
    default:
      return `!(${typeTest(type, d)})`;
  }
}

/** `.name` where that is valid ES5, else `["name"]`. */
function member(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED.has(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

const RESERVED = new Set(["break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "implements", "interface", "let", "package", "private", "protected", "public", "static", "yield"]);

function groupOf(type: Type): "string" | "number" | "array" | "object" | undefined {
  if (type === "integer" || type === "number") return "number";
  if (type === "string" || type === "array" || type === "object") return type;
  return undefined;
}

/** Type-specific checks for a value whose type was not settled by a single `type`. */
function guard(group: "string" | "number" | "array" | "object", d: string, lines: string[]): string[] {
  if (lines.length === 0) return [];
  const test = group === "number" ? `typeof ${d} === "number"` : group === "string" ? `typeof ${d} === "string"` : group === "array" ? `Array.isArray(${d})` : `k.o(${d})`;
  return [`if (${test}) {`, ...lines, "}"];
}

function isRecord(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
