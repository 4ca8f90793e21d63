/**
 * `tooltype/mastra` in Mastra's own loop: a Mastra `Agent` (`agent.generate`) whose model is Mastra's own
 * OpenAI-compatible configuration pointed at the scripted server (scenario.ts). Mastra rewrites schemas for the
 * provider, so only their property names are compared; the calls, tooltype's error text, the correction (with
 * coercion, which Mastra's own validation would refuse) and the artifact kept out are checked on the request
 * bodies as for the other frameworks.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolMessage, ToolRegistry, tool } from "tooltype";
import { toMastraTools } from "tooltype/mastra";
import { startScriptedServer } from "../scripted-openai/server";
import { createProviderRegistry } from "../support/provider-tools";
import { SCRIPT, USER_PROMPT, checkRequests } from "./scenario";

test("a Mastra Agent runs the tools: parallel calls, a correction from tooltype's message, artifacts kept", async () => {
  const { Agent } = await import("@mastra/core/agent");
  const registry = createProviderRegistry();
  const server = await startScriptedServer(SCRIPT);
  try {
    const agent = new Agent({
      id: "shop",
      name: "shop",
      instructions: "Answer with the tools.",
      model: { id: "openai/scripted", url: server.baseURL, apiKey: "test", api: "chat" },
      tools: toMastraTools(registry),
    });
    const result = await agent.generate(USER_PROMPT, { maxSteps: 5 });
    assert.is(result.text, "done");
    checkRequests(server.requests, registry, { rewritten: true });
    const kept = result.steps.flatMap((step) => step.toolResults.map((r) => r.payload.result as ToolMessage));
    assert.ok(kept.every((m) => m instanceof ToolMessage));
    assert.equal(
      kept.map((m) => [m.name, m.status]),
      [
        ["get_weather", "success"],
        ["search_products", "error"],
        ["search_products", "success"],
        ["lookup", "success"],
      ],
    );
    assert.equal(kept[3]!.artifact, { id: "r7", secret: "kept in process" });
  } finally {
    await server.close();
  }
});

test("strict and requireApproval are passed on", () => {
  const guarded = tool.fromSchema(
    { name: "wire_money", parameters: { type: "object", properties: {} }, metadata: { needsApproval: true } },
    () => "sent",
  );
  const tools = toMastraTools(new ToolRegistry([guarded]), { strict: true });
  assert.is(tools.wire_money!.requireApproval, true);
  assert.is(tools.wire_money!.strict, true);
  assert.is(toMastraTools(createProviderRegistry()).get_weather!.requireApproval, false);
});

test.run();
