/**
 * Validation has a CPU bound (issue 12, findings 1 to 3): calls under the size limits that used to block the
 * process for seconds are read and validated in linear time, on both paths: the validators the transformer
 * generates, and ajv for schemas given at run time (here: the same schemas, registered without a validator).
 *
 * The cost is counted, not timed, so that a loaded machine cannot fail these tests and a fast one cannot hide a
 * regression: the operations a check does on the arguments (each property read, key listing and descriptor asked of
 * them, through Proxies) grow in step with their size; JavaScript's backtracking engine never runs a pattern that
 * a linear matcher answers; a big call is parsed once, not once per item. The inputs that once took seconds or hours
 * (20.6 s, 1.2 s doubling per character, 0.83 s and +270 MB per call) still go through dispatch, where a regression
 * is a hang the runner's process limit reports.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type CompiledToolMeta,
  type JsonSchema,
  type RegisteredTool,
  type ToolMessage,
  ToolRegistry,
  tool,
} from "tooltype";
import { instantiateValidator } from "../../../runtime/validation/compiled-validator";
import { generateValidator } from "../../../transformer/validator/generate";
import * as kit from "tooltype/kit";
import { ArgumentsValidator } from "../../../runtime/validation/validate";
import { compileFixture } from "../../support/compile";
import { parsedDuring } from "../../support/parse-watch";

const source = `
import { tool, ToolRegistry, type UniqueItems, type Pattern } from "tooltype";
interface Pt { x: number; y: number }
/**
 * Count distinct points.
 * @param pts The points
 */
export const uniq = tool(function uniq(pts: Pt[] & UniqueItems) { return String(pts.length); });
/**
 * Tag something.
 * @param tag A tag
 */
export const cubic = tool(function cubic(tag: string & Pattern<"^a*a*a*b$">) { return tag.length + " chars"; });
/**
 * Take names.
 * @param names The names
 */
