/**
 * The lenient reader of repair.ts (lenient-json.ts) against json5, which it replaced: on a generated corpus of
 * arguments texts (JSON written with every accepted slip, then cut, spliced and salted with stray characters),
 * `repairJson` must give the same answer with either reader behind its lexer: the same value (by SameValue, so
 * `-0` and `NaN` count), the same repairs, the same explanation word for word. Plus the reader's own bounds:
 * linear in the text, no recursion however deep the nesting.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fc from "fast-check";
import JSON5 from "json5";
import { isDeepStrictEqual } from "node:util";
import { parseLenient } from "../../runtime/arguments/repair/lenient-json";
import { repairJson } from "../../runtime/arguments/repair/repair-json";

const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** json5 as repair.ts used it: its errors ("JSON5: invalid character 'x' at 1:11") in the words sent to the model. */
function json5Reader(body: string): unknown {
  try {
    return JSON5.parse(body);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SyntaxError(
      message
        .replace(/^JSON5: /, "")
        .replace(/^invalid end of input/, "Unexpected end of the arguments (the JSON is incomplete)")
        .replace(/^invalid /, "Unexpected ")
        .replace(/ at (\d+):(\d+)$/, " at line $1 column $2"),
    );
  }
}

const KEYS = [
  "query",
  "limit",
  "a",
  "_x",
  "$y",
  "true",
  "None",
  "Infinity",
  "__proto__",
  "con fig",
  "it's",
  'say "hi"',
  "é",
  "😀",
];
const STRINGS = [
  "",
  "lamp",
  "it's",
  'a "b"',
  "back\\slash",
  "tab\tnew\nline",
  "\u2028",
  "😀x",
  "é",
  "/* not a comment */",
  "// nor this",
  "\u0000",
];
const NUMBERS = [0, -0, 1, -1, 7, 1.5, -2.25e-7, 1e21, 123456789012, 5e-324];

/** A JSON-like value, with the Python constants among its leaves. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<unknown>(null, true, false, "@True", "@False", "@None"),
    fc.constantFrom(...STRINGS),
    fc.constantFrom(...NUMBERS),
    fc.array(tie("node"), { maxLength: 4 }),
    fc.array(fc.tuple(fc.constantFrom(...KEYS), tie("node")), { maxLength: 4 }).map((entries) => ({ entries })),
  ),
})).node;

interface Style {
  single: boolean;
  unquoted: boolean;
  trailing: boolean;
  comment: number;
  space: string;
}

/** `v` written as a model might: each slip at the style's choice, comments and odd white space between tokens. */
function write(v: unknown, style: Style, pick: () => number): string {
  const gap = (): string => {
    const r = pick();
    if (r < style.comment / 2) return ["// note\n", "/* c */", "// end\r", "/**/", "// x\r\n"][Math.floor(pick() * 5)]!;
    return r < 0.6 ? "" : style.space;
  };
  const str = (s: string): string =>
    style.single && pick() < 0.7
      ? `'${JSON.stringify(s)
          .slice(1, -1)
          .replace(/'/g, "\\'")
          .replace(/\\"/g, pick() < 0.5 ? '"' : '\\"')}'`
      : JSON.stringify(s);
  if (typeof v === "string") return v.startsWith("@") ? v.slice(1) : str(v);
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : JSON.stringify(v);
  if (v === null || typeof v === "boolean") return String(v);
  const items: string[] = [];
  if (Array.isArray(v)) {
    for (const item of v) items.push(gap() + write(item, style, pick) + gap());
    return `[${items.join(",")}${style.trailing && items.length > 0 && pick() < 0.5 ? "," : ""}]`;
  }
  for (const [key, item] of (v as { entries: [string, unknown][] }).entries) {
    const bare = style.unquoted && /^[A-Za-z_$][\w$]*$/.test(key) && pick() < 0.7;
    items.push(`${gap()}${bare ? key : str(key)}${gap()}:${gap()}${write(item, style, pick)}${gap()}`);
  }
  return `{${items.join(",")}${style.trailing && items.length > 0 && pick() < 0.5 ? "," : ""}}`;
}

/** Damage done to a text: cut it, drop or double a character, or put a stray one in. */
const STRAYS = [
  "{",
  "}",
  "[",
  "]",
  ":",
  ",",
  "'",
  '"',
  "/",
  "*",
  " ",
  "\n",
  "\r",
  "a",
  "t",
  "N",
  "I",
  "1",
  "-",
  "\\",
  "True",
];

