/**
 * `tooltype/ai` in the AI SDK's own loop: `generateText` (and `streamText`) with `@ai-sdk/openai`'s Chat
 * Completions model pointed at the scripted server (scenario.ts), checked on the request bodies; the program keeps
 * the ToolMessages (artifact included) in the step results. Also: strict mode, the abort signal, a tool that asks for
 * approval, and
 * `toolCallRepair` for arguments text the AI SDK cannot parse.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolMessage, ToolRegistry, tool } from "tooltype";
import { toAISDKTools, toolCallRepair } from "tooltype/ai";
import { startScriptedServer } from "../scripted-openai/server";
import { createProviderRegistry } from "../support/provider-tools";
import { SCRIPT, USER_PROMPT, checkRequests } from "./scenario";

test("generateText runs the registry's tools: parallel calls, a correction from tooltype's message, artifacts kept out", async () => {
  const { generateText, stepCountIs } = await import("ai");
  const { createOpenAI } = await import("@ai-sdk/openai");
  const registry = createProviderRegistry();
  const server = await startScriptedServer(SCRIPT);
  try {
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: "test" });
    const result = await generateText({
      model: openai.chat("scripted"),
      tools: toAISDKTools(registry),
      prompt: USER_PROMPT,
      stopWhen: stepCountIs(5),
      maxRetries: 0,
    });
    assert.is(result.text, "done");
    checkRequests(server.requests, registry);

    // What the program keeps: the ToolMessages, with status and artifact.
    const [first, second] = [0, 1].map((step) => result.steps[step]!.toolResults.map((r) => r.output as ToolMessage));
    assert.ok([...first!, ...second!].every((o) => o instanceof ToolMessage));
    assert.equal(
      first!.map((o) => [o.name, o.status]),
      [
        ["get_weather", "success"],
        ["search_products", "error"],
      ],
    );
    assert.equal(second!.find((o) => o.name === "lookup")!.artifact, { id: "r7", secret: "kept in process" });
  } finally {
    await server.close();
  }
});

test("streamText runs the same conversation", async () => {
  const { streamText, stepCountIs } = await import("ai");
  const { createOpenAI } = await import("@ai-sdk/openai");
  const registry = createProviderRegistry();
  const server = await startScriptedServer(SCRIPT);
  try {
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: "test" });
    const result = streamText({
      model: openai.chat("scripted"),
      tools: toAISDKTools(registry),
      prompt: USER_PROMPT,
      stopWhen: stepCountIs(5),
      maxRetries: 0,
    });
    assert.is(await result.text, "done");
    checkRequests(server.requests, registry);
    assert.ok(server.requests.every((request) => request.stream === true));
  } finally {
    await server.close();
  }
});

test("strict: the strict rewrite and strict: true reach the request; needsApproval is passed on", async () => {
  const { generateText } = await import("ai");
  const { createOpenAI } = await import("@ai-sdk/openai");
  const registry = createProviderRegistry();
  const server = await startScriptedServer([{ content: "ok" }]);
  try {
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: "test" });
    await generateText({
      model: openai.chat("scripted"),
      tools: toAISDKTools(registry, { strict: true }),
      prompt: "hi",
      maxRetries: 0,
    });
    const sent = server.requests[0]!.tools as { function: { name: string; parameters: unknown; strict?: boolean } }[];
    const expected = registry.toOpenAITools({ strict: true });
    assert.equal(
      sent.map((t) => [t.function.name, t.function.parameters, t.function.strict]),
      expected.map((t) => [t.function.name, t.function.parameters, true]),
    );
  } finally {
    await server.close();
  }
  const guarded = tool.fromSchema(
    { name: "wire_money", parameters: { type: "object", properties: {} }, metadata: { needsApproval: true } },
    () => "sent",
  );
  const tools = toAISDKTools(new ToolRegistry([guarded]));
  assert.is(tools.wire_money!.needsApproval, true);
  assert.is(toAISDKTools(registry).get_weather!.needsApproval, undefined);
});

test("execute: the caller's abort signal reaches the tool; a subset of tools by name", async () => {
  let seen: AbortSignal | undefined;
  const waits = tool.fromSchema({ name: "waits", parameters: { type: "object", properties: {} } }, (_args, context) => {
    seen = context.signal;
    return new Promise((_resolve, reject) =>
      context.signal.addEventListener("abort", () => reject(context.signal.reason)),
    );
  });
  const registry = new ToolRegistry([waits]);
  const tools = toAISDKTools(registry, { tools: ["waits"] });
  const controller = new AbortController();
  const running = tools.waits!.execute!(
    {},
    { toolCallId: "c1", messages: [], abortSignal: controller.signal, context: {} },
  );
  controller.abort(new Error("user left"));
  await (running as Promise<unknown>).then(
    () => assert.unreachable("resolved after abort"),
    (error: unknown) => assert.match(String(error), /user left/),
  );
  assert.ok(seen?.aborted);
  assert.throws(
    () => toAISDKTools(registry, { tools: ["nope"] }),
    /No tool named "nope" in the registry \(it has waits\)/,
  );
});

test("toolCallRepair: arguments text the AI SDK refuses is read leniently by tooltype; unreadable text stays an error", async () => {
  const { generateText, stepCountIs } = await import("ai");
  const { createOpenAI } = await import("@ai-sdk/openai");
  const registry = createProviderRegistry();
  const server = await startScriptedServer([
    {
      tool_calls: [
        { name: "get_weather", arguments: "{'city': 'Paris', unit: 'fahrenheit',}" },
        { name: "get_weather", arguments: '{"city": ' },
      ],
    },
    { content: "done" },
  ]);
  try {
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: "test" });
    const result = await generateText({
      model: openai.chat("scripted"),
      tools: toAISDKTools(registry),
      repairToolCall: toolCallRepair(registry),
      prompt: "Weather?",
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    assert.is(result.text, "done");
    const answers = (
      server.requests[1]!.messages as { role: string; tool_call_id?: string; content?: unknown }[]
    ).filter((m) => m.role === "tool");
    assert.equal(JSON.parse(String(answers.find((m) => m.tool_call_id === "call_1")!.content)), {
      city: "Paris",
      temperature: 70,
      unit: "fahrenheit",
    });
    // Unreadable: the AI SDK's own error reaches the model, and no tool ran.
    assert.match(String(answers.find((m) => m.tool_call_id === "call_2")!.content), /error/i);
    assert.equal(
      result.steps[0]!.toolResults.map((r) => r.toolCallId),
      ["call_1"],
    );
  } finally {
    await server.close();
  }
});

test.run();
