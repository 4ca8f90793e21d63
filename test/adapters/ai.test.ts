/**
 * `tooltype/ai` in the AI SDK's own loop: `generateText` (and `streamText`) with `@ai-sdk/openai`'s Chat
 * Completions model pointed at the scripted server (scenario.ts), checked on the request bodies; the program keeps
 * the ToolMessages (artifact included) in the step results. Also: strict mode, the abort signal, the AI SDK's own
 * approval flow for tools that ask for approval (approval.ts: approved, rejected, a predicate), and `toolCallRepair`
 * for arguments text the AI SDK cannot parse.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolMessage, ToolRegistry, tool } from "tooltype";
import { toAISDKTools, toolCallRepair } from "tooltype/ai";
import { startScriptedServer } from "../scripted-openai/server";
import { createProviderRegistry } from "../support/provider-tools";
import { SCRIPT, USER_PROMPT, checkRequests } from "./scenario";
import { PAY_SCRIPT, WIRE_SCRIPT, approvalRegistry, checkApproved, checkPaid } from "./approval";
import type { ScriptStep } from "../scripted-openai/server";

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

/**
 * A conversation through the AI SDK's approval flow: `generateText` until it ends with no `tool-approval-request`,
 * each request answered with a `tool-approval-response` (`decide` gives `approved`) and `generateText` called again
 * with the conversation. Returns each round's approval requests (tool name and input) and the final text.
 */
async function converse(
  registry: ToolRegistry,
  script: ScriptStep[],
  decide: (name: string) => boolean,
): Promise<{ pauses: [string, unknown][][]; text: string }> {
  const { generateText, stepCountIs } = await import("ai");
  const { createOpenAI } = await import("@ai-sdk/openai");
  type ModelMessage = import("ai", { with: { "resolution-mode": "import" }}).ModelMessage;
  const server = await startScriptedServer(script);
  try {
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: "test" });
    const tools = toAISDKTools(registry);
    const messages: ModelMessage[] = [{ role: "user", content: "Pay." }];
    const pauses: [string, unknown][][] = [];
    for (;;) {
      const result = await generateText({
        model: openai.chat("scripted"),
        tools,
        messages,
        stopWhen: stepCountIs(5),
        maxRetries: 0,
      });
      const requests = result.content.filter((part) => part.type === "tool-approval-request");
      if (requests.length === 0) return { pauses, text: result.text };
      pauses.push(requests.map((request) => [request.toolCall.toolName, request.toolCall.input]));
      messages.push(...result.response.messages, {
        role: "tool",
        content: requests.map((request) => ({
          type: "tool-approval-response" as const,
          approvalId: request.approvalId,
          approved: decide(request.toolCall.toolName),
          reason: "not today",
        })),
      });
    }
  } finally {
    await server.close();
  }
}

test("approval: needsApproval: true pauses with a tool-approval-request; approved, execute runs the call once", async () => {
  const { registry, runs } = approvalRegistry();
  const { pauses, text } = await converse(registry, WIRE_SCRIPT, () => true);
  // The AI SDK shows the model's input; tooltype validates (and coerces) it when the call runs.
  assert.equal(pauses, [[["wire_money", { to: "Ana", amount: "5" }]]]);
  checkApproved(runs, text);
});

test("approval: a rejected call never runs; the model reads the AI SDK's denial", async () => {
  const { registry, runs } = approvalRegistry();
  const { pauses, text } = await converse(registry, WIRE_SCRIPT, () => false);
  assert.is(pauses.length, 1);
  assert.equal(runs, []);
  assert.match(text, /^read: .*not today/);
});

test("approval: a needsApproval predicate asks only for the calls it names, with validated arguments", async () => {
  const { registry, runs, asked } = approvalRegistry();
  const tools = toAISDKTools(registry);
  assert.type(tools.pay!.needsApproval, "function");
  assert.is(tools.wire_money!.needsApproval, true);
  const { pauses, text } = await converse(registry, PAY_SCRIPT, () => true);
  assert.equal(pauses, [[["pay", { to: "Bo", amount: "500" }]]]);
  checkPaid(runs, asked, text);
});

test.run();
