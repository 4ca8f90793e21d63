/**
 * The generated validators against ajv, the oracle: for every tool (and structured output) of the type corpus
 * (test/fixtures/conformance), compiled as one program, both must accept and reject exactly the same values.
 *
 * Values come from fast-check, guided by each schema so that most are valid or nearly so (a missing property, a
 * bound crossed by one, a wrong type in one place), plus arbitrary JSON and the fixture's own `valid` / `invalid`
 * lists. The count is bounded (RUNS per schema); a failure prints the schema, the value and both verdicts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { type JsonSchema, type RegisteredTool, ToolRegistry } from "tooltype";
import { closedDepth } from "../../runtime/arguments/closed-schema";
import { instantiateValidator } from "../../runtime/arguments/compiled-validator";
import { kitErrors } from "../../runtime/arguments/kit-explain";
import { compileProgram } from "../support/compile";

const RUNS = 60;

const corpusDir = path.resolve(__dirname, "../../../test/fixtures/conformance");
const fixtureNames = fs.readdirSync(corpusDir).filter((f) => /^\d{3}-.*\.ts$/.test(f)).sort();
const RESERVED = new Set(["valid", "invalid", "schema", "meta", "calls", "diagnostics", "main", "others", "__esModule"]);

const oracle = new Ajv2020({ strict: false, allErrors: false, logger: false });
addFormats(oracle);

interface Case {
  label: string;
  schema: JsonSchema;
  validate: (value: unknown) => boolean;
  examples: unknown[];
}

function collect(): { cases: Case[]; withoutValidator: string[] } {
  const sources = Object.fromEntries(fixtureNames.map((name) => [name, fs.readFileSync(path.join(corpusDir, name), "utf8")]));
  const compiled = compileProgram(sources);
  const cases: Case[] = [];
  const withoutValidator: string[] = [];
  for (const name of fixtureNames) {
    let module: Record<string, unknown>;
    let registry: ToolRegistry;
    try {
      module = compiled.load<Record<string, unknown>>(name.replace(/\.ts$/, ".js"));
      registry = new ToolRegistry(Object.entries(module).filter(([key]) => !RESERVED.has(key)).map(([, value]) => value as object));
    } catch {
      continue; // fixtures that are meant to fail (diagnostics) have no tools to compare
    }
    const examples = [...((module.valid as unknown[]) ?? []), ...((module.invalid as unknown[]) ?? [])];
    // A tool with build errors gets no validator by design (the build fails anyway).
    const failedBuild = compiled.diagnostics.some((d) => d.file === name && d.category === "error");
    for (const tool of registry.list() as RegisteredTool[]) {
      const label = `${name} ${tool.name}`;
      if (!tool.meta.validator) {
        if (!failedBuild) withoutValidator.push(label);
        continue;
      }
      const validate = instantiateValidator(tool.meta.validator, tool.parameters);
      cases.push({ label, schema: tool.parameters, validate: (value) => validate(value) || explained(kitErrors(validate, value)), examples });
    }
  }
  return { cases, withoutValidator };
}

const { cases, withoutValidator } = collect();

test("every tool of the corpus without build errors gets a generated validator", () => {
  assert.ok(cases.length >= 100, `only ${cases.length} tools`);
  assert.equal(withoutValidator, []);
});

/** Values shaped by `schema`: mostly valid, often wrong in one place. */
function shaped(schema: unknown, root: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const any = fc.jsonValue({ maxDepth: 1 });
  if (schema === true || schema === undefined) return any;
  if (schema === false || typeof schema !== "object" || schema === null) return any;
  const s = schema as Record<string, unknown>;
  if (depth > 4) return any;
  if (typeof s.$ref === "string") {
    const name = s.$ref.replace("#/$defs/", "");
    return shaped((root.$defs as Record<string, unknown> | undefined)?.[name], root, depth + 1);
  }
  if ("const" in s) return fc.oneof(fc.constant(s.const), any);
  if (Array.isArray(s.enum)) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(s.enum as unknown[])) }, { weight: 1, arbitrary: any });
  if (Array.isArray(s.anyOf)) return fc.oneof(...s.anyOf.map((branch) => shaped(branch, root, depth + 1)));
  if ("not" in s) return any;
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return any;
  return fc.oneof({ weight: 8, arbitrary: fc.oneof(...types.map((type) => ofType(type, s, root, depth))) }, { weight: 1, arbitrary: any });
}

