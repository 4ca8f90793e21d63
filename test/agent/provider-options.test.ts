/**
 * runTools' options on the APIs beyond Chat Completions (Chat Completions has its own suites: run-tools, retries,
 * run-tools-stream), each through its official SDK against a scripted server: a structured answer (retried, then
 * parsed) on Anthropic, `returnDirect` and `maxSteps` on Gemini, JSON Patch repair on the Responses API, tool choice
 * and parallel calls on the wire, `stopWhen` (`toolCalled`, `stepCountIs`, a custom condition) and `prepareStep`
 * (active tools, a call to an inactive tool answered as unavailable, the tool choice per step).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { GeminiContent, ResponsesLoopTypes, ToolRegistry, Int } from "tooltype";
import {
  MaxStepsError,
  type PrepareStepContext,
  runTools,
  stepCountIs,
  structuredOutput,
  toolCalled,
} from "tooltype/loop";
import { anthropicReply, geminiReply, responsesCall, responsesReply, responsesText } from "../support/provider-replies";
import { createProviderRegistry } from "../support/provider-tools";
import { type ScriptedHttpServer, type ScriptedResponse, sse, startScriptedHttp, wire } from "../support/scripted-http";
import { allTools } from "./tools";

/** The weather as a structured answer. */
interface Report {
  city: string;
  /** Degrees Celsius */
  celsius: Int;
}

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

async function geminiClient(server: ScriptedHttpServer) {
  // @google/genai is an ES module; a dynamic import loads it from this CommonJS test.
  const { GoogleGenAI } = await import("@google/genai");
  return new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.origin, timeout: 10_000 } });
}

function openaiClient(server: ScriptedHttpServer): OpenAI {
  return new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
}

const body = (server: ScriptedHttpServer, index: number): Record<string, unknown> =>
  server.requests[index]!.body as Record<string, unknown>;

test("Anthropic: a structured answer in output_config.format, a wrong one sent back, the right one parsed", async () => {
  const report = structuredOutput<Report>();
  await withHttp(
    [
      () =>
        anthropicReply("msg_1", [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }]),
      () => anthropicReply("msg_2", [{ type: "text", text: '{"city":"Oslo"}' }]),
      () => anthropicReply("msg_3", [{ type: "text", text: '{"city":"Oslo","celsius":21}' }]),
    ],
    async (server) => {
      const messages = [{ role: "user" as const, content: "Weather in Oslo?" }];
      const result = await runTools(
        anthropicClient(server),
        { model: "claude-scripted", max_tokens: 256, messages },
        createProviderRegistry(),
        {
          responseFormat: report,
          parallelToolCalls: false,
        },
      );
      assert.equal(result.parsed, { city: "Oslo", celsius: 21 });
      assert.is(result.finishReason, "answer");
      assert.equal(
        result.steps.map((step) => step.failures.map((f) => f.reason)),
        [[], ["invalid_answer"], []],
      );
      assert.equal(body(server, 0).output_config, { format: { type: "json_schema", schema: wire(report.schema) } });
      // { parallel: false } needs a tool_choice to carry it: Anthropic's default "auto".
      assert.equal(body(server, 0).tool_choice, { type: "auto", disable_parallel_tool_use: true });
      const retry = body(server, 2).messages as { role: string; content: unknown }[];
      assert.equal(
        retry.map((m) => m.role),
        ["user", "assistant", "user", "assistant", "user"],
      );
      assert.match(String(retry[4]!.content), /^Your answer is not a valid report answer:\n- .*celsius/);
      assert.equal(result.messages.length, 6);
    },
  );
});

test("Gemini: a returnDirect tool ends the loop; a forced tool choice is ANY on the wire", async () => {
  await withHttp(
    [() => geminiReply([{ functionCall: { name: "lookup_answer", args: { topic: "life" } } }], "STOP")],
    async (server) => {
      const result = await runTools(
        await geminiClient(server),
        { model: "gemini-scripted", contents: "What is the answer?" },
        allTools(),
        { toolChoice: "lookup_answer" },
      );
      assert.is(result.finishReason, "returnDirect");
      assert.is(result.content, "The answer about life is 42.");
      assert.is(result.returnDirect?.status, "success");
      const sent = body(server, 0);
      assert.equal(sent.toolConfig, {
        functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["lookup_answer"] },
      });
      assert.equal(sent.contents, [{ role: "user", parts: [{ text: "What is the answer?" }] }]);
      // The answer without an id (Gemini gave none) is in the transcript, after the model's Content.
      const last = result.messages[result.messages.length - 1] as GeminiContent;
      assert.equal(last, {
        role: "user",
        parts: [{ functionResponse: { name: "lookup_answer", response: { output: "The answer about life is 42." } } }],
      });
    },
  );
});

