/**
 * accumulateToolCalls(provider) for the Responses API, Anthropic and Gemini, fed their documented stream events by
 * hand: text, the arguments parsed as far as they go while a call streams, calls completed in order, the assembled
 * reply, and the misuse errors. (The loop reads the same accumulators through each SDK in test/agent/providers.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { accumulateToolCalls } from "tooltype/loop";

test("Responses: function_call items announced, arguments in deltas, completed by output_item.done", () => {
  const acc = accumulateToolCalls("responses");
  acc.push({
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: "" },
  });
  const update = acc.push({
    type: "response.function_call_arguments.delta",
    output_index: 0,
    item_id: "fc_1",
    delta: '{"city": "Par',
  });
  assert.equal(
    update.deltas.map((d) => [d.call.name, d.argumentsDelta]),
    [["get_weather", '{"city": "Par']],
  );
  assert.equal(acc.partial[0]!.args, { city: "Par" });
  assert.equal(acc.calls, []);
  acc.push({ type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_1", delta: 'is"}' });
  const done = acc.push({
    type: "response.output_item.done",
    output_index: 0,
    item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"city": "Paris"}' },
  });
  assert.equal(done.completed, [
    { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"city": "Paris"}' },
  ]);
  assert.is(acc.push({ type: "response.output_text.delta", output_index: 1, delta: "Done." }).text, "Done.");
  assert.throws(
    () => acc.push({ type: "response.function_call_arguments.delta", output_index: 0, delta: "x" }),
    /after the call was complete/,
  );
  const reply = acc.done();
  assert.equal(
    reply.output.map((item) => (item as { type: string }).type),
    ["function_call"],
  );
  assert.is(reply.output_text, "Done.");
  assert.throws(() => acc.push({ type: "response.output_text.delta", delta: "late" }), /push\(\) after done\(\)/);
});

test("Anthropic: tool_use blocks streamed as input_json_delta pieces, completed by content_block_stop", () => {
  const acc = accumulateToolCalls("anthropic");
  acc.push({
    type: "message_start",
    message: { id: "msg_1", type: "message", role: "assistant", content: [], model: "m", stop_reason: null },
  });
  acc.push({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
  assert.is(
    acc.push({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking." } }).text,
    "Checking.",
  );
  acc.push({ type: "content_block_stop", index: 0 });
  acc.push({
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
  });
  acc.push({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"city":"Ro' } });
  assert.equal(
    acc.partial.map((call) => [call.id, call.name, call.args, call.complete]),
    [["toolu_1", "get_weather", { city: "Ro" }, false]],
  );
  acc.push({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: 'me"}' } });
  const stop = acc.push({ type: "content_block_stop", index: 1 });
  assert.equal(stop.completed, [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Rome" } }]);
  assert.is(acc.push({ type: "message_delta", delta: { stop_reason: "tool_use" } }).finishReason, "tool_use");
  const reply = acc.done();
  assert.equal(reply.content, [
    { type: "text", text: "Checking." },
    { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Rome" } },
  ]);
  assert.equal(
    [reply.role, reply.stop_reason, (reply as unknown as { id: string }).id],
    ["assistant", "tool_use", "msg_1"],
  );
});

test("Gemini: functionCall parts arrive whole and complete at once; the Content keeps every part in order", () => {
  const acc = accumulateToolCalls("gemini");
  assert.is(acc.push({ candidates: [{ content: { role: "model", parts: [{ text: "Let me " }] } }] }).text, "Let me ");
  acc.push({ candidates: [{ content: { role: "model", parts: [{ text: "check.", thought: true }] } }] });
  const update = acc.push({
    candidates: [
      {
        content: {
          role: "model",
          parts: [
            { functionCall: { id: "fc_1", name: "get_weather", args: { city: "Oslo" } } },
            { functionCall: { name: "add", args: { a: 1, b: 2 } } },
          ],
        },
        finishReason: "STOP",
      },
    ],
  });
  assert.equal(update.completed, [
    { id: "fc_1", name: "get_weather", args: { city: "Oslo" } },
    { name: "add", args: { a: 1, b: 2 } },
  ]);
  assert.equal(
    acc.partial.map((call) => [call.id, call.name, call.args, call.complete]),
    [
      ["fc_1", "get_weather", { city: "Oslo" }, true],
      ["", "add", { a: 1, b: 2 }, true],
    ],
  );
  assert.is(acc.content, "Let me ", "thoughts are not the reply's text");
  assert.is(acc.finishReason, "STOP");
  assert.equal(acc.done(), {
    role: "model",
    parts: [
      { text: "Let me " },
      { text: "check.", thought: true },
      { functionCall: { id: "fc_1", name: "get_weather", args: { city: "Oslo" } } },
      { functionCall: { name: "add", args: { a: 1, b: 2 } } },
    ],
  });
  assert.throws(() => accumulateToolCalls("mistral" as "gemini"), /unknown provider "mistral"/);
});

test.run();