const FORMAT_SAMPLES: Record<string, string[]> = {
  "date-time": ["2025-01-31T09:30:00Z", "2025-02-30T09:30:00Z", "2025-01-31 09:30", "2016-12-31T23:59:60Z"],
  date: ["2025-01-31", "2025-13-01", "31/01/2025"],
  time: ["09:30:00Z", "25:00:00Z"],
  email: ["a@example.com", "not an email", "a@b"],
  uri: ["https://example.com/x", "example.com", "urn:isbn:0451450523"],
  uuid: ["123e4567-e89b-12d3-a456-426614174000", "123e4567"],
  ipv4: ["192.168.0.1", "256.1.1.1"],
  hostname: ["example.com", "-bad-.com"],
};

function ofType(type: string, s: Record<string, unknown>, root: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const num = (key: string): number | undefined => (typeof s[key] === "number" ? (s[key] as number) : undefined);
  switch (type) {
    case "string": {
      if (typeof s.format === "string") return fc.oneof(fc.constantFrom(...(FORMAT_SAMPLES[s.format] ?? ["x"])), fc.string());
      if (typeof s.pattern === "string") return fc.oneof(fc.stringMatching(new RegExp(s.pattern, "u"), { maxLength: 20 }), fc.string({ maxLength: 8 }));
      const min = num("minLength");
      const max = num("maxLength");
      return fc.string({ minLength: Math.max(0, (min ?? 0) - 1), maxLength: (max ?? 6) + 1, unit: fc.oneof(fc.constantFrom("a", "é"), fc.constant("😀")) });
    }
    case "number":
    case "integer": {
      const low = num("minimum") ?? num("exclusiveMinimum") ?? -100;
      const high = num("maximum") ?? num("exclusiveMaximum") ?? 100;
      const edges = [low, high, low - 1, high + 1, low + 0.5, 0, -0].filter((n) => Number.isFinite(n));
      const step = num("multipleOf");
      const multiples = step ? [step, step * 3, step * 2.5] : [];
      return fc.oneof(fc.integer({ min: Math.ceil(low) - 2, max: Math.floor(high) + 2 }), fc.constantFrom(...edges, ...multiples), fc.double({ noNaN: true, noDefaultInfinity: true, min: low - 1, max: high + 1 }));
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems.map((item) => shaped(item, root, depth + 1)) : [];
      const rest = s.items === undefined || s.items === false ? fc.jsonValue({ maxDepth: 1 }) : shaped(s.items, root, depth + 1);
      const min = Math.max(0, (num("minItems") ?? 0) - 1);
      const max = Math.min((num("maxItems") ?? 3) + 1, 6);
      const tail = fc.array(rest, { minLength: Math.max(0, min - prefix.length), maxLength: Math.max(0, max - prefix.length) });
      const items = fc.tuple(fc.tuple(...prefix), tail).map(([head, more]) => [...head, ...more]);
      // Duplicates, for uniqueItems: the same item twice.
      return fc.oneof(items, items.map((list) => (list.length > 0 ? [...list, structuredClone(list[0])] : list)));
    }
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const record = fc.record(Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, shaped(value, root, depth + 1)])), { requiredKeys: [] });
      const extra = s.additionalProperties === false || s.additionalProperties === undefined ? fc.jsonValue({ maxDepth: 0 }) : shaped(s.additionalProperties, root, depth + 1);
      const extras = fc.dictionary(fc.constantFrom("extra", "1", "2024", "x-y", "__proto__"), extra, { maxKeys: 2 });
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      // Required properties are usually there; sometimes one is missing.
      return fc.tuple(record, fc.boolean(), extras, fc.nat({ max: 9 })).map(([value, withExtras, more, drop]) => {
        const out: Record<string, unknown> = { ...value };
        for (const key of required) if (!(key in out) && key in properties && drop !== 0) out[key] = fc.sample(shaped(properties[key], root, depth + 1), { numRuns: 1, seed: drop })[0];
        if (withExtras) for (const [key, v] of Object.entries(more)) if (key !== "__proto__") out[key] = v;
        return out;
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/**
 * An invalid value's errors come from the kit's walk of the schema, which must find what the generated yes/no code
 * found: the kit's fallback error (`schemaPath` "#") means the two halves disagree.
 */
function explained(errors: readonly { schemaPath: string }[] | null): false {
  if (!errors || errors.length === 0 || errors.some((error) => error.schemaPath === "#")) throw new Error(`the kit found no error for a value the generated code refused: ${JSON.stringify(errors)}`);
  return false;
}

let agreed = { valid: 0, invalid: 0 };

for (const c of cases) {
  test(`${c.label}: the generated validator agrees with ajv`, () => {
    const reference = oracle.compile(c.schema);
    const disagree = (value: unknown): string | undefined => {
      const expected = reference(value);
      const actual = c.validate(value);
      if (expected) agreed.valid++;
      else agreed.invalid++;
      return expected === actual ? undefined : `ajv says ${expected ? "valid" : "invalid"}, generated says ${actual ? "valid" : "invalid"} for ${JSON.stringify(value)}\nschema: ${JSON.stringify(c.schema)}`;
    };
    for (const example of c.examples) {
      const problem = disagree(example);
      assert.is(problem, undefined, problem);
    }
    fc.assert(
      fc.property(fc.oneof({ weight: 6, arbitrary: shaped(c.schema, c.schema, 0) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }), (value) => {
        const problem = disagree(value);
        if (problem) throw new Error(problem);
      }),
      { numRuns: RUNS, seed: 42 },
    );
  });
}

test("the values covered both sides: many valid and many invalid ones", () => {
  assert.ok(agreed.valid > cases.length * 5, JSON.stringify(agreed));
  assert.ok(agreed.invalid > cases.length * 5, JSON.stringify(agreed));
  agreed = { valid: 0, invalid: 0 };
});

/** Nesting of arrays and objects, counted as the fast lane's walk counts it (the arguments object is level 1). */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let deepest = 0;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item));
  return deepest + 1;
}