export const names = tool(function names(names: string[]) { return String(names.length); });
export const registry = new ToolRegistry([uniq, cubic, names]);
`;

const fixture = compileFixture(source);
const compiled = fixture.load<{ registry: ToolRegistry }>().registry;

/** The same tools with the same schemas but no generated validator: validated by ajv at run time. */
function runtimeTwin(registry: ToolRegistry, extra: CompiledToolMeta[] = []): ToolRegistry {
  const metas = [...registry.list().map((t: RegisteredTool) => ({ ...t.meta, validator: undefined })), ...extra];
  return new ToolRegistry(
    metas.map((meta) => tool((...args: unknown[]) => `${JSON.stringify(args).length} chars`, undefined, meta)),
  );
}
const runtime = runtimeTwin(compiled, [
  {
    v: 1,
    name: "expo",
    description: "A hand-written schema with an exponential pattern",
    parameters: {
      type: "object",
      properties: { code: { type: "string", pattern: "^(a+)+$" } },
      required: ["code"],
      additionalProperties: false,
    },
    params: ["code"],
  },
]);
const paths: [string, ToolRegistry][] = [
  ["generated", compiled],
  ["ajv at run time", runtime],
];

/** Dispatches one OpenAI-style message with `calls` (arguments as JSON text); answers and the heap it took. */
async function dispatched(
  registry: ToolRegistry,
  calls: [name: string, args: string][],
): Promise<{ answers: ToolMessage[]; heapMb: number }> {
  const message = {
    role: "assistant" as const,
    content: null,
    tool_calls: calls.map(([name, args], i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name, arguments: args },
    })),
  };
  global.gc?.();
  const heap = process.memoryUsage().heapUsed;
  let peak = heap;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const answers = await registry.dispatch(message);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { answers, heapMb: (peak - heap) / 2 ** 20 };
}

/**
 * `value` behind Proxies, each of its objects and arrays: `tally.ops` counts every operation a check does on them
 * (property reads, `in`, key listings, descriptors, prototypes).
 */
function counted<T>(value: T, tally: { ops: number }): T {
  if (typeof value !== "object" || value === null) return value;
  const inner = (
    Array.isArray(value)
      ? value.map((item) => counted(item, tally))
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, counted(v, tally)]))
  ) as object;
  const count =
    <A extends unknown[], R>(trap: (...args: A) => R) =>
    (...args: A): R => {
      tally.ops++;
      return trap(...args);
    };
  return new Proxy(inner, {
    get: count(Reflect.get),
    has: count(Reflect.has),
    ownKeys: count(Reflect.ownKeys),
    getOwnPropertyDescriptor: count(Reflect.getOwnPropertyDescriptor),
    getPrototypeOf: count(Reflect.getPrototypeOf),
  }) as T;
}

/** Operations `check` does on `args` (see `counted`), and its verdict. */
function operations(check: (args: unknown) => boolean, args: unknown): { ops: number; valid: boolean } {
  const tally = { ops: 0 };
  const valid = check(counted(args, tally));
  return { ops: tally.ops, valid };
}

/** The checks of `registry`'s tool `name` on both paths: its generated validator, and ajv on the same schema. */
function checks(name: string): [label: string, check: (args: unknown) => boolean][] {
  const meta = compiled.list().find((t: RegisteredTool) => t.name === name)!.meta;
  const generated = instantiateValidator(meta.validator!, meta.parameters);
  const ajv = new ArgumentsValidator(meta.parameters as JsonSchema);
  return [
    ["generated", (args) => generated(args)],
    ["ajv at run time", (args) => ajv.valid(args)],
  ];
}

/** Runs of JavaScript's own regular expression engine while `body` runs: each pattern's source and input length. */
async function regexRuns(body: () => Promise<void>): Promise<{ source: string; length: number }[]> {
  const runs: { source: string; length: number }[] = [];
  // exec is what test, match, matchAll, replace, search and split all call: watching it sees every run.
  const exec = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    runs.push({ source: this.source, length: String(text).length });
    return exec.call(this, text);
  };
  try {
    await body();
  } finally {
    RegExp.prototype.exec = exec;
  }
  return runs;
}

/** Calls of JSON.parse while `body` runs, with the length of each text. */
async function parses(body: () => Promise<void>): Promise<number[]> {
  return (await parsedDuring(body)).map((text) => text.length);
}

const points = (n: number) => Array.from({ length: n }, (_, i) => ({ x: i, y: i % 7 }));

for (const [label, check] of checks("uniq")) {
  test(`${label}: UniqueItems does a constant number of operations per item (the pairwise comparison it replaced: n²/2)`, () => {
    const small = operations(check, { pts: points(2_000) });
    const large = operations(check, { pts: points(4_000) });
    assert.ok(small.valid && large.valid);
    assert.ok(large.ops <= 2.1 * small.ops, `${small.ops} operations for 2,000 items, ${large.ops} for 4,000`);
    // About 21 per item (ajv's own reads of each point and uniqueItems' numbering): a constant, not a count of pairs.
    assert.ok(large.ops < 25 * 4_000, `${large.ops} operations for 4,000 items`);
    // A duplicate, with keys in another order, is found at the same cost.
    const duplicated = operations(check, { pts: [...points(4_000), { y: 3, x: 3 }] });
    assert.is(duplicated.valid, false);
    assert.ok(
      duplicated.ops <= 1.1 * large.ops,
      `${duplicated.ops} operations with the duplicate, ${large.ops} without`,
    );
  });
}

for (const [label, registry] of paths) {
  test(`${label}: UniqueItems on 20,000 objects (a valid 341 KB call) is checked, and a duplicate named`, async () => {
    const text = JSON.stringify({ pts: points(20_000) });
    assert.ok(text.length > 300_000 && text.length < 2 ** 20, `${text.length} bytes`);
    const { answers } = await dispatched(registry, [["uniq", text]]);
    assert.is(answers[0]!.status, "success", answers[0]!.content);
    // The duplicate is found and named, with keys in another order still equal.
    const duplicated = JSON.stringify({ pts: [...points(20_000), { y: 3, x: 3 }] });
    const bad = await dispatched(registry, [["uniq", duplicated]]);
    assert.is(bad.answers[0]!.status, "error");
    assert.match(bad.answers[0]!.content, /\/pts: must not contain duplicates \(items 3 and 20000 are equal\)/);
  });

  test(`${label}: a pattern JavaScript backtracks on cubically is never run by its engine on a long text, at any length`, async () => {
    const ok = await dispatched(registry, [["cubic", JSON.stringify({ tag: "aaab" })]]);
    assert.is(ok.answers[0]!.status, "success", ok.answers[0]!.content);
    const miss = await dispatched(registry, [["cubic", JSON.stringify({ tag: "aaa" })]]);
    assert.match(miss.answers[0]!.content, /\/tag: must match the pattern \/\^a\*a\*a\*b\$\/; got "aaa"/);
    // 100,000 `a`s and no `b`: hours of CPU for JavaScript's backtracking engine; the linear matcher answers it
    // (test/validation/linear-patterns.test.ts checks that it answers as the engine does).
    let long: ToolMessage | undefined;
    let valid: ToolMessage | undefined;
    const runs = await regexRuns(async () => {
      [long] = (await dispatched(registry, [["cubic", JSON.stringify({ tag: "a".repeat(100_000) })]])).answers;
      [valid] = (await dispatched(registry, [["cubic", JSON.stringify({ tag: `${"a".repeat(100_000)}b` })]])).answers;
    });
    assert.is(long!.status, "error");
    assert.match(long!.content, /\/tag: must match the pattern \/\^a\*a\*a\*b\$\//);
    assert.is(valid!.status, "success", valid!.content);
    assert.equal(
      runs.filter((run) => run.source.includes("a*a*a*b") && run.length >= 100_000),
      [],
      "the engine ran the pattern on the long text",
    );
  });

  test(`${label}: 1 MiB of numbers for a string[] is parsed once and answered in a few lines with little heap, also ten such calls in one message`, async () => {
    const numbers = `{"names":[${Array.from({ length: 500_000 }, (_, i) => i % 10).join(",")}]}`;
    assert.ok(numbers.length > 900_000 && numbers.length < 2 ** 20, `${numbers.length} bytes`);
    let one: Awaited<ReturnType<typeof dispatched>> | undefined;
    const oneParses = await parses(async () => void (one = await dispatched(registry, [["names", numbers]])));
    assert.is(one!.answers[0]!.status, "error");
    const content = one!.answers[0]!.content;
    assert.match(content, /\/names\/0: must be a string; got 0/);
    assert.ok(content.split("\n").length <= 34, content);
    assert.ok(one!.heapMb < 120, `${one!.heapMb.toFixed(0)} MB more heap (was 270 MB)`);
    let ten: Awaited<ReturnType<typeof dispatched>> | undefined;
    const tenParses = await parses(
      async () =>
        void (ten = await dispatched(
          registry,
          Array.from({ length: 10 }, () => ["names", numbers] as [string, string]),
        )),
    );
    assert.ok(ten!.answers.every((answer) => answer.status === "error"));
    assert.ok(ten!.heapMb < 600, `${ten!.heapMb.toFixed(0)} MB more heap (was 1.3 GB)`);
    // Each call's text is parsed once, where the one pipeline reads it (issue 32): never per item, never again later.
    const big = (lengths: number[]) => lengths.filter((length) => length >= numbers.length).length;
    assert.is(big(oneParses), 1, `${big(oneParses)} parses of the 1 MiB text`);
    assert.is(big(tenParses), 10 * big(oneParses));
    assert.ok(oneParses.length < 100, `${oneParses.length} JSON.parse calls for one call`);
  });
}

test("ajv at run time: an exponential pattern from a hand-written schema is never run by JavaScript's engine on a long text; one RE2 cannot express is refused past its budget", async () => {
  const short = await dispatched(runtime, [["expo", JSON.stringify({ code: "aaaaaaaaaa" })]]);
  assert.is(short.answers[0]!.status, "success", short.answers[0]!.content);
  let attack: ToolMessage | undefined;
  const attackRuns = await regexRuns(
    async () =>
      void ([attack] = (
        await dispatched(runtime, [["expo", JSON.stringify({ code: `${"a".repeat(100_000)}!` })]])
      ).answers),
  );
  assert.is(attack!.status, "error");
  assert.match(attack!.content, /\/code: must match the pattern \/\^\(a\+\)\+\$\//);
  // Was 1.2 s, doubling per character.
  assert.equal(
    attackRuns.filter((run) => run.source === "^(a+)+$" && run.length > 1_000),
    [],
    "the engine ran the pattern on the long text",
  );
  // A lookahead has no linear-time matcher: JavaScript's engine tests it, within the budget.
  const lookahead = {
    type: "object",
    properties: { code: { type: "string", pattern: "^(?=a)(a+)+$" } },
    required: ["code"],
  };
  const guarded = new ToolRegistry([
    tool((code: unknown) => String(code), undefined, {
      v: 1,
      name: "ahead",
      description: "d",
      parameters: lookahead,
      params: ["code"],
    }),
  ]);
  let refused: ToolMessage | undefined;
  const refusedRuns = await regexRuns(
    async () =>
      void ([refused] = (
        await dispatched(guarded, [["ahead", JSON.stringify({ code: `${"a".repeat(28)}!` })]])
      ).answers),
  );
  assert.match(refused!.content, /\/code: is too long to be checked against the pattern \/\^\(\?=a\)\(a\+\)\+\$\//);
  assert.equal(
    refusedRuns.filter((run) => run.source === "^(?=a)(a+)+$" && run.length >= 29),
    [],
    "a text past the budget is not run",
  );
  // Many short attack strings share one budget per call: once it is spent, the rest are refused unrun.
  const schema = {
    type: "object",
    properties: { codes: { type: "array", items: { type: "string", pattern: "^(?=a)(a+)+$" } } },
    required: ["codes"],
  };
  const many = new ToolRegistry([
    tool((codes: unknown) => String(codes), undefined, {
      v: 1,
      name: "many",
      description: "d",
      parameters: schema,
      params: ["codes"],
    }),
  ]);
  let flood: ToolMessage | undefined;
  const floodRuns = await regexRuns(
    async () =>
      void ([flood] = (
        await dispatched(many, [
          ["many", JSON.stringify({ codes: Array.from({ length: 5000 }, () => `${"a".repeat(18)}!`) })],
        ])
      ).answers),
  );
  assert.is(flood!.status, "error");
  const ran = floodRuns.filter((run) => run.source === "^(?=a)(a+)+$").length;
  assert.ok(ran > 0 && ran < 5000, `the engine ran the pattern ${ran} times for 5,000 strings`);
});

test("generated: a recursive union is checked once per object and definition, not once per path (2^depth)", async () => {
  const built = compileFixture(`
