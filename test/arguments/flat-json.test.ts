/**
 * flat-json.ts: the flat objects read without `JSON.parse` give what `JSON.parse` gives, key order included, and
 * every other text is left to `JSON.parse` (undefined). The property over generated and mutated text is in
 * test/security/hostile-input.test.ts; dispatch's answers either way are compared in test/dispatch/.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFlatObject } from "../../runtime/arguments/read/flat-json";
import { flatObjectKeys } from "../../runtime/arguments/read/flat-keys";
import { ToolRegistry, tool } from "../../runtime/entries/index";
import { probeDispatch } from "../../runtime/dispatch/testing";

const KEYS = ["city", "days", "unit", "metric", "note", "c", "ci"];

/** The reader's answer, checked against JSON.parse when it gives one. */
function read(text: string): Record<string, unknown> | undefined {
  const value = readFlatObject(text, KEYS);
  if (value !== undefined) {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    assert.equal(Object.keys(value), Object.keys(parsed), `key order of ${text}`);
    assert.equal(value, parsed, text);
    assert.is(Object.getPrototypeOf(value), Object.prototype);
  }
  return value;
}

test("flat objects of the tool's keys are read as JSON.parse reads them", () => {
  assert.equal(read('{"city":"Paris","days":3,"unit":"celsius"}'), { city: "Paris", days: 3, unit: "celsius" });
  assert.equal(Object.keys(read('{"unit":"celsius","city":"Paris"}')!), ["unit", "city"], "the text's order");
  assert.equal(read('{ "city" : "Paris" ,\n\t"days": 3\r\n}  '), { city: "Paris", days: 3 });
  assert.equal(read('{"metric":true,"note":null,"days":-42}'), { metric: true, note: null, days: -42 });
  assert.equal(read('{"metric":false,"days":0}'), { metric: false, days: 0 });
  assert.equal(read('{"days":999999999999999}'), { days: 999999999999999 }, "15 digits");
  assert.equal(read('{"city":""}'), { city: "" });
  assert.equal(read('{"c":"x","ci":"y","city":"z"}'), { c: "x", ci: "y", city: "z" }, "names that prefix others");
  assert.equal(read('{"city":"Zürich ✓ 東京 \ud83d\ude00"}'), { city: "Zürich ✓ 東京 😀" });
  assert.equal(read('{"city":"\ud800 lone"}'), { city: "\ud800 lone" }, "a lone surrogate, as JSON.parse keeps it");
});

test("anything else is left to JSON.parse", () => {
  for (const text of [
    '{"city":"Par\\"is"}', // an escape
    '{"city":"tab\there"}', // a control character
    '{"days":1.5}',
    '{"days":1e3}',
    '{"days":1E3}',
    '{"days":01}',
    '{"days":-0}',
    '{"days":-}',
    '{"days":1234567890123456}', // 16 digits
    '{"other":1}',
    '{"cit":1}',
    '{"cityy":1}',
    '{"city":"a","city":"b"}', // JSON.parse keeps the last
    '{"city":{"nested":1}}',
    '{"city":["a"]}',
    '{"metric":tru}',
    '{"metric":truex}',
    '{"note":nul}',
    '{"city":"a",}',
    '{"city":"a" "days":1}',
    '{"city":"a"}x',
    '{"city":"a"',
    '{"city":"a',
    '{"city"',
    '{"city":',
    "{}",
    "{",
    '{"ci\\u0074y":"a"}',
    "{'city':'a'}",
    '{"city":"a"}}',
  ]) {
    assert.is(read(text), undefined, text);
  }
});

test("a value polluting Object.prototype under a key's name: the text's own value, or none, as JSON.parse gives", () => {
  (Object.prototype as Record<string, unknown>).city = "polluted";
  try {
    const read1 = read('{"city":"Paris","days":3}');
    assert.ok(read1 && Object.hasOwn(read1, "city") && read1.city === "Paris", "the own property shadows it");
    const read2 = read('{"days":3}');
    assert.ok(read2 && !Object.hasOwn(read2, "city"), "a key the text does not have is not made own");
  } finally {
    delete (Object.prototype as Record<string, unknown>).city;
  }
});

test("only keys JSON writes as they are, at most 16 and none a name Object.prototype has, are read here", () => {
  const object = (...names: string[]) => ({
    type: "object",
    properties: Object.fromEntries(names.map((n) => [n, {}])),
  });
  assert.equal(flatObjectKeys(object("city", "days")), ["city", "days"]);
  for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])
    assert.is(flatObjectKeys(object(name, "city")), undefined, `${name}: a name Object.prototype has`);
  assert.is(flatObjectKeys(object('a"b')), undefined);
  assert.is(flatObjectKeys(object("a\\b")), undefined);
  assert.is(flatObjectKeys(object("line\nbreak")), undefined);
  assert.is(flatObjectKeys(object("\ud800")), undefined);
  assert.is(flatObjectKeys(object(...Array.from({ length: 17 }, (_, i) => `k${i}`))), undefined);
  assert.equal(flatObjectKeys(object(...Array.from({ length: 16 }, (_, i) => `k${i}`)))?.length, 16);
  assert.is(flatObjectKeys({ type: "object" }), undefined);
  assert.is(flatObjectKeys(undefined), undefined);
});

/**
 * Find a forecast.
 * @param city The city
 * @param days How many days
 */
function forecast(city: string, days: number): string {
  return `${city}: ${days}`;
}

test("dispatch answers the same whether the arguments were read here, by JSON.parse or by the full reader", async () => {
  const texts = [
    '{"city":"Paris","days":3}',
    '{ "days": 3, "city": "Paris" }',
    '{"city":"Par\\u0069s","days":3}',
    '{"city":"Paris","days":3.5}',
    '{"city":"Paris","days":3,"extra":true}',
    '{"city":"Paris"}',
    '{"city":"Paris","city":"Lyon","days":1}',
    '{"days":"3","city":"Paris"}',
  ];
  const answers = async (readAllInFull: boolean, maxArgumentsDepth?: number): Promise<unknown[]> => {
    const registry = new ToolRegistry([tool(forecast)], maxArgumentsDepth === undefined ? {} : { maxArgumentsDepth });
    probeDispatch(registry, { readAllInFull });
    const out: unknown[] = [];
    for (const [i, text] of texts.entries()) {
      const message = {
        role: "assistant",
        content: null,
        tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "forecast", arguments: text } }],
      };
      out.push((await registry.dispatch(message)).map(({ status, content }) => ({ status, content })));
    }
    return out;
  };
  const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
  assert.equal(plain(await answers(false)), plain(await answers(true)));
  // Under a depth limit of 0 every object is refused, however it would have been read.
  const refused = plain(await answers(false, 0)) as { status: string }[][];
  assert.equal(refused, plain(await answers(true, 0)));
  assert.ok(
    refused.every(([answer]) => answer!.status === "error"),
    JSON.stringify(refused),
  );
});

test.run();
