/**
 * runTools' `allowedTools` and Gemini's `"validated"` choice, each through its official SDK against a scripted
 * server: the `tools` of every request are the same (the prompt cache keeps them) while prepareStep's active tools
 * go out as the API's narrowing (Chat Completions' and the Responses API's `allowed_tools` tool choice, each in its
 * shape; Gemini's `allowedFunctionNames`, under VALIDATED for "auto" and ANY for "required"); a call to an inactive
 * tool is still answered as unavailable; `toolChoice` writes the same shapes; Anthropic and the other APIs refuse
 * what they cannot express.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { ToolExportError, toolChoice } from "tooltype";
import { runTools } from "tooltype/loop";
import { geminiReply, responsesCall, responsesReply, responsesText } from "../support/provider-replies";
import { createProviderRegistry } from "../support/provider-tools";
import { type ScriptedHttpServer, type ScriptedResponse, startScriptedHttp } from "../support/scripted-http";

async function withHttp<R>(steps: ScriptedResponse[], body: (server: ScriptedHttpServer) => Promise<R>): Promise<R> {
  const server = await startScriptedHttp(steps);
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

function openaiClient(server: ScriptedHttpServer): OpenAI {
  return new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
}

async function geminiClient(server: ScriptedHttpServer) {
  const { GoogleGenAI } = await import("@google/genai");
  return new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.origin, timeout: 10_000 } });
}

const body = (server: ScriptedHttpServer, index: number): Record<string, unknown> =>
  server.requests[index]!.body as Record<string, unknown>;

/** A Chat Completions reply: text, or tool calls. */
function chatReply(id: string, message: Record<string, unknown>): Record<string, unknown> {
  const calls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
  return {
    id,
    object: "chat.completion",
    created: 1_700_000_000,
    model: "gpt-scripted",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: null, refusal: null, ...message },
        finish_reason: calls ? "tool_calls" : "stop",
        logprobs: null,
      },
    ],
  };
}

function chatCall(id: string, name: string, args: unknown): Record<string, unknown> {
  return { id, type: "function", function: { name, arguments: JSON.stringify(args) } };
}

/** Step 1: only get_weather (forced by "required"); step 2: search_products and explode; step 3: every tool. */
const prepareStep = ({ stepNumber }: { stepNumber: number }) =>
  stepNumber === 1
    ? { activeTools: ["get_weather"], toolChoice: "required" as const }
    : stepNumber === 2
      ? { activeTools: ["search_products", "explode"] }
      : undefined;

test("Chat Completions: the same tools every step, the active ones as tool_choice allowed_tools", async () => {
  const registry = createProviderRegistry();
  await withHttp(
    [
      () => chatReply("c1", { tool_calls: [chatCall("call_1", "get_weather", { city: "Oslo" })] }),
      () => chatReply("c2", { tool_calls: [chatCall("call_2", "get_weather", { city: "Rome" })] }),
      () => chatReply("c3", { content: "Sunny in Oslo." }),
    ],
    async (server) => {
      const result = await runTools(
        openaiClient(server),
        { model: "gpt-scripted", messages: [{ role: "user", content: "Weather?" }] },
        registry,
        { allowedTools: true, prepareStep },
      );
      assert.is(result.content, "Sunny in Oslo.");
      const names = registry.list().map((tool) => tool.name);
      const requests = [0, 1, 2].map((i) => body(server, i));
      for (const request of requests) {
        assert.equal(
          (request.tools as { function: { name: string } }[]).map((tool) => tool.function.name),
          names,
        );
      }
      assert.equal(requests[1]!.tools, requests[0]!.tools);
      assert.equal(requests[2]!.tools, requests[0]!.tools);
      assert.equal(requests[0]!.tool_choice, {
        type: "allowed_tools",
        allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "get_weather" } }] },
      });
      assert.equal(requests[1]!.tool_choice, {
        type: "allowed_tools",
        allowed_tools: {
          mode: "auto",
          tools: [
            { type: "function", function: { name: "search_products" } },
            { type: "function", function: { name: "explode" } },
          ],
        },
      });
      // Every tool active again: no narrowing, no tool_choice.
      assert.not.ok("tool_choice" in requests[2]!);
      // The model called a tool outside step 2's allowed set: answered as unavailable, as without allowedTools.
      assert.is(result.steps[1]!.results[0]!.status, "error");
      assert.match(result.steps[1]!.results[0]!.content, /get_weather is not available in this step/);
      assert.is(result.steps[0]!.results[0]!.status, "success");
    },
  );
});

test("Responses API: the same tools every step, the active ones as the flat allowed_tools choice", async () => {
  const registry = createProviderRegistry();
  await withHttp(
    [
      () => responsesReply("r1", [responsesCall("call_1", "get_weather", { city: "Oslo" })]),
      () => responsesReply("r2", [responsesCall("call_2", "search_products", { keyword: "umbrella" })]),
      () => responsesReply("r3", [responsesText("Take an umbrella.")]),
    ],
    async (server) => {
      const result = await runTools(openaiClient(server), { model: "gpt-scripted", input: "Weather?" }, registry, {
        provider: "responses",
        allowedTools: true,
        prepareStep,
      });
      assert.is(result.content, "Take an umbrella.");
      const requests = [0, 1, 2].map((i) => body(server, i));
      assert.equal(
        (requests[0]!.tools as { name: string }[]).map((tool) => tool.name),
        registry.list().map((tool) => tool.name),
      );
      assert.equal(requests[1]!.tools, requests[0]!.tools);
      assert.equal(requests[2]!.tools, requests[0]!.tools);
      assert.equal(requests[0]!.tool_choice, {
        type: "allowed_tools",
        mode: "required",
        tools: [{ type: "function", name: "get_weather" }],
      });
      assert.equal(requests[1]!.tool_choice, {
        type: "allowed_tools",
        mode: "auto",
        tools: [
          { type: "function", name: "search_products" },
          { type: "function", name: "explode" },
        ],
      });
      assert.equal(
        result.steps.flatMap((step) => step.results.map((r) => r.status)),
        ["success", "success"],
      );
    },
  );
});

