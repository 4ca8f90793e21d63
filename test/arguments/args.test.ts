/**
 * args.ts and read-text.ts on their own (they hold no module state): reading argument text safely, reviving dates
 * by pointer, mapping an arguments object onto positions.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  MAX_ARGUMENTS_BYTES,
  MAX_ARGUMENTS_DEPTH,
  modelParams,
  readArguments,
  reviveDates,
  toPositionalArgs,
} from "../../runtime/arguments/read/read-arguments";
import { parseArguments } from "../../runtime/arguments/read/parse-arguments";
import type { CompiledToolMeta } from "../../runtime/tool/meta";
import type { ToolContext } from "../../runtime/tool/options";

test("parseArguments: objects pass, blank means {}, other JSON and bad text are described", () => {
  assert.equal(parseArguments('{"a":1}'), { ok: true, args: { a: 1 } });
  assert.equal(parseArguments(""), { ok: true, args: {} });
  assert.equal(parseArguments(" \n"), { ok: true, args: {} });
  assert.equal(parseArguments("null"), { ok: false, problem: "not_object", value: null, text: "null" });
  assert.equal(parseArguments('"x"'), { ok: false, problem: "not_object", value: "x", text: '"x"' });
  const bad = parseArguments('{"a":1');
  assert.is(bad.ok, false);
  assert.is(!bad.ok && bad.problem, "json");
  // Repairs are on by default and can be switched off.
  assert.equal(parseArguments("{a:1}"), { ok: true, args: { a: 1 }, repairs: ["unquoted_key"] });
  assert.is(parseArguments("{a:1}", { repair: false }).ok, false);
});

test("parseArguments: a JSON string holding the object is unwrapped only when asked (coercion)", () => {
  assert.is((parseArguments('"{\\"a\\":1}"') as { problem?: string }).problem, "not_object");
  assert.equal(parseArguments('"{\\"a\\":1}"', { unwrapString: true }), {
    ok: true,
    args: { a: 1 },
    coercions: [{ path: "", rule: "json", from: '{"a":1}' }],
  });
  // Strictly: a string holding broken JSON or an array is not unwrapped.
  assert.is((parseArguments('"{a:1}"', { unwrapString: true }) as { problem?: string }).problem, "not_object");
  assert.is((parseArguments('"[1]"', { unwrapString: true }) as { problem?: string }).problem, "not_object");
});

test("parseArguments bounds size and depth, and drops __proto__ keys at every level", () => {
  const long = parseArguments(`{"a":"${"x".repeat(MAX_ARGUMENTS_BYTES)}"}`);
  assert.is(!long.ok && long.problem, "too_long");
  // The limit is in UTF-8 bytes: 400,000 three-byte characters are 1.2 MB though only 400,000 characters long.
  const wide = parseArguments(`{"a":"${"€".repeat(400_000)}"}`);
  assert.equal(wide, { ok: false, problem: "too_long", bytes: 1_200_008, limit: MAX_ARGUMENTS_BYTES });
  assert.ok(parseArguments(`{"a":"${"€".repeat(300_000)}"}`).ok);
  assert.equal(parseArguments('{"a":"xxxx"}', { maxBytes: 8 }), {
    ok: false,
    problem: "too_long",
    bytes: 12,
    limit: 8,
  });
  // Already-parsed arguments have no text: their JSON size is estimated while they are copied.
  assert.is((readArguments({ a: "x".repeat(100) }, { maxBytes: 50 }) as { problem?: string }).problem, "too_long");
  assert.ok(readArguments({ a: "x".repeat(10) }, { maxBytes: 50 }).ok);
  const deep = `${"[".repeat(MAX_ARGUMENTS_DEPTH + 1)}${"]".repeat(MAX_ARGUMENTS_DEPTH + 1)}`;
  const tooDeep = parseArguments(`{"a":${deep}}`);
  assert.is(!tooDeep.ok && tooDeep.problem, "too_deep");
  const okDepth = `${"[".repeat(MAX_ARGUMENTS_DEPTH - 1)}${"]".repeat(MAX_ARGUMENTS_DEPTH - 1)}`;
  assert.ok(parseArguments(`{"a":${okDepth}}`).ok);
  // Deep text that needs repair is refused before the (recursive) repair library sees it.
  const deepRepair = parseArguments(`{a:${"[".repeat(100_000)}`);
  assert.equal(deepRepair, { ok: false, problem: "too_deep", limit: MAX_ARGUMENTS_DEPTH });
  assert.equal(parseArguments(`{"a":[[1]]}`, { maxDepth: 2 }), { ok: false, problem: "too_deep", limit: 2 });

  const read = parseArguments('{"__proto__":{"x":1},"a":[{"__proto__":{"y":2},"b":1}],"constructor":{"prototype":{}}}');
  assert.ok(read.ok);
  const args = read.ok ? read.args : {};
  assert.equal(Object.keys(args), ["a", "constructor"]);
  assert.equal(Object.keys((args.a as object[])[0]!), ["b"]);
  assert.is(Object.getPrototypeOf(args), Object.prototype);
});

test("readArguments copies, so later changes never reach the caller's object", () => {
  const original = { nested: { at: "2025-01-01T00:00:00Z" } };
  const read = readArguments(original);
  assert.ok(read.ok);
  if (!read.ok) return;
  assert.is.not(read.args, original);
  assert.is.not(read.args.nested, original.nested);
  assert.equal(read.args, original);
  assert.equal(readArguments(undefined), { ok: true, args: {} });
  assert.is((readArguments(new Map()) as { problem?: string }).problem, "not_object");
});

test("reviveDates: plain pointers, * over arrays and maps, escaped segments; missing and non-strings left alone", () => {
  const args: Record<string, unknown> = {
    at: "2025-01-31T09:30:00Z",
    events: [{ at: "2025-02-01T00:00:00Z" }, { at: null }, {}],
    rooms: { red: { booked: ["2025-03-01T00:00:00Z"] }, blue: { booked: [] } },
    "a/b": "2025-04-01T00:00:00Z",
    bad: "not a date",
  };
  reviveDates(args, ["/at", "/events/*/at", "/rooms/*/booked/*", "/a~1b", "/bad", "/missing/*/x"]);
  assert.instance(args.at, Date);
  const events = args.events as { at?: unknown }[];
  assert.instance(events[0]!.at, Date);
  assert.is(events[1]!.at, null);
  assert.not.ok("at" in events[2]!);
  const rooms = args.rooms as Record<string, { booked: unknown[] }>;
  assert.instance(rooms.red!.booked[0], Date);
  assert.instance(args["a/b"], Date);
  assert.is(args.bad, "not a date");
});

