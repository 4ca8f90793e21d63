/**
 * Anthropic eager input streaming and strict tool use in the loop, through the official SDK against a scripted
 * server streaming Messages events: `runTools` sends `strict` and `eager_input_streaming` on the tools; an input whose
 * `input_json_delta` pieces are invalid JSON until the end runs once complete; one that stays invalid is answered with
 * the parse error (the model then calls again, and the run goes on), one with a slip the lenient reading repairs runs;
 * `accumulateToolCalls("anthropic")` over the SDK's stream gives a reply whose unreadable input `dispatch` answers
 * with the parse error rather than running the tool on a guess.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import { accumulateToolCalls, runTools } from "tooltype/loop";
import { createProviderRegistry } from "../support/provider-tools";
import { type ScriptedHttpServer, type ScriptedResponse, sse, startScriptedHttp } from "../support/scripted-http";

async function withHttp<R>(steps: ScriptedResponse[], body: (server: ScriptedHttpServer) => Promise<R>): Promise<R> {
  const server = await startScriptedHttp(steps);
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

function anthropicClient(server: ScriptedHttpServer): Anthropic {
  return new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
}

const body = (server: ScriptedHttpServer, index: number): Record<string, unknown> =>
  server.requests[index]!.body as Record<string, unknown>;

/** A streamed message: its blocks' events between message_start and message_delta / message_stop. */
function events(blocks: Record<string, unknown>[], stop: string) {
  const start = {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-scripted",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
  return sse(
    [
      start,
      ...blocks,
      { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } },
      { type: "message_stop" },
    ].map((data) => ({ event: data.type as string, data })),
  );
}

/** A `tool_use` block streamed in these `input_json_delta` pieces. */
function toolUse(id: string, pieces: string[], index = 0): Record<string, unknown>[] {
  return [
    { type: "content_block_start", index, content_block: { type: "tool_use", id, name: "get_weather", input: {} } },
    ...pieces.map((partial_json) => ({
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json },
    })),
    { type: "content_block_stop", index },
  ];
}

function text(value: string): Record<string, unknown>[] {
  return [
    { type: "content_block_start", index: 0, content_block: { type: "text", text: value } },
    { type: "content_block_stop", index: 0 },
  ];
}

test("runTools with eagerInputStreaming and strict: both on the tools; pieces invalid until the end run once complete", async () => {
  await withHttp(
    [
      () => events(toolUse("toolu_1", ['{"city": "Os', 'lo", "un', 'it": "fahrenheit"', "}"]), "tool_use"),
      () => events(text("70 degrees."), "end_turn"),
    ],
    async (server) => {
      const registry = createProviderRegistry();
      const run = runTools(
        anthropicClient(server),
        { model: "claude-scripted", max_tokens: 256, messages: [{ role: "user", content: "Weather in Oslo?" }] },
        registry,
        { stream: true, eagerInputStreaming: true, strict: true },
      );
      const deltas: string[] = [];
      for await (const event of run) if (event.type === "tool_call_delta") deltas.push(event.argumentsDelta);
      const result = await run.finalResult();
      assert.is(result.content, "70 degrees.");
      // The block's start opens the call with no text yet; then each piece as it came.
      assert.equal(deltas, ["", '{"city": "Os', 'lo", "un', 'it": "fahrenheit"', "}"]);
      const [weather] = result.steps[0]!.results;
      assert.is(weather!.status, "success");
      assert.match(weather!.content, /"temperature":70/);
      const tools = body(server, 0).tools as Record<string, unknown>[];
      assert.equal(
        tools.map((tool) => [tool.name, tool.strict, tool.eager_input_streaming]),
        registry.list().map((tool) => [tool.name, true, true]),
      );
      assert.is((tools[0]!.input_schema as { additionalProperties?: unknown }).additionalProperties, false);
    },
  );
});

test("an eager input that stays invalid JSON is answered with the parse error; the model calls again and the run goes on", async () => {
  await withHttp(
    [
      () => events(toolUse("toolu_1", ['{"city": "Oslo", ', '"unit": celsius}']), "tool_use"),
      () => events(toolUse("toolu_2", ['{"city": "Oslo", ', '"unit": "celsius",}']), "tool_use"),
      () => events(text("21 degrees."), "end_turn"),
    ],
    async (server) => {
      const run = runTools(
        anthropicClient(server),
        { model: "claude-scripted", max_tokens: 256, messages: [{ role: "user", content: "Weather in Oslo?" }] },
        createProviderRegistry(),
        { stream: true, eagerInputStreaming: true },
      );
      const result = await run.finalResult();
      assert.is(result.content, "21 degrees.");
      assert.equal(
        result.steps[0]!.failures.map((f) => [f.reason, f.arguments]),
        [["malformed_arguments", '{"city": "Oslo", "unit": celsius}']],
      );
      // The answer the model read: an error result on its call, which says what did not parse.
      const answer = (body(server, 1).messages as { content: Record<string, unknown>[] }[])[2]!.content[0]!;
      assert.equal([answer.type, answer.tool_use_id, answer.is_error], ["tool_result", "toolu_1", true]);
      assert.match(String(answer.content), /JSON/);
      // The second input has a trailing comma, a slip the lenient reading repairs: it runs.
      const [second] = result.steps[1]!.results;
      assert.is(second!.status, "success");
      assert.match(second!.content, /"temperature":21/);
      assert.is((body(server, 0).tools as Record<string, unknown>[])[0]!.eager_input_streaming, true);
    },
  );
});

test("accumulateToolCalls over the SDK's stream: dispatch answers an unreadable eager input with the parse error", async () => {
  await withHttp(
    [
      () =>
        events(
          [...toolUse("toolu_1", ['{"city": "Par', "is"]), ...toolUse("toolu_2", ['{"city": "Rome"}'], 1)],
          "tool_use",
        ),
    ],
    async (server) => {
      const registry = createProviderRegistry();
      const stream = await anthropicClient(server).messages.create({
        model: "claude-scripted",
        max_tokens: 256,
        messages: [{ role: "user", content: "Weather?" }],
        tools: registry.toAnthropicTools({ eagerInputStreaming: true }),
        stream: true,
      });
      const accumulator = accumulateToolCalls("anthropic");
      for await (const event of stream) accumulator.push(event);
      const reply = accumulator.done();
      // The conversation still gets an object input (what parsed so far); dispatch reads the text the model sent.
      assert.equal(
        (reply.content as { input?: unknown }[]).map((block) => block.input),
        [{ city: "Paris" }, { city: "Rome" }],
      );
      const answer = (await registry.dispatch(reply as never)) as unknown as {
        content: { tool_use_id: string; is_error?: boolean; content?: unknown }[];
      };
      assert.equal(
        answer.content.map((block) => [block.tool_use_id, block.is_error === true]),
        [
          ["toolu_1", true],
          ["toolu_2", false],
        ],
      );
      assert.match(String(answer.content[0]!.content), /JSON/);
      assert.match(String(answer.content[1]!.content), /Rome/);
    },
  );
});

test.run();
