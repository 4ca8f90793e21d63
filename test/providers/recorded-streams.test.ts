/**
 * Streams as model APIs send them, byte for byte (test/fixtures/streams/*.sse, written by hand in each API's wire
 * format where a real stream differed from the documented one), served to the official SDK client by a scripted
 * server and read by runTools, and fed event by event to accumulateToolCalls:
 * - Mistral's Chat Completions stream sends each tool call whole in one fragment (`id`, `function.name`,
 *   `function.arguments`) and no `index`;
 * - Anthropic programmatic tool calling: when a code execution's program resumes, the next turn's stream holds the
 *   program's next tool call (its `caller` the code execution) whole inside `message_start`, with `stop_reason`
 *   already set, and no block events at all.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { tool, ToolRegistry } from "tooltype";
import { accumulateToolCalls, runTools } from "tooltype/loop";
import { sseText, startScriptedHttp } from "../support/scripted-http";

const STREAMS = path.resolve(__dirname, "../../../test/fixtures/streams");

function recording(name: string): string {
  return fs.readFileSync(path.join(STREAMS, name), "utf8");
}

/** The JSON of each `data:` line of a recorded stream (`[DONE]` left out). */
function events(name: string): Record<string, unknown>[] {
  return recording(name)
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)) as Record<string, unknown>);
}

/**
 * The weather in a city.
 * @param city The city
 */
const getWeather = tool(function get_weather(city: string): string {
  return `sunny in ${city}`;
});

/**
 * Run a SQL query against the sales database.
 * @param sql The query
 */
const queryDatabase = tool(function query_database(sql: string): string {
  return JSON.stringify([{ region: sql.includes("West") ? "West" : "East", revenue: 100 }]);
});

test("Mistral: tool calls sent whole without an index are read as calls, each its own", () => {
  const acc = accumulateToolCalls("openai");
  const completed = events("mistral-chat-tool-calls.sse").flatMap((chunk) => acc.push(chunk as never).completed);
  const calls = [
    { id: "Xk3pQ9vLm", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
    { id: "T7bWz2RcN", type: "function", function: { name: "get_weather", arguments: '{"city": "Lyon"}' } },
  ];
  assert.equal(completed, calls);
  assert.equal(
    acc.partial.map((call) => [call.index, call.id, call.args]),
    [
      [0, "Xk3pQ9vLm", { city: "Paris" }],
      [1, "T7bWz2RcN", { city: "Lyon" }],
    ],
  );
  assert.equal(acc.done(), { role: "assistant", content: "", refusal: null, tool_calls: calls });
});

test("Chat Completions: a fragment without an index continues the open call of its id; one with neither is refused", () => {
  const chunk = (toolCalls: unknown[], finish: string | null = null) =>
    ({ choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finish }] }) as never;
  const acc = accumulateToolCalls("openai");
  acc.push(chunk([{ id: "a", function: { name: "get_weather", arguments: '{"city": ' } }]));
  acc.push(chunk([{ id: "a", function: { arguments: '"Oslo"}' } }]));
  acc.push(
    chunk([{ index: 1, id: "b", function: { name: "get_weather", arguments: '{"city": "Rome"}' } }], "tool_calls"),
  );
  assert.equal(
    acc.calls.map((call) => [call.id, call.function.arguments]),
    [
      ["a", '{"city": "Oslo"}'],
      ["b", '{"city": "Rome"}'],
    ],
  );
  for (const fragment of [{ function: { arguments: "{}" } }, { id: "", function: { arguments: "{}" } }]) {
    assert.throws(
      () => accumulateToolCalls("openai").push(chunk([fragment])),
      /index must be a whole number of 0 or more \(or absent, with the call's id\); got undefined/,
    );
  }
});