/**
 * `value` changed in one place the fast lane's walk would flag: each object given a `__proto__` key of its own
 * (as JSON.parse makes one), each number made Infinity (as JSON.parse reads `1e400`).
 */
function hostileVariants(value: unknown): unknown[] {
  const variants: unknown[] = [];
  const visit = (node: unknown, replace: (copy: unknown) => unknown): void => {
    if (typeof node === "number") variants.push(replace(Infinity));
    if (typeof node !== "object" || node === null) return;
    if (!Array.isArray(node)) {
      const own = JSON.parse(JSON.stringify(node).replace(/^\{/, '{"__proto__":{"polluted":true},').replace(/,\}$/, "}")) as unknown;
      variants.push(replace(own));
    }
    for (const [key, child] of Object.entries(node)) {
      visit(child, (copy) => {
        const parent = structuredClone(node) as Record<string, unknown>;
        parent[key] = copy;
        return replace(parent);
      });
    }
  };
  visit(value, (copy) => copy);
  return variants;
}

const closedCounts = { closed: 0, open: 0, accepted: 0, hostile: 0 };

for (const c of cases) {
  const depth = closedDepth(c.schema);
  if (depth === undefined) {
    closedCounts.open++;
    continue;
  }
  closedCounts.closed++;
  test(`${c.label}: a closed schema's validator refuses what the fast lane's walk would flag`, () => {
    fc.assert(
      fc.property(shaped(c.schema, c.schema, 0), (value) => {
        if (!c.validate(value)) return;
        closedCounts.accepted++;
        assert.ok(depthOf(value) <= depth, `accepted ${JSON.stringify(value)}, deeper than ${depth}`);
        for (const variant of hostileVariants(value)) {
          closedCounts.hostile++;
          assert.not.ok(c.validate(variant), `accepted ${JSON.stringify(variant)} (own __proto__ or Infinity)\nschema: ${JSON.stringify(c.schema)}`);
        }
      }),
      { numRuns: RUNS, seed: 7 },
    );
  });
}

test("closed and open schemas were both met, and closed ones were tested with hostile values", () => {
  assert.ok(closedCounts.closed >= 50 && closedCounts.open >= 10, JSON.stringify(closedCounts));
  assert.ok(closedCounts.accepted > closedCounts.closed * 5 && closedCounts.hostile > closedCounts.closed * 5, JSON.stringify(closedCounts));
});

test.run();
