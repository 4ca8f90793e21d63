/**
 * tooltype's validator code generator: a tool's parameter schema in, the text of a small validator factory out,
 * `function (require) { var k = require("tooltype/validator@3"); ...; return k.v(v); }`.
 *
 * The code answers yes or no only: each check is `if (<invalid>) return 1;`. Saying why a value is invalid is the
 * kit's job (the kit's explanation walks the schema, which the metadata carries anyway), so the build
 * output holds no error paths, params or messages. The code is ES5 syntax (var and function only; it calls
 * `Number.isFinite` and `Number.isInteger`, which every runtime tooltype runs on has), so it needs no
 * down-levelling for any target and no code generation at run time. Each schema becomes straight-line checks on
 * local variables; only `$defs` entries and union alternatives of more than one check become functions of their
 * own. What takes more than an expression (`$ref` memory, the object test) is a call into the kit,
 * the runtime's validator kit, whose header states the contract. What only some schemas need (formats,
 * guarded patterns, uniqueness, Unicode lengths, deep equality) is read from the `tooltype/kit` import by name
 * (`__tooltype_kit.email(d)`), which the transformer adds to the file (`usesImports` tells it when): a bundle then
 * holds only the checks its tools use.
 *
 * Only the keywords tooltype emits (and `allOf`/`not`) are generated; any other keyword makes `generate` return
 * undefined, and the runtime then validates that schema with ajv.
 */
import {
  type JsonSchema,
  type JsonValue,
  kitFormatExport,
  VALIDATOR_IMPORTS,
  VALIDATOR_KIT_ID as KIT_ID,
} from "../../runtime/tool/meta";
import { KNOWN_FORMATS } from "../schema/keywords";

/** The `tooltype/kit` import, as generated code names it. */
const IMPORTS = VALIDATOR_IMPORTS.name;

