/**
 * Patterns meet untrusted strings only through a matcher that cannot backtrack (hostile input, round two, items 3
 * and 4): shapes that an analysis of the pattern's syntax passed as linear (`^(a?a?)+$`, `^(?:[ab]?b?){16}$`) took
 * 12 s on 20 characters and 76 s on 22; coercion's union test ran raw `RegExp`s. Each case here sends strings of a
 * length that JavaScript's engine would not finish in hours, so a return of the old behaviour is a hang, which the
 * runner's process limit reports; no wall-clock bound is asserted.
 *
 * The matcher's dialect is checked against JavaScript's own by a property test: patterns from a grammar of the
 * constructs the translation touches, strings from a small alphabet that includes the characters whose meaning
 * differs between the two (Unicode spaces, line ends).
 */
import fc from "fast-check";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type CompiledToolMeta, type JsonSchema, ToolRegistry, tool } from "tooltype";
import { linearMatcher } from "../../runtime/arguments/linear-pattern";
import { fitsSchema } from "../../runtime/arguments/schema-fit";
import { compileFixture } from "../support/compile";

function chat(name: string, args: unknown): object {
  return { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name, arguments: JSON.stringify(args) } }] };
}

function handWritten(name: string, parameters: JsonSchema): ReturnType<typeof tool> {
  const meta: CompiledToolMeta = { v: 1, name, description: "A schema given at run time, validated by ajv.", parameters, params: ["value"] };
  return tool((value: unknown) => `got ${JSON.stringify(value).length} chars`, undefined, meta);
}

const BACKTRACKERS = ["^(a?a?)+$", "^(?:[ab]?b?){16}$", "^(a+)+$", "^\\d*\\d*\\d*x$"];

test("the shapes that passed as linear are matched in linear time: by ajv for run-time schemas, at 100,000 characters", async () => {
  for (const pattern of BACKTRACKERS) {
    const registry = new ToolRegistry([handWritten("t", { type: "object", properties: { value: { type: "string", pattern } }, required: ["value"] })]);
    const [answer] = await registry.dispatch(chat("t", { value: `${"a".repeat(100_000)}!` }));
    assert.is(answer!.status, "error", pattern);
    assert.match(answer!.content, /\/value: must match the pattern/, pattern);
  }
});

test("the same shapes in a compiled tool's generated validator", async () => {
  const built = compileFixture(`
import { tool, ToolRegistry, type Pattern } from "tooltype";
/**
 * Check a code.
 * @param code The code
 */
export const check = tool(function check(code: string & Pattern<"^(?:[ab]?b?){16}$">) { return "ok " + code.length; });
/**
 * Tag a thing.
 * @param tag A tag
 */
export const tag = tool(function tag(tag: (string & Pattern<"^\\\\d*\\\\d*\\\\d*x$">) | boolean) { return "tagged"; });
export const registry = new ToolRegistry([check, tag]);
`);
  const registry = built.load<{ registry: ToolRegistry }>().registry;
  const [bad] = await registry.dispatch(chat("check", { code: `${"b".repeat(100_000)}c` }));
  assert.is(bad!.status, "error");
  assert.match(bad!.content, /\/code: must match the pattern/);
  const [good] = await registry.dispatch(chat("check", { code: "abab" }));
  assert.is(good!.status, "success", good!.content);
  // Inside a union: validation fails, then coercion asks each branch whether a converted value fits it.
  const [digits] = await registry.dispatch(chat("tag", { tag: "1".repeat(200_000) }));
  assert.is(digits!.status, "error");
  const [fits] = await registry.dispatch(chat("tag", { tag: `${"1".repeat(200_000)}x` }));
  assert.is(fits!.status, "success", fits!.content);
});

test("coercion's union test goes through the guarded matcher: anyOf with ^(a+)+$", async () => {
  const schema: JsonSchema = { anyOf: [{ type: "string", pattern: "^(a+)+$" }, { type: "integer" }] };
  const registry = new ToolRegistry([handWritten("u", { type: "object", properties: { value: schema }, required: ["value"] })]);
  const [answer] = await registry.dispatch(chat("u", { value: `${"a".repeat(100_000)}!` }));
  assert.is(answer!.status, "error");
  assert.is(fitsSchema(`${"a".repeat(100_000)}!`, schema, schema), false);
  assert.is(fitsSchema("a".repeat(100_000), schema, schema), true);
});

test("a pattern RE2 cannot express (lookahead, backreference) has no linear matcher and is budgeted instead", async () => {
  for (const pattern of ["^(?=a)(a+)+$", "^(a)\\1$", "^[\\S]$", "(?<=a)b"]) assert.is(linearMatcher(pattern), undefined, pattern);
  const registry = new ToolRegistry([handWritten("t", { type: "object", properties: { value: { type: "string", pattern: "^(?=a)(a+)+$" } }, required: ["value"] })]);
  const [short] = await registry.dispatch(chat("t", { value: "aaaa" }));
  assert.is(short!.status, "success", short!.content);
  const [long] = await registry.dispatch(chat("t", { value: `${"a".repeat(5_000)}!` }));
  assert.match(long!.content, /\/value: is too long to be checked against the pattern \/\^\(\?=a\)\(a\+\)\+\$\//);
});

test("an invalid pattern still fails as it did: no matcher, and the validator reports it", () => {
  assert.is(linearMatcher("(unclosed"), undefined);
  assert.is(linearMatcher("\\p{NoSuchProperty}"), undefined);
});

/** Pattern pieces over the constructs whose meaning the translation keeps: classes, escapes, `.`, quantifiers. */
const atom = fc.constantFrom("a", "b", ".", "\\s", "\\S", "\\d", "\\w", "\\b", "[ab]", "[^a]", "[\\s]", "[^\\s]", "[]", "[^]", "\\u00a0", "\\n", "[a-c\\d]", "(?:a|b)", "\\.");
const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{0,2}", "*?");
const piece = fc.tuple(atom, quantifier).map(([a, q]) => (a === "\\b" ? a : a + q));
const patternText = fc.tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 5 }), fc.boolean()).map(([start, pieces, end]) => `${start ? "^" : ""}${pieces.join("")}${end ? "$" : ""}`);
const text = fc.array(fc.constantFrom("a", "b", "c", "1", " ", "\t", "\n", "\r", "\u00a0", "\u2028", "\u3000", "\ufeff", ".", "😀", "_"), { maxLength: 8 }).map((chars) => chars.join(""));

test("the matcher answers as JavaScript's engine does (property test over the translated constructs)", () => {
  let compared = 0;
  fc.assert(
    fc.property(patternText, fc.array(text, { minLength: 1, maxLength: 6 }), (source, strings) => {
      const matcher = linearMatcher(source);
      // `[^\s]` and friends translate; only `\S` inside a class has no matcher (checked above).
      if (matcher === undefined) return;
      const js = new RegExp(source, "u");
      for (const s of strings) {
        compared++;
        assert.is(matcher.test(s), js.test(s), `/${source}/u on ${JSON.stringify(s)}`);
      }
    }),
    { numRuns: 1500, seed: 36 },
  );
  assert.ok(compared > 1500, `${compared} comparisons`);
});

test.run();