const meta = (extra: Partial<CompiledToolMeta>): CompiledToolMeta => ({
  v: 1,
  name: "t",
  description: "",
  parameters: {
    type: "object",
    properties: { q: { type: "string" }, n: { type: "integer" } },
    additionalProperties: false,
  },
  params: ["q", "n"],
  ...extra,
});

test("toPositionalArgs: names to positions, absent ones undefined, context at inject positions (one shared)", () => {
  const context = {
    toolCall: { name: "t", args: {}, id: "" },
    signal: new AbortController().signal,
    metadata: {},
  } as ToolContext;
  let made = 0;
  const make = () => {
    made++;
    return context;
  };
  assert.equal(toPositionalArgs({ n: 2, q: "x" }, meta({}), make), ["x", 2]);
  assert.equal(toPositionalArgs({ q: "x" }, meta({}), make), ["x", undefined]);
  assert.is(made, 0, "no context is made for a tool that takes none");
  const positional = toPositionalArgs(
    { q: "x", n: 1 },
    meta({ params: ["ctx", "q", "again", "n"], inject: [0, 2] }),
    make,
  );
  assert.equal(positional, [context, "x", context, 1]);
  assert.is(made, 1);
  // Inherited names are not arguments.
  assert.equal(toPositionalArgs({}, meta({ params: ["toString"] }), make), [undefined]);
});

test("toPositionalArgs with flatten: the object whole at the first free position, as the transformer lists params", () => {
  const context = {} as ToolContext;
  const args = { q: "x", n: 1 };
  assert.equal(
    toPositionalArgs(args, meta({ flatten: true }), () => context),
    [args],
  );
  const withContext = toPositionalArgs(
    args,
    meta({ flatten: true, params: ["q", "n", "ctx"], inject: [1] }),
    () => context,
  );
  assert.is(withContext.length, 2);
  assert.is(withContext[0], args);
  assert.is(withContext[1], context);
});

test("modelParams: the parameters a model fills", () => {
  assert.equal(modelParams(meta({ params: ["q", "ctx", "n"], inject: [1] })), ["q", "n"]);
  assert.equal(modelParams(meta({ flatten: true, params: ["q", "n", "ctx"], inject: [1] })), ["q", "n"]);
});

test.run();