/** Whether generated code reads the `tooltype/kit` import (the file then needs it). */
export function usesImports(code: string): boolean {
  return code.includes(`${IMPORTS}.`);
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

/** Keywords whose checks apply to one JSON type only (see typeGroups); a schema without any needs no grouping. */
const TYPE_SPECIFIC = new Set([
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "prefixItems",
  "items",
  "uniqueItems",
  "required",
  "properties",
  "patternProperties",
  "additionalProperties",
]);

/** Number bounds with the operator meaning "out of bounds", as ajv compares them. */
const BOUNDS: readonly [string, string][] = [
  ["maximum", ">"],
  ["minimum", "<"],
  ["exclusiveMaximum", ">="],
  ["exclusiveMinimum", "<="],
];

/** No type-specific checks. */
const NO_GROUPS: ReadonlyMap<Group, Line[]> = new Map();

/** Keywords this generator implements (with `$defs` at the root). */
const IMPLEMENTED = new Set([
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "anyOf",
  "allOf",
  "not",
  "$ref",
]);

/** What the generator asks of its caller about a pattern. */
export interface PatternJudge {
  /** True when `source` is proven to match in linear time (so the run-time budget can skip it). */
  linear(source: string, schemaPath: string): boolean;
  /**
   * True when tooltype's automaton holds `source` whole, so matching it needs no re2js (`pattern`, not
   * `enginePattern`). Left out, every pattern is `pattern`: the run time asks the automaton again either way.
   */
  automaton?(source: string): boolean;
}

class Unsupported extends Error {}

type Type = "string" | "number" | "integer" | "boolean" | "null" | "object" | "array";
type Group = "string" | "number" | "array" | "object";

/** A generated statement: a condition meaning "invalid" (printed `if (...) return 1;`), or code as it is. */
type Line = { cond: string } | { code: string };

/**
 * Stands for the checked value while a sub-schema's checks are written, so that its place (a variable, or the
 * property access itself when that is shorter) is chosen afterwards. JSON.stringify escapes it, so no literal in
 * the code can contain it.
 */
const VALUE = "\u0000";

/** A name that may stand unquoted as an object key. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Conditions joined with `||` on one line up to this length; past it a new line starts. */
const LINE = 120;

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
  /** Factory-scope declarations: patterns, formats, sets, constant values. */
  private readonly hoisted: string[] = [];
  private readonly functions: string[] = [];
  private readonly defFunctions = new Map<string, string>();
  private readonly memo = new Map<string, string>();
  /** The names of the guarded patterns, which `v()` is given. */
  private readonly patternNames: string[] = [];
  /** The format checks read from the kit import, by format name, which `v()` is given too. */
  private readonly formats = new Map<string, string>();
  private count = 0;
  /**
   * Whether a `$ref` goes through the kit's memory of answers per object (`k.c`). Only a schema that can check one
   * value twice needs it (alternatives, conjuncts, a key matched by two property schemas), or a recursive union
   * costs 2^depth; anywhere else every value is checked once, and the memory cost a 21,000-node tree a Map per node.
   */
  private readonly remember: boolean;

  constructor(
    private readonly root: JsonSchema,
    private readonly patterns: PatternJudge,
  ) {
    this.remember = checksTwice(root);
  }

  factory(): string {
    this.functions.push(fn("v", this.checks(this.root, "", "d", true)));
    const formats = [...this.formats].map(
      ([name, check]) => `${IDENTIFIER.test(name) ? name : JSON.stringify(name)}: ${check}`,
    );
    const patterns = this.patternNames.length > 0 || formats.length > 0 ? `, [${this.patternNames.join(", ")}]` : "";
    const checks = formats.length > 0 ? `, { ${formats.join(", ")} }` : "";
    return [
      "function (require) {",
      `var k = require(${JSON.stringify(KIT_ID)});`,
      ...this.hoisted,
      ...this.functions,
      `return k.v(v${patterns}${checks});`,
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

  /** The condition "`d` is invalid against `schema`": one expression where it is one check, else a function call. */
  private invalid(schema: JsonValue, sp: string, d: string): string {
    const lines = this.checks(schema, sp, VALUE, false);
    if (lines.length === 0) return "false";
    const single = onlyConditions(lines);
    if (single !== undefined) return place(single, d);
    const name = this.name("c");
    this.functions.push(
      fn(
        name,
        lines.map((line) => place(line, "d")),
      ),
    );
    return `${name}(${d})`;
  }

  /** The `$defs` entry a `$ref` names (`#/$defs/<name>`), as its key and schema; undefined for any other `$ref`. */
  private definition(ref: string): { key: string; schema: JsonValue } | undefined {
    const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
    const defs = this.root.$defs;
    if (!match || !isRecord(defs)) return undefined;
    const key = match[1]!.replace(/~1/g, "/").replace(/~0/g, "~");
    return Object.hasOwn(defs, key) ? { key, schema: defs[key]! } : undefined;
  }

  private defFunction(ref: string): string {
    const found = this.definition(ref);
    if (found === undefined) throw new Unsupported();
    const { key, schema } = found;
    let name = this.defFunctions.get(key);
    if (!name) {
      name = this.name("c");
      this.defFunctions.set(key, name);
      // Registered before the body is generated, so recursive references find it.
      this.functions.push("");
      const index = this.functions.length - 1;
      this.functions[index] = fn(name, this.checks(schema, `$defs/${pointer(key)}`, "d", false));
    }
    return name;
  }

  /** The checks of the value `d` against `schema` (at `sp`, for pattern diagnostics). */
  private checks(schema: JsonValue, sp: string, d: string, isRoot: boolean): Line[] {
    if (schema === true) return [];
    if (schema === false) return [{ code: "return 1;" }];
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new Unsupported();
    let typeSpecific = false;
    for (const keyword of Object.keys(schema)) {
      if (TYPE_SPECIFIC.has(keyword)) typeSpecific = true;
      if (ANNOTATIONS.has(keyword) || IMPLEMENTED.has(keyword) || (keyword === "$defs" && isRoot)) continue;
      throw new Unsupported();
    }
    const at = (keyword: string): string => (sp === "" ? keyword : `${sp}/${keyword}`);
    const out: Line[] = [];
    // Through the kit where it must remember answers per object: recursive unions stay linear (see `c` there).
    if (typeof schema.$ref === "string") {
      const check = this.defFunction(schema.$ref);
      out.push({ cond: this.remember ? `k.c(${check}, ${d})` : `${check}(${d})` });
    }
    const types = typeList(schema.type);
    const groups = typeSpecific ? this.typeGroups(schema, sp, d) : NO_GROUPS;
    // Where every allowed value has the right type, the value test alone settles the type, and goes first.
    const values = "const" in schema ? [schema.const!] : Array.isArray(schema.enum) ? schema.enum : undefined;
    const implied = types && values?.every((value) => types.some((type) => hasType(type, value)));
    if (implied) out.push(...this.values(schema, d));
    if (types) {
      if (!implied)
        out.push({
          cond:
            types.length === 1 ? negatedTypeTest(types[0]!, d) : `!(${types.map((t) => typeTest(t, d)).join(" || ")})`,
        });
      // Past the type check the value has one of the types: a single type's checks need no guard.
      const own = types.length === 1 ? groupOf(types[0]!) : undefined;
      for (const [group, lines] of groups) {
        if (group === own) out.push(...lines);
        else if (types.some((t) => groupOf(t) === group)) out.push(...guard(group, d, lines));
      }
    } else {
      for (const [group, lines] of groups) out.push(...guard(group, d, lines));
    }
    if (!implied) out.push(...this.values(schema, d));
    // A format the kit does not know accepts everything (the transformer warned about it, TT1014): no check.
    if (typeof schema.format === "string" && KNOWN_FORMATS.has(schema.format)) {
      const check = `${IMPORTS}.${kitFormatExport(schema.format)}`;
      this.formats.set(schema.format, check);
      out.push({ cond: `!${check}(${d})` });
    }
    if (Array.isArray(schema.anyOf)) {
      const branches = schema.anyOf.map((branch, i) => this.invalid(branch, at(`anyOf/${i}`), d));
      out.push({ cond: branches.map(parenthesised).join(" && ") });
    }
    if (Array.isArray(schema.allOf))
      schema.allOf.forEach((part, i) => {
        out.push(...this.checks(part, at(`allOf/${i}`), d, false));
      });
    if ("not" in schema) {
      const inner = schema.not!;
      const always = inner === true || (isRecord(inner) && Object.keys(inner).every((k) => ANNOTATIONS.has(k)));
      out.push(always ? { code: "return 1;" } : { cond: `!(${this.invalid(inner, at("not"), d)})` });
    }
    return out;
  }

  /**
   * Whether the checks generated for `schema` find `undefined` invalid: it has a type (undefined has none), an
   * `enum` or `const` (undefined is no JSON value), or every `anyOf` branch, some `allOf` part or the `$ref`ed
   * definition does. `seen`: definitions on the way, so a recursive one is not followed twice (and counts as no).
   */
  private refusesUndefined(schema: JsonValue, seen: Set<string>): boolean {
    if (schema === false) return true;
    if (!isRecord(schema)) return false;
    if (
      typeof schema.type === "string" ||
      (Array.isArray(schema.type) && schema.type.length > 0) ||
      "const" in schema ||
      Array.isArray(schema.enum)
    )
      return true;
    if (
      Array.isArray(schema.anyOf) &&
      schema.anyOf.length > 0 &&
      schema.anyOf.every((branch) => this.refusesUndefined(branch, seen))
    )
      return true;
    if (Array.isArray(schema.allOf) && schema.allOf.some((part) => this.refusesUndefined(part, seen))) return true;
    const found = typeof schema.$ref === "string" ? this.definition(schema.$ref) : undefined;
    if (found === undefined || seen.has(found.key)) return false;
    return this.refusesUndefined(found.schema, new Set(seen).add(found.key));
  }

  /** `const` and `enum`. */
  private values(schema: { [key: string]: JsonValue }, d: string): Line[] {
    const out: Line[] = [];
    if ("const" in schema) out.push({ cond: this.differs(d, [schema.const!]) });
    if (Array.isArray(schema.enum)) out.push({ cond: this.differs(d, schema.enum) });
    return out;
  }

  /** The type-specific checks, by the JSON type they apply to. */
  private typeGroups(schema: { [key: string]: JsonValue }, sp: string, d: string): Map<Group, Line[]> {
    const at = (keyword: string): string => (sp === "" ? keyword : `${sp}/${keyword}`);
    const groups = new Map<Group, Line[]>();
    const add = (group: Group, line: Line | string): void => {
      const lines = groups.get(group) ?? [];
      lines.push(typeof line === "string" ? { cond: line } : line);
      groups.set(group, lines);
    };
    const num = (keyword: string): number | undefined =>
      typeof schema[keyword] === "number" ? (schema[keyword] as number) : undefined;
    // Numbers, as ajv compares them.
    for (const [keyword, op] of BOUNDS) {
      const limit = num(keyword);
      if (limit !== undefined) add("number", `${d} ${op} ${limit}`);
    }
    const multipleOf = num("multipleOf");
    if (multipleOf !== undefined) add("number", `${d} / ${multipleOf} !== parseInt(${d} / ${multipleOf})`);
    // Strings: lengths in code points, then the pattern (guarded), as JSON Schema counts them.
    const maxLength = num("maxLength");
    if (maxLength !== undefined)
      add("string", `${d}.length > ${maxLength} && ${IMPORTS}.codePoints(${d}) > ${maxLength}`);
    const minLength = num("minLength");
    if (minLength !== undefined) add("string", `${IMPORTS}.codePoints(${d}) < ${minLength}`);
    if (typeof schema.pattern === "string")
      add("string", `${this.pattern(schema.pattern, at("pattern"))}.test(${d}) !== true`);
    // Arrays.
    const maxItems = num("maxItems");
    if (maxItems !== undefined) add("array", `${d}.length > ${maxItems}`);
    const minItems = num("minItems");
    if (minItems !== undefined) add("array", `${d}.length < ${minItems}`);
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    prefix.forEach((item, i) => {
      const lines = this.checks(item, at(`prefixItems/${i}`), VALUE, false);
      if (lines.length > 0)
        this.element(lines, `${d}[${i}]`, `${d}.length > ${i}`).forEach((line) => {
          add("array", line);
        });
    });
    if (schema.items === false) add("array", `${d}.length > ${prefix.length}`);
    else if (schema.items !== undefined) {
      const lines = this.checks(schema.items, at("items"), VALUE, false);
      if (lines.length > 0) {
        const i = this.name("i");
        add("array", {
          code: this.loopBody(
            `for (var ${i} = ${prefix.length}; ${i} < ${d}.length; ${i}++)`,
            undefined,
            lines,
            `${d}[${i}]`,
          ),
        });
      }
    }
    if (schema.uniqueItems === true) add("array", `!${IMPORTS}.unique(${d})`);
    // Objects: required, unknown keys, known properties, pattern properties.
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const properties = isRecord(schema.properties) ? schema.properties : {};
    // A required property whose own checks refuse `undefined` (a type, enum or const) is checked for presence by
    // them: only the others need `=== undefined` (which is most of what `required` would cost the code otherwise).
    const unchecked = [...required].filter(
      (name) => !Object.hasOwn(properties, name) || !this.refusesUndefined(properties[name]!, new Set()),
    );
    if (unchecked.length > 0) add("object", unchecked.map((name) => `${d}${member(name)} === undefined`).join(" || "));
    const patternProperties = isRecord(schema.patternProperties) ? schema.patternProperties : {};
    const patternNames = Object.keys(patternProperties).map((source) =>
      this.pattern(source, at(`patternProperties/${pointer(source)}`)),
    );
    const additional = schema.additionalProperties;
    if (additional !== undefined && additional !== true) {
      const key = this.name("k");
      const known = this.knownKey(Object.keys(properties), key);
      const unknown =
        [known, ...patternNames.map((name) => `${name}.test(${key}) !== true`)].filter(Boolean).join(" && ") ||
        undefined;
      const loop = `for (var ${key} in ${d})`;
      if (additional === false) {
        // The loop stays in the generated code: one object shape per loop keeps V8's for-in fast.
        add("object", { code: `${loop} ${unknown ? `if (${unknown}) ` : ""}return 1;` });
      } else {
        const lines = this.checks(additional, at("additionalProperties"), VALUE, false);
        if (lines.length > 0) add("object", { code: this.loopBody(loop, unknown, lines, `${d}[${key}]`) });
      }
    }
    for (const [name, property] of Object.entries(properties)) {
      const lines = this.checks(property, at(`properties/${pointer(name)}`), VALUE, false);
      if (lines.length === 0) continue;
      // A required property is known to be there once the `required` check passed.
      this.element(lines, `${d}${member(name)}`, undefined, !required.has(name)).forEach((line) => {
        add("object", line);
      });
    }
    Object.entries(patternProperties).forEach(([source, property], i) => {
      const lines = this.checks(property, at(`patternProperties/${pointer(source)}`), VALUE, false);
      if (lines.length === 0) return;
      const key = this.name("k");
      add("object", {
        code: this.loopBody(
          `for (var ${key} in ${d})`,
          `${patternNames[i]}.test(${key}) === true`,
          lines,
          `${d}[${key}]`,
        ),
      });
    });
    return groups;
  }

  /**
   * The checks of a part of `d` (a property, a tuple element), written with VALUE: the part's access in place
   * where that is shorter, else a variable. `when`: a condition for checking it at all; `optional`: skipped when
   * undefined.
   */
  private element(lines: Line[], access: string, when: string | undefined, optional = false): Line[] {
    const single = onlyConditions(lines);
    const guardOf = (value: string): string[] => [
      ...(when ? [when] : []),
      ...(optional ? [`${value} !== undefined`] : []),
    ];
    const v = this.name("d");
    if (single !== undefined) {
      const inline = joinAnd([...guardOf(access), place(single, access)]);
      const viaVar = joinAnd([...guardOf(v), place(single, v)]);
      if (inline.length <= viaVar.length + `var ${v} = ${access};\n`.length) return [{ cond: inline }];
      if (when) return [{ code: `if (${when}) {\nvar ${v} = ${access};\nif (${place(single, v)}) return 1;\n}` }];
      return [{ code: `var ${v} = ${access};` }, { cond: viaVar }];
    }
    const body = print(lines.map((line) => place(line, v)));
    const test = joinAnd(guardOf(v));
    if (when)
      return [{ code: `if (${when}) {\nvar ${v} = ${access};\n${optional ? `if (${test}) {\n${body}\n}` : body}\n}` }];
    return [{ code: `var ${v} = ${access};` }, optional ? { code: `if (${test}) {\n${body}\n}` } : { code: body }];
  }

  /** A loop over parts of a value (array items, object values; `only`: which keys) checking each with `lines`. */
  private loopBody(loop: string, only: string | undefined, lines: Line[], access: string): string {
    const single = onlyConditions(lines);
    const v = this.name("d");
    if (single !== undefined) {
      const inline = joinAnd([...(only ? [only] : []), place(single, access)]);
      const viaVar = place(single, v);
      if (inline.length <= viaVar.length + `{\nvar ${v} = ${access};\n\n}`.length)
        return `${loop} if (${inline}) return 1;`;
    }
    const body = `{\nvar ${v} = ${access};\n${print(lines.map((line) => place(line, v)))}\n}`;
    return only ? `${loop} if (${only}) ${body}` : `${loop} ${body}`;
  }

  /** The test "this key is one of the known properties", negated: a chain for a few, a set for many. */
  private knownKey(names: string[], key: string): string {
    if (names.length === 0) return "";
    if (names.length <= 8) return names.map((name) => `${key} !== ${JSON.stringify(name)}`).join(" && ");
    return `${this.constant("K", `k.s(${JSON.stringify(names)})`)}[${key}] !== 1`;
  }

  /** The test "`d` is none of `values`": strict equality for primitives, deep equality for the rest. */
  private differs(d: string, values: JsonValue[]): string {
    const primitive = values.every((value) => typeof value !== "object" || value === null);
    if (primitive && values.length <= 8)
      return values.map((value) => `${d} !== ${JSON.stringify(value)}`).join(" && ") || "true";
    return `!${IMPORTS}.oneOf(${d}, ${this.constant("V", JSON.stringify(values))})`;
  }

  private pattern(source: string, sp: string): string {
    const linear = this.patterns.linear(source, sp);
    const expression =
      this.patterns.automaton?.(source) !== false
        ? `${IMPORTS}.pattern(${JSON.stringify(source)}${linear ? ", 1" : ""})`
        : `${IMPORTS}.enginePattern(${JSON.stringify(source)})`;
    const known = this.memo.has(expression);
    const name = this.constant("R", expression);
    if (!known) this.patternNames.push(name);
    return name;
  }
}

/** Lines as statements; consecutive conditions share one `if` while the line stays short. */
function print(lines: (Line | string)[]): string {
  const out: string[] = [];
  let conds: string[] = [];
  /** The length of `conds.join(" || ")`. */
  let joined = 0;
  const flush = (): void => {
    if (conds.length > 0) out.push(`if (${conds.join(" || ")}) return 1;`);
    conds = [];
    joined = 0;
  };
  for (const line of lines) {
    if (typeof line === "string" || "code" in line) {
      flush();
      out.push(typeof line === "string" ? line : line.code);
    } else {
      if (conds.length > 0 && joined + line.cond.length > LINE) flush();
      joined += (conds.length > 0 ? 4 : 0) + line.cond.length;
      conds.push(line.cond);
    }
  }
  flush();
  return out.join("\n");
}

function fn(name: string, body: (Line | string)[]): string {
  return [`function ${name}(d) {`, print(body), "return 0;", "}"].join("\n");
}

/** A line (or condition) written with VALUE, with `d` in its place. */
function place(line: Line, d: string): Line;
function place(line: string, d: string): string;
function place(line: Line | string, d: string): Line | string {
  if (typeof line === "string") return line.includes(VALUE) ? line.split(VALUE).join(d) : line;
  return "cond" in line ? { cond: place(line.cond, d) } : { code: place(line.code, d) };
}

/** Lines that are all conditions, as one (any of them); undefined when there is other code. */
function onlyConditions(lines: Line[]): string | undefined {
  if (lines.length === 0 || !lines.every((line) => "cond" in line)) return undefined;
  return lines.map((line) => (line as { cond: string }).cond).join(" || ");
}

/** Conditions that must all hold. */
function joinAnd(conds: string[]): string {
  return conds.length === 1 ? conds[0]! : conds.map(parenthesised).join(" && ");
}

/** A condition as an operand of `&&`. */
function parenthesised(cond: string): string {
  return cond.includes("||") ? `(${cond})` : cond;
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

/** Whether a JSON value has a JSON type, as the generated test decides it. */
function hasType(type: Type, value: JsonValue): boolean {
  switch (type) {
    case "string":
    case "boolean":
      return typeof value === type;
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && value % 1 === 0 && Number.isFinite(value);
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
  }
}

function typeTest(type: Type, d: string): string {
  switch (type) {
    case "string":
    case "boolean":
      return `typeof ${d} === "${type}"`;
    case "number":
      return `Number.isFinite(${d})`;
    case "integer":
      return `Number.isInteger(${d})`;
    case "null":
      return `${d} === null`;
    case "array":
      return `Array.isArray(${d})`;
    case "object":
      return `k.o(${d})`;
  }
}

/** `typeTest` negated, written plainly. */
function negatedTypeTest(type: Type, d: string): string {
  switch (type) {
    case "string":
    case "boolean":
      return `typeof ${d} !== "${type}"`;
    case "number":
      return `!Number.isFinite(${d})`;
    case "integer":
      return `!Number.isInteger(${d})`;
    case "null":
      return `${d} !== null`;
    case "array":
      return `!Array.isArray(${d})`;
    case "object":
      return `!k.o(${d})`;
  }
}

/** `.name` where that is valid ES5, else `["name"]`. */
function member(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED.has(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

const RESERVED = new Set([
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "implements",
  "interface",
  "let",
  "package",
  "private",
  "protected",
  "public",
  "static",
  "yield",
]);

function groupOf(type: Type): Group | undefined {
  if (type === "integer" || type === "number") return "number";
  if (type === "string" || type === "array" || type === "object") return type;
  return undefined;
}

/** Type-specific checks for a value whose type was not settled by a single `type`. */
function guard(group: Group, d: string, lines: Line[]): Line[] {
  if (lines.length === 0) return [];
  const test =
    group === "number"
      ? `typeof ${d} === "number"`
      : group === "string"
        ? `typeof ${d} === "string"`
        : group === "array"
          ? `Array.isArray(${d})`
          : `k.o(${d})`;
  const single = onlyConditions(lines);
  if (single !== undefined) return [{ cond: `${test} && ${parenthesised(single)}` }];
  return [{ code: `if (${test}) {\n${print(lines)}\n}` }];
}

function isRecord(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keywords under which one value may be checked more than once (`patternProperties` overlapping `properties`). */
const CHECK_TWICE = ["anyOf", "allOf", "not", "patternProperties"];

/** Whether any schema in `schema` uses a keyword of CHECK_TWICE (a property of that name counts too: harmless). */
function checksTwice(schema: JsonValue): boolean {
  if (Array.isArray(schema)) return schema.some(checksTwice);
  if (!isRecord(schema)) return false;
  for (const key of Object.keys(schema)) {
    if (CHECK_TWICE.includes(key) || checksTwice(schema[key]!)) return true;
  }
  return false;
}
