/**
 * A compiled tool's pattern is matched with no re2js when tooltype's automaton holds it whole (`complete()`: every
 * state made within its bounds, which the build asks at compile time and the pattern guard again at run time). Such
 * an automaton must then answer every string, and answer it as JavaScript's engine does; and the build must send a
 * pattern the automaton cannot hold to the engine (`enginePattern`), never to a backtracking `RegExp`.
 */
import fc from "fast-check";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { patternDfa } from "../../runtime/validation/patterns/pattern-dfa";
import { GuardedPattern } from "../../runtime/validation/patterns/pattern-guard";
import { StepBudget } from "../../runtime/validation/patterns/step-budget";
import { generateValidator } from "../../transformer/validator/generate";
import { patternJudge } from "../../transformer/validator/patterns";

const leaf = fc.constantFrom("a", "b", ".", "\\d", "\\w", "\\s", "\\S", "[ab]", "[^a]", "[a-c]", "😀", "\\n", "^", "$");
const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{0,3}", "{1,}");
const pattern = fc
  .array(fc.tuple(leaf, quantifier), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.map(([n, q]) => (n === "^" || n === "$" ? n : n + q)).join(""));
const text = fc
  .array(fc.constantFrom("a", "b", "c", "1", " ", "\n", "\u00a0", "😀", "\uD83D", "_"), { maxLength: 12 })
  .map((chars) => chars.join(""));

test("a completed automaton answers every string, as JavaScript's engine does", () => {
  let completed = 0;
  fc.assert(
    fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 8 }), (source, strings) => {
      let js: RegExp;
      try {
        js = new RegExp(source, "u");
      } catch {
        return;
      }
      const dfa = patternDfa(source);
      if (!dfa?.complete()) return;
      completed++;
      for (const s of strings) assert.is(dfa.test(s), js.test(s), `/${source}/u on ${JSON.stringify(s)}`);
    }),
    { numRuns: 1500, seed: 47 },
  );
  assert.ok(completed > 1000, `only ${completed} patterns completed`);
});

test("the patterns schemas use are held whole; what the automaton cannot read or hold is not", () => {
  for (const source of [
    "^[A-Z]{2}-[0-9]{1,6}$",
    "^\\d{5}(-\\d{4})?$",
    "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$",
    "^#[0-9a-fA-F]{6}$",
    "^\\S+$",
    "[a-z]",
  ]) {
    assert.ok(patternDfa(source)?.complete(), `/${source}/ is not held whole`);
  }
  // \b and lookaround are not read; a long counted run past an unanchored start needs more states than the table holds.
  for (const source of ["^ok\\b", "^(?=a)a+$"]) assert.is(patternDfa(source), undefined, source);
  assert.not.ok(patternDfa("a.{40}b")!.complete(), "a.{40}b held whole");
});

test("the pattern guard matches a held pattern with the automaton and an unheld one with RE2's, each in linear time", () => {
  const held = new GuardedPattern("^(a|aa)+$", new StepBudget());
  assert.is(held.risk.kind, "linear");
  assert.is(held.test(`${"a".repeat(200_000)}!`), false);
  const unheld = new GuardedPattern("a.{40}b", new StepBudget());
  assert.is(unheld.risk.kind, "linear");
  assert.is(unheld.test(`a${"x".repeat(40)}b`), true);
  assert.is(unheld.test("a".repeat(100_000)), false);
});

test("the build emits pattern() for a pattern its automaton holds and enginePattern() for any other", () => {
  const code = generateValidator(
    {
      type: "object",
      properties: {
        code: { type: "string", pattern: "^[A-Z]{2}-[0-9]+$" },
        word: { type: "string", pattern: "^ok\\b" },
        far: { type: "string", pattern: "a.{40}b" },
      },
    },
    patternJudge([]),
  )!;
  assert.match(code, /\.pattern\("\^\[A-Z\]\{2\}-\[0-9\]\+\$"/);
  assert.match(code, /\.enginePattern\("\^ok\\\\b"\)/);
  assert.match(code, /\.enginePattern\("a\.\{40\}b"\)/);
});

test.run();
