/**
 * The generated validators against ajv, the oracle: for every tool (and structured output) of the type corpus
 * (test/fixtures/conformance), compiled as one program, both must accept and reject exactly the same values.
 *
 * Values come from fast-check, guided by each schema so that most are valid or nearly so (a missing property, a
 * bound crossed by one, a wrong type in one place), plus arbitrary JSON and the fixture's own `valid` / `invalid`
 * lists. The count is bounded (RUNS per schema); a failure prints the schema, the value and both verdicts.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import type { JsonSchema, RegisteredTool } from "tooltype";
import { closedDepth } from "../../../runtime/arguments/read/closed-schema";
import { instantiateValidator } from "../../../runtime/validation/compiled-validator";
import { kitErrors } from "../../../runtime/validation/kit-explain";
import { corpusRegistries } from "../../support/corpus";
import { shaped } from "../../support/shaped-values";

const RUNS = 60;

const oracle = new Ajv2020({ strict: false, allErrors: false, logger: false });
addFormats(oracle);

interface Case {
  label: string;
  schema: JsonSchema;
  validate: (value: unknown) => boolean;
  examples: unknown[];
}

function collect(): { cases: Case[]; withoutValidator: string[] } {
  const cases: Case[] = [];
  const withoutValidator: string[] = [];
  for (const { name, module, registry, failedBuild } of corpusRegistries().entries) {
    const examples = [...((module.valid as unknown[]) ?? []), ...((module.invalid as unknown[]) ?? [])];
    for (const tool of registry.list() as RegisteredTool[]) {
      const label = `${name} ${tool.name}`;
      // A tool with build errors gets no validator by design (the build fails anyway).
      if (!tool.meta.validator) {
        if (!failedBuild) withoutValidator.push(label);
        continue;
      }
      const validate = instantiateValidator(tool.meta.validator, tool.parameters);
      cases.push({
        label,
        schema: tool.parameters,
        validate: (value) => validate(value) || explained(kitErrors(validate, value)),
        examples,
      });
    }
  }
  return { cases, withoutValidator };
}

const { cases, withoutValidator } = collect();

test("every tool of the corpus without build errors gets a generated validator", () => {
  assert.ok(cases.length >= 100, `only ${cases.length} tools`);
  assert.equal(withoutValidator, []);
});

/**
 * An invalid value's errors come from the kit's walk of the schema, which must find what the generated yes/no code
 * found: the kit's fallback error (`schemaPath` "#") means the two halves disagree.
 */
function explained(errors: readonly { schemaPath: string }[] | null): false {
  if (!errors || errors.length === 0 || errors.some((error) => error.schemaPath === "#"))
    throw new Error(`the kit found no error for a value the generated code refused: ${JSON.stringify(errors)}`);
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
      return expected === actual
        ? undefined
        : `ajv says ${expected ? "valid" : "invalid"}, generated says ${actual ? "valid" : "invalid"} for ${JSON.stringify(value)}\nschema: ${JSON.stringify(c.schema)}`;
    };
    for (const example of c.examples) {
      const problem = disagree(example);
      assert.is(problem, undefined, problem);
    }
    fc.assert(
      fc.property(
        fc.oneof(
          { weight: 6, arbitrary: shaped(c.schema, c.schema, 0) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
        ),
        (value) => {
          const problem = disagree(value);
          if (problem) throw new Error(problem);
        },
      ),
      { numRuns: RUNS, seed: 42 },
    );
  });
}

test("the values covered both sides: many valid and many invalid ones", () => {
  assert.ok(agreed.valid > cases.length * 5, JSON.stringify(agreed));
  assert.ok(agreed.invalid > cases.length * 5, JSON.stringify(agreed));
  agreed = { valid: 0, invalid: 0 };
});

/** Nesting of arrays and objects, counted as the walk of dispatch's first stages counts it (the arguments object is level 1). */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let deepest = 0;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item));
  return deepest + 1;
}

/**
 * `value` changed in one place the walk of dispatch's first stages would flag: each object given a `__proto__` key of
 * its own
 * (as JSON.parse makes one), each number made Infinity (as JSON.parse reads `1e400`).
 */
function hostileVariants(value: unknown): unknown[] {
  const variants: unknown[] = [];
  const visit = (node: unknown, replace: (copy: unknown) => unknown): void => {
    if (typeof node === "number") variants.push(replace(Infinity));
    if (typeof node !== "object" || node === null) return;
    if (!Array.isArray(node)) {
      const own = JSON.parse(
        JSON.stringify(node).replace(/^\{/, '{"__proto__":{"polluted":true},').replace(/,\}$/, "}"),
      ) as unknown;
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
  test(`${c.label}: a closed schema's validator refuses what the first stages' walk would flag`, () => {
    fc.assert(
      fc.property(shaped(c.schema, c.schema, 0), (value) => {
        if (!c.validate(value)) return;
        closedCounts.accepted++;
        assert.ok(depthOf(value) <= depth, `accepted ${JSON.stringify(value)}, deeper than ${depth}`);
        for (const variant of hostileVariants(value)) {
          closedCounts.hostile++;
          assert.not.ok(
            c.validate(variant),
            `accepted ${JSON.stringify(variant)} (own __proto__ or Infinity)\nschema: ${JSON.stringify(c.schema)}`,
          );
        }
      }),
      { numRuns: RUNS, seed: 7 },
    );
  });
}

test("closed and open schemas were both met, and closed ones were tested with hostile values", () => {
  assert.ok(closedCounts.closed >= 50 && closedCounts.open >= 10, JSON.stringify(closedCounts));
  assert.ok(
    closedCounts.accepted > closedCounts.closed * 5 && closedCounts.hostile > closedCounts.closed * 5,
    JSON.stringify(closedCounts),
  );
});

test.run();
