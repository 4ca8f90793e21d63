/**
 * runTools on every model API, each through its official SDK client against a scripted server of that API's wire
 * format on 127.0.0.1, whole and streamed: one reply with two parallel calls (one valid, one with invalid
 * arguments), the corrected call, then the final answer. Checked: the result and steps, the events of a stream,
 * and what reached the wire (the tools, the stream flag, each answer in the API's own format).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { type LoopTypes, type RunStep, type RunToolsEvent, type RunToolsResult, runTools } from "tooltype/loop";
import type { ToolRegistry } from "tooltype";
import { startScriptedServer } from "../scripted-openai/server";
import { anthropicReply, geminiReply, responsesCall, responsesReply, responsesText } from "../support/provider-replies";
import { createProviderRegistry } from "../support/provider-tools";
import {
  type RecordedRequest,
  type ScriptedResponse,
  type SseAnswer,
  sse,
  startScriptedHttp,
  wire,
} from "../support/scripted-http";

/** One scripted turn of the model, whatever the API: its calls (arguments as objects), or its final text. */
interface Turn {
  calls?: { id: string; name: string; args: Record<string, unknown> }[];
  text?: string;
}

const FINAL = "21°C in Paris; 2 umbrellas found.";
const TURNS: Turn[] = [
  {
    calls: [
      { id: "call_1", name: "get_weather", args: { city: "Paris" } },
      // limit must be 1 to 20: the model gets the error and calls again.
      { id: "call_2", name: "search_products", args: { keyword: "umbrella", limit: 0 } },
    ],
  },
  { calls: [{ id: "call_3", name: "search_products", args: { keyword: "umbrella", limit: 2 } }] },
  { text: FINAL },
];

/** An answer on the wire, whatever the API: the call it answers, whether it is an error, its text. */
interface WireAnswer {
  id: string;
  error: boolean;
  text: string;
}

/** What the test needs of one API. */
interface Api {
  name: string;
  /** The request path of a step, whole or streamed. */
  path(stream: boolean): string;
  /** The JSON answer of one turn, and its stream. */
  whole(turn: Turn, index: number): unknown;
  streamed(turn: Turn, index: number): SseAnswer;
  /** The registry's tools as this API's request carries them. */
  tools(registry: ToolRegistry): unknown;
  toolsOf(body: Record<string, unknown>): unknown;
  /** The answers the last entry (entries) of a request's conversation carry. */
  answersOf(body: Record<string, unknown>): WireAnswer[];
  run(origin: string, registry: ToolRegistry, stream: boolean): Promise<Ran>;
}

type Result = RunToolsResult<unknown, undefined, LoopTypes>;
type Event = RunToolsEvent<unknown, undefined, LoopTypes>;

/** A run's result, and a stream's events. */
interface Ran {
  result: Result;
  events: Event[];
}

/** Drains a run: awaits a promise, or reads a stream's events and then its result. */
async function collect(
  run: PromiseLike<unknown> | { [Symbol.asyncIterator](): AsyncIterator<unknown>; finalResult(): Promise<unknown> },
): Promise<Ran> {
  if (!("finalResult" in run)) return { result: (await run) as Result, events: [] };
  const events: Event[] = [];
  for await (const event of run) events.push(event as Event);
  return { result: (await run.finalResult()) as Result, events };
}

/** Splits a text into pieces of `size`, as a stream would deliver it. */
function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [""];
}

// ---- OpenAI Responses --------------------------------------------------------------------------------------------

function responsesOutput(turn: Turn): unknown[] {
  if (turn.text !== undefined) return [responsesText(turn.text)];
  return (turn.calls ?? []).map((call) => responsesCall(call.id, call.name, call.args));
}

