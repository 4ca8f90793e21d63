/**
 * `tooltype/ai` in the AI SDK's own loop: `generateText` with `@ai-sdk/openai`'s Chat Completions model pointed at
 * the scripted server (scenario.ts), checked on the request bodies; the program keeps the ToolMessages (artifact
 * included) in the step results. Also: strict mode, the abort signal, and a tool that asks for approval.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolMessage, ToolRegistry, tool } from "tooltype";
import { toAISDKTools } from "tooltype/ai";
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
    assert.equal(first!.map((o) => [o.name, o.status]), [["get_weather", "success"], ["search_products", "error"]]);
    assert.equal(second!.find((o) => o.name === "lookup")!.artifact, { id: "r7", secret: "kept in process" });
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
    await generateText({ model: openai.chat("scripted"), tools: toAISDKTools(registry, { strict: true }), prompt: "hi", maxRetries: 0 });
    const sent = server.requests[0]!.tools as { function: { name: string; parameters: unknown; strict?: boolean } }[];
    const expected = registry.toOpenAITools({ strict: true });
    assert.equal(
      sent.map((t) => [t.function.name, t.function.parameters, t.function.strict]),
      expected.map((t) => [t.function.name, t.function.parameters, true]),
    );
  } finally {
    await server.close();
  }
  const guarded = tool.fromSchema({ name: "wire_money", parameters: { type: "object", properties: {} }, metadata: { needsApproval: true } }, () => "sent");
  const tools = toAISDKTools(new ToolRegistry([guarded]));
  assert.is(tools.wire_money!.needsApproval, true);
  assert.is(toAISDKTools(registry).get_weather!.needsApproval, undefined);
});

test("execute: the caller's abort signal reaches the tool; a subset of tools by name", async () => {
  let seen: AbortSignal | undefined;
  const waits = tool.fromSchema({ name: "waits", parameters: { type: "object", properties: {} } }, (_args, context) => {
    seen = context.signal;
    return new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(context.signal.reason)));
  });
  const registry = new ToolRegistry([waits]);
  const tools = toAISDKTools(registry, { tools: ["waits"] });
  const controller = new AbortController();
  const running = tools.waits!.execute!({}, { toolCallId: "c1", messages: [], abortSignal: controller.signal, context: {} });
  controller.abort(new Error("user left"));
  await (running as Promise<unknown>).then(
    () => assert.unreachable("resolved after abort"),
    (error: unknown) => assert.match(String(error), /user left/),
  );
  assert.ok(seen?.aborted);
  assert.throws(() => toAISDKTools(registry, { tools: ["nope"] }), /No tool named "nope" in the registry \(it has waits\)/);
});

test.run();