test("Mistral through the OpenAI SDK: runTools, streamed, runs both calls and answers each by its id", async () => {
  const server = await startScriptedHttp([
    () => sseText(recording("mistral-chat-tool-calls.sse")),
    () => sseText(recording("mistral-chat-answer.sse")),
  ]);
  try {
    const client = new OpenAI({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const result = await runTools(
      client,
      { model: "mistral-large-latest", messages: [{ role: "user", content: "Weather in Paris and Lyon?" }] },
      new ToolRegistry([getWeather]),
      { stream: true },
    ).finalResult();
    assert.is(result.content, "Sunny in Paris and in Lyon.");
    const body = server.requests[1]!.body as { messages: Record<string, unknown>[] };
    assert.equal(body.messages.slice(1), [
      {
        role: "assistant",
        content: "",
        refusal: null,
        tool_calls: [
          { id: "Xk3pQ9vLm", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
          { id: "T7bWz2RcN", type: "function", function: { name: "get_weather", arguments: '{"city": "Lyon"}' } },
        ],
      },
      { role: "tool", tool_call_id: "Xk3pQ9vLm", content: "sunny in Paris" },
      { role: "tool", tool_call_id: "T7bWz2RcN", content: "sunny in Lyon" },
    ]);
  } finally {
    await server.close();
  }
});

const CALLER = { type: "code_execution_20250825", tool_id: "srvtoolu_01Hq8RkV2nXcT5mWzL4pYb7e" };
const RESUMED_CALL = {
  type: "tool_use",
  id: "toolu_01Rs5Tu7Vw9Xy1Za3Bc5De7F",
  name: "query_database",
  input: { sql: "SELECT SUM(revenue) FROM sales WHERE region = 'East'" },
  caller: CALLER,
};

test("Anthropic: a resumed program's call, whole inside message_start, is one complete call", () => {
  const acc = accumulateToolCalls("anthropic");
  const updates = events("anthropic-programmatic-2.sse").map((event) => acc.push(event as never));
  assert.equal(updates[0]!.completed, [RESUMED_CALL], "complete as message_start arrives");
  assert.is(updates[0]!.finishReason, "tool_use");
  assert.equal(acc.calls, [RESUMED_CALL]);
  const reply = acc.done();
  assert.equal(reply.content, [RESUMED_CALL]);
  assert.is(reply.stop_reason, "tool_use");
  assert.equal((reply as { container?: unknown }).container, {
    id: "container_011CVr8XqTm3Lw5Zk9Pd2Hs6",
    expires_at: "2026-12-06T18:04:14.107221Z",
  });
});

test("Anthropic through the SDK: runTools, streamed, answers the program's first call and the one its resumed turn brings", async () => {
  const server = await startScriptedHttp(
    [1, 2, 3].map((n) => () => sseText(recording(`anthropic-programmatic-${n}.sse`))),
  );
  try {
    const client = new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const result = await runTools(
      client,
      { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "Revenue by region?" }] },
      new ToolRegistry([queryDatabase]),
      { stream: true },
    ).finalResult();
    assert.is(result.content, "West and East both made 100.");
    assert.is(server.requests.length, 3);
    const second = server.requests[1]!.body as { container?: unknown; messages: { content: unknown }[] };
    assert.is(second.container, "container_011CVr8XqTm3Lw5Zk9Pd2Hs6");
    assert.equal(second.messages[2]!.content, [
      {
        type: "tool_result",
        tool_use_id: "toolu_01Ab3Cd5Ef7Gh9Jk2Lm4Np6Q",
        content: '[{"region":"West","revenue":100}]',
      },
    ]);
    const third = server.requests[2]!.body as { container?: unknown; messages: { role: string; content: unknown }[] };
    assert.is(third.container, "container_011CVr8XqTm3Lw5Zk9Pd2Hs6", "the resumed turn's container");
    assert.equal(third.messages.slice(3), [
      { role: "assistant", content: [RESUMED_CALL] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: RESUMED_CALL.id, content: '[{"region":"East","revenue":100}]' }],
      },
    ]);
  } finally {
    await server.close();
  }
});

test.run();