const responses: Api = {
  name: "responses",
  path: () => "/v1/responses",
  whole: (turn, index) => responsesReply(`resp_${index}`, responsesOutput(turn)),
  streamed(turn, index) {
    const events: { type: string; [key: string]: unknown }[] = [
      { type: "response.created", response: responsesReply(`resp_${index}`, []) },
    ];
    responsesOutput(turn).forEach((item, output_index) => {
      const record = item as Record<string, unknown>;
      if (record.type === "function_call") {
        events.push({ type: "response.output_item.added", output_index, item: { ...record, arguments: "" } });
        for (const delta of pieces(record.arguments as string))
          events.push({ type: "response.function_call_arguments.delta", output_index, item_id: record.id, delta });
        events.push({
          type: "response.function_call_arguments.done",
          output_index,
          item_id: record.id,
          arguments: record.arguments,
        });
        events.push({ type: "response.output_item.done", output_index, item: record });
      } else {
        events.push({ type: "response.output_item.added", output_index, item: { ...record, content: [] } });
        for (const delta of pieces(turn.text!))
          events.push({
            type: "response.output_text.delta",
            output_index,
            item_id: record.id,
            content_index: 0,
            delta,
          });
        events.push({ type: "response.output_item.done", output_index, item: record });
      }
    });
    events.push({ type: "response.completed", response: responsesReply(`resp_${index}`, responsesOutput(turn)) });
    return sse(events.map((data, sequence_number) => ({ event: data.type, data: { ...data, sequence_number } })));
  },
  tools: (registry) => wire(registry.toResponsesTools()),
  toolsOf: (body) => body.tools,
  answersOf(body) {
    // The answers of the last reply: the function_call_output items the input ends with.
    const input = body.input as Record<string, unknown>[];
    let start = input.length;
    while (start > 0 && input[start - 1]!.type === "function_call_output") start--;
    return input.slice(start).map((item) => ({
      id: item.call_id as string,
      error: /^Error/.test(item.output as string),
      text: item.output as string,
    }));
  },
  run(origin, registry, stream) {
    const client = new OpenAI({ baseURL: `${origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const params = { model: "gpt-scripted", input: "Weather in Paris, and umbrellas?" };
    return collect(
      stream
        ? runTools(client, params, registry, { provider: "responses", stream: true })
        : runTools(client, params, registry, { provider: "responses" }),
    );
  },
};

// ---- Anthropic ---------------------------------------------------------------------------------------------------

function anthropicContent(turn: Turn): Record<string, unknown>[] {
  if (turn.text !== undefined) return [{ type: "text", text: turn.text }];
  return [
    { type: "text", text: "Let me check." },
    ...(turn.calls ?? []).map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
  ];
}

function anthropicMessage(turn: Turn, index: number, content: Record<string, unknown>[]): Record<string, unknown> {
  return { ...anthropicReply(`msg_${index}`, content), stop_reason: turn.calls ? "tool_use" : "end_turn" };
}

const anthropic: Api = {
  name: "anthropic",
  path: () => "/v1/messages",
  whole: (turn, index) => anthropicMessage(turn, index, anthropicContent(turn)),
  streamed(turn, index) {
    const events: { type: string; [key: string]: unknown }[] = [
      { type: "message_start", message: { ...anthropicMessage(turn, index, []), stop_reason: null } },
    ];
    anthropicContent(turn).forEach((block, i) => {
      if (block.type === "text") {
        events.push({ type: "content_block_start", index: i, content_block: { type: "text", text: "" } });
        for (const text of pieces(block.text as string))
          events.push({ type: "content_block_delta", index: i, delta: { type: "text_delta", text } });
      } else {
        events.push({ type: "content_block_start", index: i, content_block: { ...block, input: {} } });
        for (const partial_json of pieces(JSON.stringify(block.input)))
          events.push({ type: "content_block_delta", index: i, delta: { type: "input_json_delta", partial_json } });
      }
      events.push({ type: "content_block_stop", index: i });
    });
    events.push({
      type: "message_delta",
      delta: { stop_reason: turn.calls ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 10 },
    });
    events.push({ type: "message_stop" });
    return sse(events.map((data) => ({ event: data.type, data })));
  },
  tools: (registry) => wire(registry.toAnthropicTools()),
  toolsOf: (body) => body.tools,
  answersOf(body) {
    const messages = body.messages as { role: string; content: unknown }[];
    const last = messages[messages.length - 1]!;
    assert.is(last.role, "user", "the answers are one user message");
    return (last.content as Record<string, unknown>[]).map((block) => {
      assert.is(block.type, "tool_result", "the answer message holds only tool_result blocks");
      return { id: block.tool_use_id as string, error: block.is_error === true, text: block.content as string };
    });
  },
  run(origin, registry, stream) {
    const client = new Anthropic({ baseURL: origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const params = {
      model: "claude-scripted",
      max_tokens: 512,
      messages: [{ role: "user" as const, content: "Weather in Paris, and umbrellas?" }],
    };
    return collect(stream ? runTools(client, params, registry, { stream: true }) : runTools(client, params, registry));
  },
};

// ---- Gemini ------------------------------------------------------------------------------------------------------

function geminiParts(turn: Turn): Record<string, unknown>[] {
  if (turn.text !== undefined) return pieces(turn.text, 12).map((text) => ({ text }));
  return (turn.calls ?? []).map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.args } }));
}

const gemini: Api = {
  name: "gemini",
  path: (stream) => `/v1beta/models/gemini-scripted:${stream ? "streamGenerateContent" : "generateContent"}`,
  whole: (turn) => geminiReply(geminiParts(turn), "STOP"),
  // One part per chunk (text in pieces, each call whole, as Gemini streams them), the finish on the last.
  streamed: (turn) => {
    const parts = geminiParts(turn);
    return sse(parts.map((part, i) => ({ data: geminiReply([part], i === parts.length - 1 ? "STOP" : undefined) })));
  },
  tools: (registry) => wire(registry.toGeminiTools()),
  toolsOf: (body) => body.tools,
  answersOf(body) {
    const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
    const last = contents[contents.length - 1]!;
    assert.is(last.role, "user");
    return last.parts.map((part) => {
      const response = (part.functionResponse as { id: string; response: { output?: unknown; error?: string } })
        .response;
      const error = typeof response.error === "string";
      return {
        id: (part.functionResponse as { id: string }).id,
        error,
        text: error ? response.error! : JSON.stringify(response.output),
      };
    });
  },
  async run(origin, registry, stream) {
    // @google/genai is an ES module; a dynamic import loads it from this CommonJS test.
    const { GoogleGenAI } = await import("@google/genai");
    const client = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: origin, timeout: 10_000 } });
    const params = { model: "gemini-scripted", contents: "Weather in Paris, and umbrellas?" };
    return collect(stream ? runTools(client, params, registry, { stream: true }) : runTools(client, params, registry));
  },
};

function checkRun(
  api: Api,
  result: Result,
  requests: readonly RecordedRequest[],
  registry: ToolRegistry,
  stream: boolean,
): void {
  assert.is(result.content, FINAL);
  assert.is(result.finishReason, "answer");
  const steps = result.steps as RunStep<LoopTypes>[];
  assert.is(steps.length, 3);
  assert.equal(
    steps.map((step) => step.calls.length),
    [2, 1, 0],
  );
  assert.equal(
    steps[0]!.results.map((r) => [r.name, r.status]),
    [
      ["get_weather", "success"],
      ["search_products", "error"],
    ],
  );
  assert.equal(
    steps[0]!.failures.map((f) => [f.toolName, f.toolCallId, f.reason]),
    [["search_products", "call_2", "invalid_arguments"]],
  );
  assert.equal(
    steps[1]!.results.map((r) => [r.name, r.status, r.content]),
    [["search_products", "success", '{"keyword":"umbrella","limit":2,"filters":null,"maxPriceGiven":false}']],
  );
  assert.equal(steps[1]!.failures, []);

  assert.is(requests.length, 3);
  for (const request of requests) {
    assert.is(request.path, api.path(stream), `${api.name}: the path of the ${stream ? "streamed" : "whole"} request`);
    const body = request.body as Record<string, unknown>;
    if (api.name !== "gemini") assert.is(body.stream, stream ? true : undefined, "the stream flag");
  }
  const first = requests[0]!.body as Record<string, unknown>;
  assert.equal(api.toolsOf(first), api.tools(registry), "the registry's tools, in the API's format");

  const answered = api.answersOf(requests[1]!.body as Record<string, unknown>);
  assert.equal(
    answered.map((a) => [a.id, a.error]),
    [
      ["call_1", false],
      ["call_2", true],
    ],
  );
  assert.is(answered[0]!.text, '{"city":"Paris","temperature":21,"unit":"celsius"}');
  assert.match(answered[1]!.text, /^Error: invalid arguments for search_products:\n- \/limit: must be >= 1/);
  const corrected = api.answersOf(requests[2]!.body as Record<string, unknown>);
  assert.equal(
    corrected.map((a) => [a.id, a.error]),
    [["call_3", false]],
  );
}

function checkEvents(events: readonly Event[]): void {
  const kinds = events.map((event) => event.type);
  assert.is(kinds.filter((kind) => kind === "tool_call").length, 3, "every call reported complete");
  assert.is(kinds.filter((kind) => kind === "tool_result").length, 3);
  assert.is(kinds.filter((kind) => kind === "step").length, 3);
  assert.is(kinds[kinds.length - 1], "final");
  const text = events
    .filter((event): event is Extract<typeof event, { type: "text" }> => event.type === "text")
    .map((event) => event.delta)
    .join("");
  assert.ok(text.endsWith(FINAL), `the text streamed: ${JSON.stringify(text)}`);
  // Each call is announced before its result, and its fragments before it completes.
  const firstResult = kinds.indexOf("tool_result");
  assert.ok(kinds.indexOf("tool_call_delta") < kinds.indexOf("tool_call") && kinds.indexOf("tool_call") < firstResult);
}

for (const api of [responses, anthropic, gemini]) {
  for (const stream of [false, true]) {
    test(`${api.name}${stream ? ", streamed" : ""}: two parallel calls, one invalid call corrected, the final answer`, async () => {
      const steps: ScriptedResponse[] = TURNS.map(
        (turn, index) => () => (stream ? api.streamed(turn, index) : api.whole(turn, index)),
      );
      const server = await startScriptedHttp(steps);
      try {
        const registry = createProviderRegistry();
        const { result, events } = await api.run(server.origin, registry, stream);
        checkRun(api, result, server.requests, registry, stream);
        if (stream) checkEvents(events);
      } finally {
        await server.close();
      }
    });
  }
}

test("Chat Completions, whole and streamed: the same run through the OpenAI client", async () => {
  for (const stream of [false, true]) {
    const server = await startScriptedServer(
      TURNS.map((turn) =>
        turn.text !== undefined
          ? { content: turn.text }
          : { tool_calls: turn.calls!.map((call) => ({ id: call.id, name: call.name, arguments: call.args })) },
      ),
    );
    try {
      const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
      const registry = createProviderRegistry();
      const params = {
        model: "gpt-scripted",
        messages: [{ role: "user" as const, content: "Weather in Paris, and umbrellas?" }],
      };
      const { result, events } = await collect(
        stream ? runTools(client, params, registry, { stream: true }) : runTools(client, params, registry),
      );
      if (stream) checkEvents(events);
      // Chat answers are tool messages in `messages`, which grows: each step's are the newest ones.
      const toolMessages = (index: number): string[][] =>
        (server.requests[index]!.messages as { role: string; tool_call_id?: string; content?: unknown }[])
          .filter((message) => message.role === "tool")
          .map((message) => [message.tool_call_id!, /^Error/.test(String(message.content)) ? "error" : "ok"]);
      assert.equal(toolMessages(1), [
        ["call_1", "ok"],
        ["call_2", "error"],
      ]);
      assert.equal(toolMessages(2).slice(2), [["call_3", "ok"]]);
      assert.equal(server.requests[0]!.tools, wire(registry.toOpenAITools()));
      assert.is(result.content, FINAL);
      assert.equal(
        result.steps.map((step) => step.failures.map((f) => f.toolCallId)),
        [["call_2"], [], []],
      );
      assert.equal(
        server.requests.map((request) => request.stream),
        stream ? [true, true, true] : [undefined, undefined, undefined],
      );
    } finally {
      await server.close();
    }
  }
});

test.run();