function damage(text: string, kind: number, at: number, stray: number): string {
  const i = Math.floor(at * (text.length + 1));
  switch (kind) {
    case 0:
      return text;
    case 1:
      return text.slice(0, i);
    case 2:
      return text.slice(0, i) + text.slice(i + 1);
    case 3:
      return text.slice(0, i) + text[i] + text.slice(i);
    default:
      return text.slice(0, i) + STRAYS[stray % STRAYS.length] + text.slice(i);
  }
}

const corpus = fc
  .record({
    v: value,
    style: fc.record({
      single: fc.boolean(),
      unquoted: fc.boolean(),
      trailing: fc.boolean(),
      comment: fc.constantFrom(0, 0.3),
      space: fc.constantFrom(" ", "\n  ", "\r\n", "\t"),
    }),
    seed: fc.integer(),
    damages: fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat()), {
      maxLength: 2,
    }),
  })
  .map(({ v, style, seed, damages }) => {
    let state = seed | 0;
    const pick = (): number => ((state = (Math.imul(state, 1103515245) + 12345) | 0) >>> 0) / 2 ** 32;
    let text = write(v, style, pick);
    for (const [kind, at, stray] of damages) text = damage(text, kind, at, stray);
    return text;
  });

test("repairJson answers the same with lenient-json.ts as with json5, on a generated corpus", () => {
  let read = 0;
  let explained = 0;
  // json5 warns on the console about a raw U+2028 in a string (which it reads all the same).
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    fc.assert(
      fc.property(corpus, (text) => {
        const ours = repairJson(text, "strict error", 64);
        const theirs = repairJson(text, "strict error", 64, json5Reader);
        if (!isDeepStrictEqual(ours, theirs)) {
          throw new Error(
            `differs on ${JSON.stringify(text)}:\nlenient-json: ${show(ours)}\njson5:        ${show(theirs)}`,
          );
        }
        if (ours.ok) read++;
        else if (ours.problem === "json" && / at line \d+ column \d+$/.test(ours.detail)) explained++;
      }),
      { numRuns: 6000, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  } finally {
    console.warn = warn;
  }
  // The corpus reaches both sides of the reader: texts it reads, and texts it explains.
  assert.ok(read > 1000, `only ${read} texts were read`);
  assert.ok(explained > 300, `only ${explained} texts were explained by the reader`);
});

function show(result: unknown): string {
  return JSON.stringify(result, (_, v: unknown) =>
    typeof v === "number" && !Number.isFinite(v) ? String(v) : Object.is(v, -0) ? "-0" : v,
  );
}

test("the reader's own cases: values as JSON.parse makes them, explanations with line and column", () => {
  assert.equal(parseLenient("{a: 'x', 'b': [1, -0.5e1,], /* c */ c: null,}"), { a: "x", b: [1, -5], c: null });
  const proto = parseLenient("{'__proto__': {x: 1}}") as Record<string, unknown>;
  assert.is(Object.getPrototypeOf(proto), Object.prototype);
  assert.equal(Object.keys(proto), ["__proto__"]);
  assert.equal(parseLenient("{a: 1, a: 2}"), { a: 2 });
  assert.is(parseLenient("'\\u00e9\\'\\n'"), "é'\n");
  assert.throws(
    () => parseLenient("{a: 1\n  b: 2}"),
    (e: Error) => e.message === "Unexpected character 'b' at line 2 column 3",
  );
  assert.throws(
    () => parseLenient("{a: 'lamp', limit: 5"),
    (e: Error) => e.message === "Unexpected end of the arguments (the JSON is incomplete) at line 1 column 21",
  );
  assert.throws(
    () => parseLenient("{a: t\n: 1}"),
    (e: Error) => e.message === "Unexpected character '\\n' at line 2 column 0",
  );
  assert.throws(
    () => parseLenient("[1,,]"),
    (e: Error) => e.message === "Unexpected character ',' at line 1 column 4",
  );
});

test("the reader is linear and iterative: deep nesting and long texts of slips", () => {
  const depth = 200_000;
  const deep = parseLenient(`${"[".repeat(depth)}${"]".repeat(depth)}`);
  assert.ok(Array.isArray(deep));
  // 1 MiB of Python constants and unquoted keys, repaired in one pass: a quadratic repair would not finish, and the
  // runner stops a hang.
  const many = `{k: [${"None, True, ".repeat(87_000)}False]}`;
  const repaired = repairJson(many, "strict error", 64);
  assert.ok(repaired.ok && (repaired.value as { k: unknown[] }).k.length === 174_001);
});

test.run();