test("Gemini: the declarations unchanged, the active tools as allowedFunctionNames (VALIDATED for auto, ANY for required)", async () => {
  const registry = createProviderRegistry();
  await withHttp(
    [
      () => geminiReply([{ functionCall: { id: "fc_1", name: "get_weather", args: { city: "Oslo" } } }], "STOP"),
      () => geminiReply([{ functionCall: { id: "fc_2", name: "explode", args: { reason: "test" } } }], "STOP"),
      () => geminiReply([{ text: "Done." }], "STOP"),
    ],
    async (server) => {
      const result = await runTools(
        await geminiClient(server),
        { model: "gemini-scripted", contents: "Weather?" },
        registry,
        { allowedTools: true, prepareStep },
      );
      assert.is(result.content, "Done.");
      const configs = [0, 1, 2].map((i) => body(server, i).toolConfig as Record<string, unknown> | undefined);
      const tools = [0, 1, 2].map((i) => body(server, i).tools);
      assert.equal(tools[1], tools[0]);
      assert.equal(tools[2], tools[0]);
      assert.equal(
        (tools[0] as { functionDeclarations: { name: string }[] }[])[0]!.functionDeclarations.map((d) => d.name),
        registry.list().map((tool) => tool.name),
      );
      assert.equal(configs[0], {
        functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] },
      });
      assert.equal(configs[1], {
        functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: ["search_products", "explode"] },
      });
      assert.is(configs[2], undefined);
      assert.equal(
        result.steps.flatMap((step) => step.results.map((r) => r.status)),
        ["success", "error"],
      );
      assert.match(result.steps[1]!.results[0]!.content, /Cannot do that: test/);
    },
  );
});

test('Gemini: toolChoice "validated" goes out as mode VALIDATED, and stays after the model has called tools', async () => {
  await withHttp(
    [
      () => geminiReply([{ functionCall: { id: "fc_1", name: "get_weather", args: { city: "Oslo" } } }], "STOP"),
      () => geminiReply([{ text: "Sunny." }], "STOP"),
    ],
    async (server) => {
      const result = await runTools(
        await geminiClient(server),
        { model: "gemini-scripted", contents: "Weather?" },
        createProviderRegistry(),
        { toolChoice: "validated" },
      );
      assert.is(result.content, "Sunny.");
      for (const i of [0, 1]) {
        assert.equal(body(server, i).toolConfig, { functionCallingConfig: { mode: "VALIDATED" } });
      }
    },
  );
});

test("toolChoice writes the same shapes with { allowed }; validated and allowed are refused where an API has neither", () => {
  const registry = createProviderRegistry();
  const allowed = { allowed: ["get_weather", "lookup"] };
  assert.equal(toolChoice(registry, "required", "openai", allowed), {
    tool_choice: {
      type: "allowed_tools",
      allowed_tools: {
        mode: "required",
        tools: [
          { type: "function", function: { name: "get_weather" } },
          { type: "function", function: { name: "lookup" } },
        ],
      },
    },
  });
  assert.equal(toolChoice(registry, "auto", "responses", allowed), {
    tool_choice: {
      type: "allowed_tools",
      mode: "auto",
      tools: [
        { type: "function", name: "get_weather" },
        { type: "function", name: "lookup" },
      ],
    },
  });
  // A named tool or "none" needs no list.
  assert.equal(toolChoice(registry, "lookup", "openai", allowed), {
    tool_choice: { type: "function", function: { name: "lookup" } },
  });
  assert.equal(toolChoice(registry, "validated", "gemini"), {
    toolConfig: { functionCallingConfig: { mode: "VALIDATED" } },
  });
  assert.equal(toolChoice(registry, "validated", "gemini", allowed), {
    toolConfig: { functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: ["get_weather", "lookup"] } },
  });
  assert.equal(toolChoice(registry, "none", "gemini", allowed), {
    toolConfig: { functionCallingConfig: { mode: "NONE" } },
  });
  for (const format of ["openai", "responses", "anthropic", "openai-functions"] as const) {
    assert.throws(
      () => toolChoice(registry, "validated", format as "openai"),
      (error: unknown) =>
        error instanceof ToolExportError &&
        /"validated" is Gemini's mode/.test(error.message) &&
        error.format === format,
    );
  }
  assert.throws(
    () => toolChoice(registry, "auto", "anthropic", allowed),
    (error: unknown) => error instanceof ToolExportError && /Anthropic has no field that narrows/.test(error.message),
  );
});

test("runTools: allowedTools on Anthropic is refused before any request", async () => {
  let called = false;
  const refused = await runTools(
    {
      messages: {
        create: () => {
          called = true;
          return Promise.reject(new Error("not called"));
        },
      },
    },
    { model: "claude-scripted", max_tokens: 64, messages: [{ role: "user", content: "x" }] },
    createProviderRegistry(),
    { allowedTools: true },
  ).catch((error: unknown) => error);
  assert.instance(refused, TypeError);
  assert.match(String(refused), /allowedTools needs an API that narrows the callable tools/);
  assert.is(called, false);
});

test.run();