import { tool, ToolRegistry } from "tooltype";
type Chain = { next?: Chain; x?: string } | { next?: Chain; y?: number };
/**
 * Walk a chain.
 * @param chain The chain
 */
export const walk = tool(function walk(chain: Chain) { return "ok"; });
export const registry = new ToolRegistry([walk]);
`);
  const registry = built.load<{ registry: ToolRegistry }>().registry;
  const chain = (depth: number, end: object): object => (depth === 0 ? end : { next: chain(depth - 1, end) });
  const meta = registry.list()[0]!.meta;
  const validate = instantiateValidator(meta.validator!, meta.parameters);
  for (const [end, valid] of [
    [{ y: 1 }, true],
    [{ z: 1 }, false],
  ] as const) {
    const at20 = operations(validate, { chain: chain(20, end) });
    const at40 = operations(validate, { chain: chain(40, end) });
    assert.equal([at20.valid, at40.valid], [valid, valid]);
    assert.ok(
      at40.ops <= 2.2 * at20.ops,
      `${at20.ops} operations at depth 20, ${at40.ops} at depth 40 (${JSON.stringify(end)} at the bottom)`,
    );
  }
  const valid = await dispatched(registry, [["walk", JSON.stringify({ chain: chain(40, { y: 1 }) })]]);
  assert.is(valid.answers[0]!.status, "success", valid.answers[0]!.content);
  // Wrong at the bottom: every level's union fails, and each alternative would have to be tried below it.
  const invalid = await dispatched(registry, [["walk", JSON.stringify({ chain: chain(40, { z: 1 }) })]]);
  assert.is(invalid.answers[0]!.status, "error");
  assert.match(
    invalid.answers[0]!.content,
    /\/chain(\/next)*: must be an object with properties next, x or an object with properties next, y/,
  );
  // Both alternatives fit the shape at every level, so the message lists them where the union starts.
  const shallow = await dispatched(registry, [["walk", JSON.stringify({ chain: chain(2, { y: [1] }) })]]);
  assert.match(
    shallow.answers[0]!.content,
    /- \/chain: must be an object with properties next, x or an object with properties next, y; got \{"next":/,
  );
});

test("generated: a key matched by both `properties` and `patternProperties` of a recursive definition is checked once per object, not 2^depth", () => {
  // Each level checks `a` twice (its property schema and the pattern's): without the kit's memory of answers, 2^depth.
  const schema: JsonSchema = {
    type: "object",
    properties: { t: { $ref: "#/$defs/T" } },
    $defs: {
      T: {
        type: "object",
        properties: { a: { $ref: "#/$defs/T" } },
        patternProperties: { "^a$": { $ref: "#/$defs/T" } },
      },
    },
  };
  const code = generateValidator(schema, { linear: () => true })!;
  assert.match(code, /k\.c\(/, "the memory of answers is used where a value can be checked twice");
  // Generated code is run here as the transformer's output would be (the runtime itself never evaluates text).
  const factory = new Function("require", "__tooltype_kit", `return (${code})(require);`);
  const validate = instantiateValidator(((require: unknown) => factory(require, kit)) as never, schema);
  const nested = (depth: number): object => (depth === 0 ? { b: 1 } : { a: nested(depth - 1) });
  // Depths small enough that the blow-up, were it back, fails the ratio in a second instead of hanging.
  const at10 = operations(validate, { t: nested(10) });
  const at20 = operations(validate, { t: nested(20) });
  assert.equal([at10.valid, at20.valid], [true, true]);
  assert.ok(at20.ops <= 2.2 * at10.ops, `${at10.ops} operations at depth 10, ${at20.ops} at depth 20`);
});

test("generated: a recursive type no value can be checked twice in calls its definitions directly, each object once", () => {
  const built = compileFixture(`