test("Gemini: maxSteps ends a model that keeps calling tools, with every call answered", async () => {
  const always: ScriptedResponse = (_request, index) =>
    geminiReply([{ functionCall: { id: `fc_${index}`, name: "add", args: { a: index, b: 1 } } }], "STOP");
  await withHttp([always, always, always], async (server) => {
    const error = await runTools(
      await geminiClient(server),
      { model: "gemini-scripted", contents: "count" },
      allTools(),
      { maxSteps: 2 },
    ).catch((e: unknown) => e);
    assert.instance(error, MaxStepsError);
    const transcript = (error as MaxStepsError).messages as unknown as GeminiContent[];
    assert.equal(
      transcript.map((content) => content.role),
      ["user", "model", "user", "model", "user"],
    );
    assert.equal(transcript[4]!.parts, [{ functionResponse: { id: "fc_1", name: "add", response: { output: "2" } } }]);
    assert.is(server.requests.length, 2);
  });
});

test("Responses: JSON Patch repair offers patch_tool_arguments (not strict) and answers the patch call with the repaired call", async () => {
  const people = [{ name: "Ada", age: 340, address: { city: "London", country: "GB" } }];
  await withHttp(
    [
      () => responsesReply("resp_1", [responsesCall("call_1", "record_people", { people })]),
      () =>
        responsesReply("resp_2", [
          responsesCall("call_2", "patch_tool_arguments", {
            tool_call_id: "call_1",
            patch: [{ op: "replace", path: "/people/0/age", value: 34 }],
          }),
        ]),
      () => responsesReply("resp_3", [responsesText("Recorded.")]),
    ],
    async (server) => {
      const result = await runTools(
        openaiClient(server),
        { model: "gpt-scripted", input: "Ada, 34, London." },
        allTools(),
        { provider: "responses", repair: "jsonpatch" },
      );
      assert.is(result.content, "Recorded.");
      const tools = (name: number): string[] =>
        (body(server, name).tools as { name: string }[]).map((tool) => tool.name);
      assert.not.ok(tools(0).includes("patch_tool_arguments"));
      const patchTool = (body(server, 1).tools as { name: string; strict: boolean }[]).find(
        (tool) => tool.name === "patch_tool_arguments",
      );
      assert.is(patchTool?.strict, false);
      const input = body(server, 2).input as { type?: string; call_id?: string; output?: string }[];
      const answer = input[input.length - 1]!;
      assert.equal(
        [answer.type, answer.call_id, answer.output],
        ["function_call_output", "call_2", "Recorded 1 person: Ada."],
      );
      assert.equal(result.steps[1]!.failures, []);
    },
  );
});

test("stopWhen: toolCalled ends the loop after the step that called the tool", async () => {
  await withHttp(
    [
      () =>
        anthropicReply("msg_1", [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Rome" } },
        ]),
    ],
    async (server) => {
      const messages = [{ role: "user" as const, content: "Weather in Rome?" }];
      const result = await runTools(
        anthropicClient(server),
        { model: "claude-scripted", max_tokens: 256, messages },
        createProviderRegistry(),
        {
          stopWhen: toolCalled("get_weather"),
        },
      );
      assert.is(result.finishReason, "stopWhen");
      assert.is(result.content, "Checking.");
      assert.is(result.parsed, undefined);
      assert.is(server.requests.length, 1);
      assert.equal(
        result.steps[0]!.results.map((r) => r.status),
        ["success"],
      );
      // The transcript ends with the answer, so it can be sent again.
      assert.is(result.messages.length, 3);
    },
  );
});

test("stopWhen: stepCountIs and a custom condition, in a list (the first that holds stops the loop)", async () => {
  const always: ScriptedResponse = (_request, index) =>
    geminiReply([{ functionCall: { id: `fc_${index}`, name: "multiply", args: { a: index, b: 2 } } }], "STOP");
  await withHttp([always, always, always, always], async (server) => {
    const seen: number[] = [];
    const result = await runTools(
      await geminiClient(server),
      { model: "gemini-scripted", contents: "go" },
      allTools(),
      {
        stopWhen: [
          ({ steps }) => {
            seen.push(steps.length);
            return false;
          },
          stepCountIs(3),
        ],
      },
    );
    assert.is(result.finishReason, "stopWhen");
    assert.is(result.steps.length, 3);
    assert.equal(seen, [1, 2, 3]);
    assert.is(server.requests.length, 3);
  });
  assert.throws(() => stepCountIs(0), /positive integer/);
});

