/**
 * Gemini 3's streamed function-call arguments, in the shape gemini-3 sends them: a call's name with
 * `willContinue: true`, then parts of `partialArgs` (a value at a JSON Path, a string continued while its piece says
 * `willContinue`), then a part without `willContinue`. The accumulator assembles one call per streamed call (arrays
 * and nested objects included, a last call without its closing part still delivered), and runTools through the
 * official @google/genai client answers each call once and sends the assembled calls back in the conversation.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { tool, ToolRegistry } from "tooltype";
import { accumulateToolCalls, runTools } from "tooltype/loop";
import { geminiReply } from "../support/provider-replies";
import { sse, startScriptedHttp } from "../support/scripted-http";

interface Item {
  sku: string;
  qty: number;
}

/**
 * Place an order.
 * @param order What to order
 * @param note A note for the shop
 */
const placeOrder = tool(function place_order(order: { items: Item[]; gift: boolean }, note: string | null): string {
  return `ordered ${order.items.map((item) => `${item.qty} × ${item.sku}`).join(", ")}${order.gift ? " as a gift" : ""}${note === null ? "" : ` (${note})`}`;
});

/**
 * The weather in a city.
 * @param city The city
 */
const getWeather = tool(function get_weather(city: string): string {
  return `sunny in ${city}`;
});

/** A call streamed in pieces: the name first, then each piece in a part of its own, then the closing part. */
function streamedCall(
  name: string,
  id: string,
  pieces: Record<string, unknown>[],
  close = true,
): Record<string, unknown>[] {
  return [
    { functionCall: { id, name, willContinue: true }, thoughtSignature: `sig-${id}` },
    ...pieces.map((piece) => ({ functionCall: { partialArgs: [piece], willContinue: true } })),
    ...(close ? [{ functionCall: {} }] : []),
  ];
}

const ORDER_PIECES = [
  { jsonPath: "$.order.items[0].sku", stringValue: "A-", willContinue: true },
  { jsonPath: "$.order.items[0].sku", stringValue: '1"é' },
  { jsonPath: "$.order.items[0].qty", numberValue: 2 },
  { jsonPath: "$.order.items[1].sku", stringValue: "B" },
  { jsonPath: "$.order.items[1].qty", numberValue: 1 },
  { jsonPath: "$.order.gift", boolValue: true },
  { jsonPath: "$.note", nullValue: "NULL_VALUE" },
];
const ORDER = {
  order: {
    items: [
      { sku: 'A-1"é', qty: 2 },
      { sku: "B", qty: 1 },
    ],
    gift: true,
  },
  note: null,
};

/** Four streamed calls, the last one without its closing part (the finish reason ends it). */
function fourCalls(): Record<string, unknown>[] {
  return [
    ...streamedCall("get_weather", "c1", [
      { jsonPath: "$.city", stringValue: "Par", willContinue: true },
      { jsonPath: "$.city", stringValue: "is" },
    ]),
    ...streamedCall("place_order", "c2", ORDER_PIECES),
    ...streamedCall("get_weather", "c3", [{ jsonPath: "$['city']", stringValue: "Oslo" }]),
    ...streamedCall("get_weather", "c4", [{ jsonPath: "$.city", stringValue: "Rome" }], false),
  ];
}

test("accumulator: pieces by jsonPath make one call each, arrays and nested objects included; the arguments text grows at its end", () => {
  const acc = accumulateToolCalls("gemini");
  const parts = fourCalls();
  const completed: unknown[] = [];
  let text = "";
  parts.forEach((part, i) => {
    const update = acc.push(geminiReply([part], i === parts.length - 1 ? "STOP" : undefined) as never);
    completed.push(...update.completed);
    for (const delta of update.deltas) if (delta.call.index === 1) text += delta.argumentsDelta;
    // Mid-stream, the arguments parse as far as they go.
    if (i === 1) assert.equal(acc.partial[0]!.args, { city: "Par" });
  });
  assert.equal(completed, [
    { id: "c1", name: "get_weather", args: { city: "Paris" } },
    { id: "c2", name: "place_order", args: ORDER },
    { id: "c3", name: "get_weather", args: { city: "Oslo" } },
    { id: "c4", name: "get_weather", args: { city: "Rome" } },
  ]);
  assert.equal(acc.calls, completed);
  // The fragments of the nested call add up to its arguments text, which is its JSON.
  assert.is(text, acc.partial[1]!.arguments);
  assert.equal(JSON.parse(text), ORDER);
  assert.equal(
    acc.partial.map((call) => [call.id, call.name, call.complete]),
    [
      ["c1", "get_weather", true],
      ["c2", "place_order", true],
      ["c3", "get_weather", true],
      ["c4", "get_weather", true],
    ],
  );
  // The Content holds each call once, whole, with the thought signature of its first part.
  const content = acc.done();
  assert.equal(content.parts, [
    { thoughtSignature: "sig-c1", functionCall: { id: "c1", name: "get_weather", args: { city: "Paris" } } },
    { thoughtSignature: "sig-c2", functionCall: { id: "c2", name: "place_order", args: ORDER } },
    { thoughtSignature: "sig-c3", functionCall: { id: "c3", name: "get_weather", args: { city: "Oslo" } } },
    { thoughtSignature: "sig-c4", functionCall: { id: "c4", name: "get_weather", args: { city: "Rome" } } },
  ]);
});