import { tool, ToolRegistry, type UniqueItems } from "tooltype";
interface Folder { name: string; children: Folder[] & UniqueItems }
/**
 * Count folders.
 * @param root The top folder
 */
export const count = tool(function count(root: Folder) { return root.name; });
export const registry = new ToolRegistry([count]);
`);
  const meta = built.load<{ registry: ToolRegistry }>().registry.list()[0]!.meta;
  // No Map per object: remembering answers cost a 21,000-node tree more than checking it (hostile-input bench).
  assert.not.match(String(meta.validator), /k\.c\(/);
  const validate = instantiateValidator(meta.validator!, meta.parameters);
  const tree = (depth: number): object => ({
    name: `n${depth}`,
    children: depth === 0 ? [] : [tree(depth - 1), { name: "leaf", children: [] }],
  });
  const at20 = operations(validate, { root: tree(20) });
  const at40 = operations(validate, { root: tree(40) });
  assert.equal([at20.valid, at40.valid], [true, true]);
  assert.ok(at40.ops <= 2.2 * at20.ops, `${at20.ops} operations at depth 20, ${at40.ops} at depth 40`);
  const duplicate = {
    root: {
      name: "r",
      children: [
        { name: "x", children: [] },
        { name: "x", children: [] },
      ],
    },
  };
  assert.is(validate(duplicate), false, "uniqueItems still holds at every level");
});

test("generated: an exponential pattern is a build error (TT1024) that says what to write instead", () => {
  const built = compileFixture(`
import { tool, type Pattern } from "tooltype";
/**
 * Check a code.
 * @param code The code
 */
export const expo = tool(function expo(code: string & Pattern<"^(a+)+$">) { return code; });
`);
  const tt = built.tooltype.filter((d) => d.code === "TT1024");
  assert.is(tt.length, 1, JSON.stringify(built.tooltype));
  assert.is(tt[0]!.category, "error");
  assert.match(tt[0]!.message, /The pattern \/\^\(a\+\)\+\$\/ can take exponential time/);
  assert.match(tt[0]!.message, /\^a\+\$/);
  assert.match(tt[0]!.message, /at properties\/code\/pattern/);
  assert.is(tt[0]!.text, "expo");
});

test.run();