test("prepareStep: active tools and the tool choice per step; a call to an inactive tool is answered as unavailable", async () => {
  const contexts: { step: number; steps: number; messages: number }[] = [];
  const prepareStep = (context: PrepareStepContext<ResponsesLoopTypes>) => {
    contexts.push({ step: context.stepNumber, steps: context.steps.length, messages: context.messages.length });
    return context.stepNumber === 1
      ? { activeTools: ["get_weather"], toolChoice: "get_weather" }
      : { toolChoice: "none" as const };
  };
  await withHttp(
    [
      () =>
        responsesReply("resp_1", [
          responsesCall("call_1", "get_weather", { city: "Lima", unit: null }),
          responsesCall("call_2", "search_products", { keyword: "x", limit: null, filters: null }),
        ]),
      () => responsesReply("resp_2", [responsesText("21°C in Lima.")]),
    ],
    async (server) => {
      const registry: ToolRegistry = createProviderRegistry();
      const result = await runTools(
        openaiClient(server),
        { model: "gpt-scripted", input: "Weather in Lima?" },
        registry,
        { provider: "responses", prepareStep },
      );
      assert.is(result.content, "21°C in Lima.");
      assert.equal(contexts, [
        { step: 1, steps: 0, messages: 1 },
        { step: 2, steps: 1, messages: 5 },
      ]);
      const first = body(server, 0);
      assert.equal(
        (first.tools as { name: string }[]).map((tool) => tool.name),
        ["get_weather"],
      );
      assert.equal(first.tool_choice, { type: "function", name: "get_weather" });
      const second = body(server, 1);
      assert.equal(
        (second.tools as { name: string }[]).map((tool) => tool.name),
        registry.list().map((tool) => tool.name),
      );
      assert.is(second.tool_choice, "none");
      const [weather, search] = result.steps[0]!.results;
      assert.equal([weather!.status, search!.status], ["success", "error"]);
      assert.is(search!.content, "Error: search_products is not available in this step. Available tools: get_weather.");
      assert.equal(
        result.steps[0]!.failures.map((f) => [f.toolName, f.reason]),
        [["search_products", "unknown_tool"]],
      );
    },
  );
  const refused = await runTools(
    { responses: { create: () => Promise.reject(new Error("not called")) } },
    { model: "gpt-scripted", input: "x" },
    createProviderRegistry(),
    { provider: "responses", prepareStep: () => ({ activeTools: ["get_wether"] }) },
  ).catch((e: unknown) => e);
  assert.match(String(refused), /prepareStep named "get_wether" as active, but the registry has no such tool/);
});

test("Anthropic, streamed: a tool_use input that is not JSON is answered with the parse error, not guessed at", async () => {
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
  const events = (blocks: { type: string; [key: string]: unknown }[], stop: string) =>
    sse(
      [
        start,
        ...blocks,
        { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } },
        { type: "message_stop" },
      ].map((data) => ({ event: data.type as string, data })),
    );
  await withHttp(
    [
      () =>
        events(
          [
            {
              type: "content_block_start",
              index: 0,
              content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
            },
            {
              type: "content_block_delta",
              index: 0,
              delta: { type: "input_json_delta", partial_json: '{"city": Oslo}' },
            },
            { type: "content_block_stop", index: 0 },
          ],
          "tool_use",
        ),
      () =>
        events(
          [
            { type: "content_block_start", index: 0, content_block: { type: "text", text: "Sorry." } },
            { type: "content_block_stop", index: 0 },
          ],
          "end_turn",
        ),
    ],
    async (server) => {
      const messages = [{ role: "user" as const, content: "Weather in Oslo?" }];
      const run = runTools(
        anthropicClient(server),
        { model: "claude-scripted", max_tokens: 256, messages },
        createProviderRegistry(),
        { stream: true },
      );
      const result = await run.finalResult();
      assert.is(result.content, "Sorry.");
      assert.equal(
        result.steps[0]!.failures.map((f) => [f.reason, f.arguments]),
        [["malformed_arguments", '{"city": Oslo}']],
      );
      const sent = (body(server, 1).messages as { role: string; content: Record<string, unknown>[] }[])[2]!;
      assert.equal(
        sent.content.map((block) => [block.type, block.tool_use_id, block.is_error]),
        [["tool_result", "toolu_1", true]],
      );
      // The conversation still holds an object input, as Anthropic requires.
      const reply = (body(server, 1).messages as { role: string; content: Record<string, unknown>[] }[])[1]!;
      assert.is(typeof reply.content[0]!.input, "object");
    },
  );
});

test("a client of no known API, and an unknown provider name, are refused with what to pass", async () => {
  const unknown = await runTools({} as never, { model: "m", messages: [] }, createProviderRegistry()).catch(
    (e: unknown) => e,
  );
  assert.match(String(unknown), /the client is none of OpenAI/);
  const named = await runTools(
    { chat: { completions: { create: () => Promise.reject(new Error("no")) } } },
    { model: "m", messages: [] },
    createProviderRegistry(),
    {
      provider: "mistral" as "openai",
    },
  ).catch((e: unknown) => e);
  assert.match(String(named), /unknown provider "mistral"/);
});

test.run();
