/**
 * Anthropic programmatic tool calling through the official SDK client and a scripted Messages endpoint: a reply
 * whose code execution (`server_tool_use`) calls a tool from its program (a `tool_use` whose `caller` is the code
 * execution, its `input` whole in `content_block_start` when streamed) beside a direct call. Both are read and run;
 * the answer is one user message of `tool_result` blocks only, and the next request names the reply's container,
 * in which the program waits for its result (the API refuses the results otherwise). The conversation keeps the
 * code execution's input as it streamed.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import { tool, ToolRegistry } from "tooltype";
import { accumulateToolCalls, runTools } from "tooltype/loop";
import { anthropicReply } from "../support/provider-replies";
import { sse, startScriptedHttp } from "../support/scripted-http";

/**
 * Run a SQL query against the sales database.
 * @param sql The query
 */
const queryDatabase = tool(function query_database(sql: string): string {
  return JSON.stringify([{ region: sql.includes("West") ? "West" : "East", revenue: 100 }]);
});

/**
 * The weather in a city.
 * @param city The city
 */
const getWeather = tool(function get_weather(city: string): string {
  return `sunny in ${city}`;
});

const CALLER = { type: "code_execution_20250825", tool_id: "srvtoolu_1" };
const CODE = { code: "rows = await query_database(sql=\"SELECT * FROM sales WHERE region = 'West'\")\nprint(rows)" };
const PROGRAMMATIC = {
  type: "tool_use",
  id: "toolu_1",
  name: "query_database",
  input: { sql: "SELECT * FROM sales WHERE region = 'West'" },
  caller: CALLER,
};
const DIRECT = {
  type: "tool_use",
  id: "toolu_2",
  name: "get_weather",
  input: { city: "Oslo" },
  caller: { type: "direct" },
};
const CONTAINER = { id: "container_011", expires_at: "2026-12-02T10:00:00Z" };

function firstReply(): Record<string, unknown> {
  return {
    ...anthropicReply("msg_1", [
      { type: "text", text: "Querying." },
      { type: "server_tool_use", id: "srvtoolu_1", name: "code_execution", input: CODE },
      PROGRAMMATIC,
      DIRECT,
    ]),
    container: CONTAINER,
  };
}

/** The first reply as the API streams it: the code in pieces, the programmatic call's input whole at its start. */
function firstStream(): ReturnType<typeof sse> {
  const code = JSON.stringify(CODE);
  const events: Record<string, unknown>[] = [
    { type: "message_start", message: { ...anthropicReply("msg_1", []), stop_reason: null, container: null } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Querying." } },
    { type: "content_block_stop", index: 0 },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "code_execution", input: {} },
    },
    { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: code.slice(0, 20) } },
    { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: code.slice(20) } },
    { type: "content_block_stop", index: 1 },
    { type: "content_block_start", index: 2, content_block: PROGRAMMATIC },
    { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: "" } },
    { type: "content_block_stop", index: 2 },
    { type: "content_block_start", index: 3, content_block: { ...DIRECT, input: {} } },
    { type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: '{"city": "Os' } },
    { type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: 'lo"}' } },
    { type: "content_block_stop", index: 3 },
    {
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null, container: CONTAINER },
      usage: { output_tokens: 10 },
    },
    { type: "message_stop" },
  ];
  return sse(events.map((data) => ({ event: data.type as string, data })));
}

for (const stream of [false, true]) {
  test(`runTools${stream ? ", streamed" : ""}: a code execution's call and a direct call both run; the results go back in the reply's container`, async () => {
    const registry = new ToolRegistry([queryDatabase, getWeather]);
    const server = await startScriptedHttp([
      () => (stream ? firstStream() : firstReply()),
      () =>
        stream
          ? sse([
              {
                event: "message_start",
                data: { type: "message_start", message: { ...anthropicReply("msg_2", []), stop_reason: null } },
              },
              {
                event: "content_block_start",
                data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "West: 100." } },
              },
              { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
              {
                event: "message_delta",
                data: {
                  type: "message_delta",
                  delta: { stop_reason: "end_turn", stop_sequence: null },
                  usage: { output_tokens: 5 },
                },
              },
              { event: "message_stop", data: { type: "message_stop" } },
            ])
          : anthropicReply("msg_2", [{ type: "text", text: "West: 100." }]),
    ]);
    try {
      const client = new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
      const params = {
        model: "claude-scripted",
        max_tokens: 512,
        messages: [{ role: "user" as const, content: "Revenue in the West?" }],
      };
      const result = stream
        ? await runTools(client, params, registry, { stream: true }).finalResult()
        : await runTools(client, params, registry);
      assert.is(result.content, "West: 100.");
      const body = server.requests[1]!.body as {
        container?: unknown;
        messages: { role: string; content: Record<string, unknown>[] }[];
      };
      assert.is(body.container, "container_011", "the next request names the container the program waits in");
      const [, assistant, answer] = body.messages;
      assert.equal(assistant!.content.slice(1), [
        { type: "server_tool_use", id: "srvtoolu_1", name: "code_execution", input: CODE },
        PROGRAMMATIC,
        DIRECT,
      ]);
      assert.equal(answer, {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: '[{"region":"West","revenue":100}]' },
          { type: "tool_result", tool_use_id: "toolu_2", content: "sunny in Oslo" },
        ],
      });
    } finally {
      await server.close();
    }
  });
}

test("accumulator: a programmatic call's input given whole is its input; pieces after it replace it", () => {
  const acc = accumulateToolCalls("anthropic");
  acc.push({ type: "content_block_start", index: 0, content_block: PROGRAMMATIC });
  const restated = JSON.stringify(PROGRAMMATIC.input);
  acc.push({
    type: "content_block_delta",
    index: 0,
    delta: { type: "input_json_delta", partial_json: restated.slice(0, 9) },
  });
  acc.push({
    type: "content_block_delta",
    index: 0,
    delta: { type: "input_json_delta", partial_json: restated.slice(9) },
  });
  assert.equal(acc.push({ type: "content_block_stop", index: 0 }).completed, [PROGRAMMATIC]);
  assert.is(acc.partial[0]!.arguments, restated, "the input once, not twice");
});

test.run();
