/**
 * accumulateToolCalls: fragments by index into complete calls, partial arguments as they grow, completion when the
 * next call starts or the reply finishes, the assembled message, untrusted keys, misuse; and the real SDK's stream
 * from the scripted server reassembled into the same message as a non-streamed request.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ChatCompletionStreamChunk } from "tooltype";
import { accumulateToolCalls } from "tooltype/loop";
import { startScriptedServer } from "../scripted-openai/server";

type Delta = ChatCompletionStreamChunk["choices"][number]["delta"];

function chunk(delta: Delta, finish_reason: string | null = null): ChatCompletionStreamChunk {
  return { choices: [{ index: 0, delta, finish_reason }] };
}

function fragment(index: number, args: string, head?: { id: string; name: string }): ChatCompletionStreamChunk {
  return chunk({
    tool_calls: [
      head
        ? { index, id: head.id, type: "function", function: { name: head.name, arguments: args } }
        : { index, function: { arguments: args } },
    ],
  });
}

test("fragments become complete calls; partial args grow; a call completes when the next one starts", () => {
  const acc = accumulateToolCalls();
  acc.push(chunk({ role: "assistant", content: null }));
  let update = acc.push(fragment(0, "", { id: "call_a", name: "get_weather" }));
  assert.equal(update.completed, []);
  assert.is(acc.partial[0]!.args, undefined, "nothing to parse yet");

  acc.push(fragment(0, '{"loca'));
  assert.equal(acc.partial[0]!.args, {}, "a key cut short is left out");
  acc.push(fragment(0, 'tion": "Bei'));
  assert.equal(acc.partial[0]!.args, { location: "Bei" });
  update = acc.push(fragment(0, 'jing", "days": [1, 2'));
  assert.equal(
    update.deltas.map((d) => [d.call.index, d.argumentsDelta]),
    [[0, 'jing", "days": [1, 2']],
  );
  assert.equal(acc.partial[0]!.args, { location: "Beijing", days: [1, 2] });
  assert.equal(acc.calls, [], "call 0 may still grow");

  update = acc.push(fragment(1, '{"q', { id: "call_b", name: "search" }));
  assert.equal(update.completed, [
    {
      id: "call_a",
      type: "function",
      function: { name: "get_weather", arguments: '{"location": "Beijing", "days": [1, 2' },
    },
  ]);
  assert.is(acc.partial[0]!.complete, true);
  assert.is(acc.partial[1]!.complete, false);
  assert.is(acc.calls.length, 1);

  acc.push(fragment(1, '": "umbrella"}'));
  update = acc.push(chunk({}, "tool_calls"));
  assert.is(update.finishReason, "tool_calls");
  assert.equal(
    update.completed.map((c) => c.id),
    ["call_b"],
  );
  assert.equal(acc.partial[1]!.args, { q: "umbrella" });
  assert.is(acc.finishReason, "tool_calls");

  const message = acc.done();
  assert.equal(message, {
    role: "assistant",
    content: null,
    refusal: null,
    tool_calls: [
      {
        id: "call_a",
        type: "function",
        function: { name: "get_weather", arguments: '{"location": "Beijing", "days": [1, 2' },
      },
      { id: "call_b", type: "function", function: { name: "search", arguments: '{"q": "umbrella"}' } },
    ],
  });
});

test("text and refusal accumulate; usage chunks and other choices are ignored; done() completes the rest", () => {
  const acc = accumulateToolCalls();
  assert.is(acc.push(chunk({ role: "assistant", content: "" })).text, "");
  assert.is(acc.push(chunk({ content: "Hello, " })).text, "Hello, ");
  acc.push({ choices: [{ index: 1, delta: { content: "other choice" }, finish_reason: null }] });
  acc.push({ choices: [] });
  acc.push(chunk({ content: "world." }));
  acc.push(chunk({ refusal: "No" }));
  acc.push(chunk({ refusal: " thanks." }));
  acc.push(fragment(0, '{"x": 1}', { id: "c1", name: "t" }));
  assert.is(acc.content, "Hello, world.");
  assert.is(acc.refusal, "No thanks.");
  assert.equal(acc.calls, []);
  const message = acc.done();
  assert.is(message.content, "Hello, world.");
  assert.is(message.tool_calls?.[0]?.function.arguments, '{"x": 1}');
  assert.equal(accumulateToolCalls().done(), { role: "assistant", content: null, refusal: null });
});

test("partial args: never a prototype, atoms not guessed, garbage keeps the last good parse", () => {
  const acc = accumulateToolCalls();
  acc.push(fragment(0, '{"__proto__": {"polluted": true}, "a": {"constructor": 1, "b": tr', { id: "c", name: "t" }));
  const args = acc.partial[0]!.args!;
  assert.equal(args, { a: { constructor: 1 } });
  assert.is(Object.getPrototypeOf(args), Object.prototype);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  acc.push(fragment(0, 'ue}, "n": 12'));
  assert.equal(acc.partial[0]!.args, { a: { constructor: 1, b: true }, n: 12 });
  acc.push(fragment(0, "}} trailing ] garbage ["));
  assert.equal(acc.partial[0]!.args, { a: { constructor: 1, b: true }, n: 12 });

  const list = accumulateToolCalls();
  list.push(fragment(0, "[1, 2", { id: "c", name: "t" }));
  assert.is(list.partial[0]!.args, undefined, "arguments must be an object");
});

test("misuse: a fragment for a completed call, and push after done(), are errors", () => {
  const acc = accumulateToolCalls();
  acc.push(fragment(0, "{}", { id: "a", name: "t" }));
  acc.push(fragment(1, "{}", { id: "b", name: "t" }));
  assert.throws(() => acc.push(fragment(0, "x")), /arrived after the call was complete/);
  acc.done();
  assert.throws(() => acc.push(chunk({ content: "late" })), /push\(\) after done\(\)/);
});

test("the SDK's stream from the scripted server reassembles into the non-streamed reply", async () => {
  const reply = {
    content: "Checking.",
    tool_calls: [
      { name: "get_weather", arguments: { location: "Beijing", unit: "celsius" }, id: "call_w" },
      { name: "search_products", arguments: { keyword: "umbrella", limit: 3 }, id: "call_s" },
    ],
  };
  const server = await startScriptedServer([reply, reply], { fragmentSize: 3 });
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const messages = [{ role: "user" as const, content: "go" }];
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true });
    const acc = accumulateToolCalls();
    const seen: string[] = [];
    for await (const c of stream) {
      const sdkChunk: ChatCompletionChunk = c;
      const update = acc.push(sdkChunk);
      for (const call of update.completed) seen.push(`${call.id} complete, ${acc.partial.length} seen`);
    }
    assert.equal(seen, ["call_w complete, 2 seen", "call_s complete, 2 seen"]);
    const streamed = acc.done();
    const plain = (await client.chat.completions.create({ model: "m", messages })).choices[0]!.message;
    assert.is(streamed.content, plain.content);
    assert.equal(streamed.tool_calls, plain.tool_calls);
    assert.equal(
      acc.partial.map((p) => p.args),
      [
        { location: "Beijing", unit: "celsius" },
        { keyword: "umbrella", limit: 3 },
      ],
    );
  } finally {
    await server.close();
  }
});

test.run();
