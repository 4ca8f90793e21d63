/**
 * What the model reads for results JSON cannot hold as they are: converted when a model can still use them
 * (Map, Set, typed arrays, NaN and Infinity), an error that says why otherwise (iterators and generators, Promises,
 * WeakMaps, nested functions and symbols, bigint, cycles), never "{}" or "null" with status success.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { tool, ToolRegistry } from "tooltype";

// A tool of no parameters (the transformer writes its metadata) that returns what `body` does, under `name`.
const returning = (name: string, body: () => unknown) =>
  tool(
    function result() {
      return body();
    },
    { name, description: "Returns the value under test." },
  );

async function answers(bodies: Record<string, () => unknown>): Promise<Record<string, [string, string]>> {
  const registry = new ToolRegistry(Object.entries(bodies).map(([name, body]) => returning(name, body)));
  const names = Object.keys(bodies);
  const messages = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: names.map((name, i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name, arguments: "{}" },
    })),
  });
  return Object.fromEntries(messages.map((m, i) => [names[i]!, [m.status, m.content]]));
}

test("values a model can use are converted: Map to an object or entries, Set and typed arrays to arrays, NaN and Infinity by name", async () => {
  const got = await answers({
    map: () =>
      new Map<string, unknown>([
        ["a", 1],
        ["b", new Set([1, 2])],
      ]),
    mixedKeys: () =>
      new Map<unknown, string>([
        [1, "one"],
        ["two", "two"],
      ]),
    set: () => new Set(["x", "y"]),
    nested: () => ({ tags: new Set(["a"]), scores: new Map([["ada", 3]]) }),
    bytes: () => new Uint8Array([1, 2, 255]),
    numbers: () => ({ mean: NaN, max: Infinity, min: -Infinity, ok: 1.5 }),
    bareNaN: () => NaN,
  });
  assert.equal(got.map, ["success", '{"a":1,"b":[1,2]}']);
  assert.equal(got.mixedKeys, ["success", '[[1,"one"],["two","two"]]']);
  assert.equal(got.set, ["success", '["x","y"]']);
  assert.equal(got.nested, ["success", '{"tags":["a"],"scores":{"ada":3}}']);
  assert.equal(got.bytes, ["success", "[1,2,255]"]);
  assert.equal(got.numbers, ["success", '{"mean":"NaN","max":"Infinity","min":"-Infinity","ok":1.5}']);
  assert.equal(got.bareNaN, ["success", '"NaN"']);
});

test("values JSON cannot hold are errors that say what and where, never {} with status success", async () => {
  function* numbers() {
    yield 1;
  }
  const cyclic: Record<string, unknown> = { name: "loop" };
  cyclic.self = cyclic;
  const got = await answers({
    generator: () => numbers(),
    iterator: () => new Map([["a", 1]]).values(),
    promise: () => ({ later: Promise.resolve(1) }),
    weak: () => new WeakMap(),
    method: () => ({ value: 1, callback: () => 2 }),
    symbol: () => ({ id: Symbol("x") }),
    big: () => ({ count: 10n }),
    cycle: () => cyclic,
    fn: () => () => 1,
  });
  for (const [name, [status]] of Object.entries(got)) assert.is(status, "error", `${name}: ${got[name]![1]}`);
  assert.match(
    got.generator![1],
    "could not be serialised to JSON: it is an iterator (Generator), which JSON cannot hold. Return an array of its items instead",
  );
  assert.match(got.iterator![1], "it is an iterator (Map Iterator)");
  assert.match(got.promise![1], 'the value at key "later" is a Promise: await it before returning.');
  assert.match(got.weak![1], "it is a WeakMap, which JSON would write as {}");
  assert.match(got.method![1], 'the value at key "callback" is a function');
  assert.match(got.symbol![1], 'the value at key "id" is a symbol');
  assert.match(got.big![1], 'the value at key "count" is a BigInt (10n)');
  assert.match(got.cycle![1], "it contains a circular reference");
  assert.is(got.fn![1], "Error: the result of fn could not be serialised to JSON: it is a function.");
});

test.run();