test("accumulator: a stream that ends without a finish or a closing part still delivers its last call at done()", () => {
  const acc = accumulateToolCalls("gemini");
  for (const part of streamedCall(
    "get_weather",
    "c9",
    [
      { jsonPath: "$.city", stringValue: "Li", willContinue: true },
      { jsonPath: "$.city", stringValue: "ma" },
    ],
    false,
  )) {
    acc.push(geminiReply([part]) as never);
  }
  assert.equal(acc.calls, []);
  assert.equal(acc.done().parts, [
    { thoughtSignature: "sig-c9", functionCall: { id: "c9", name: "get_weather", args: { city: "Lima" } } },
  ]);
  assert.equal(acc.calls, [{ id: "c9", name: "get_weather", args: { city: "Lima" } }]);
});

test("accumulator: a piece that goes back to a place already written still gives the right call; a path that is not one is an error", () => {
  const acc = accumulateToolCalls("gemini");
  const parts = streamedCall("place_order", "c5", [
    { jsonPath: "$.order.items[0].sku", stringValue: "A" },
    { jsonPath: "$.note", stringValue: "late" },
    { jsonPath: "$.order.items[0].qty", numberValue: 3 },
    { jsonPath: "$.order.gift", boolValue: false },
  ]);
  const completed = parts.flatMap((part) => acc.push(geminiReply([part]) as never).completed);
  const args = { order: { items: [{ sku: "A", qty: 3 }], gift: false }, note: "late" };
  assert.equal(completed, [{ id: "c5", name: "place_order", args }]);
  assert.equal(JSON.parse(acc.partial[0]!.arguments), args);

  const bad = accumulateToolCalls("gemini");
  bad.push(geminiReply([{ functionCall: { name: "get_weather", willContinue: true } }]) as never);
  assert.throws(
    () =>
      bad.push(
        geminiReply([
          { functionCall: { partialArgs: [{ jsonPath: "city", stringValue: "x" }], willContinue: true } },
        ]) as never,
      ),
    /jsonPath must be a JSON Path .* got "city"/,
  );
  const gap = accumulateToolCalls("gemini");
  gap.push(geminiReply([{ functionCall: { name: "place_order", willContinue: true } }]) as never);
  assert.throws(
    () =>
      gap.push(
        geminiReply([
          {
            functionCall: { partialArgs: [{ jsonPath: "$.order.items[5].sku", stringValue: "x" }], willContinue: true },
          },
        ]) as never,
      ),
    /skips items of an array/,
  );
});

test("runTools through @google/genai: four streamed calls answered once each, the assembled calls sent back", async () => {
  const { GoogleGenAI } = await import("@google/genai");
  const registry = new ToolRegistry([placeOrder, getWeather]);
  const parts = fourCalls();
  const server = await startScriptedHttp([
    () => sse(parts.map((part, i) => ({ data: geminiReply([part], i === parts.length - 1 ? "STOP" : undefined) }))),
    () => sse([{ data: geminiReply([{ text: "Done." }], "STOP") }]),
  ]);
  try {
    const client = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.origin, timeout: 10_000 } });
    const run = runTools(client, { model: "gemini-scripted", contents: "Order and weather, please." }, registry, {
      stream: true,
    });
    const calls: string[] = [];
    for await (const event of run) if (event.type === "tool_call") calls.push((event.call as { id: string }).id);
    const result = await run.finalResult();
    assert.is(result.content, "Done.");
    assert.equal(calls, ["c1", "c2", "c3", "c4"]);
    const contents = (server.requests[1]!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] })
      .contents;
    const [, model, answer] = contents;
    assert.equal(
      model!.parts.map((part) => part.functionCall),
      [
        { id: "c1", name: "get_weather", args: { city: "Paris" } },
        { id: "c2", name: "place_order", args: ORDER },
        { id: "c3", name: "get_weather", args: { city: "Oslo" } },
        { id: "c4", name: "get_weather", args: { city: "Rome" } },
      ],
    );
    assert.equal(
      model!.parts.map((part) => part.thoughtSignature),
      ["sig-c1", "sig-c2", "sig-c3", "sig-c4"],
    );
    assert.equal(
      answer!.parts.map((part) => part.functionResponse),
      [
        { id: "c1", name: "get_weather", response: { output: "sunny in Paris" } },
        { id: "c2", name: "place_order", response: { output: 'ordered 2 × A-1"é, 1 × B as a gift' } },
        { id: "c3", name: "get_weather", response: { output: "sunny in Oslo" } },
        { id: "c4", name: "get_weather", response: { output: "sunny in Rome" } },
      ],
    );
  } finally {
    await server.close();
  }
});

test.run();
