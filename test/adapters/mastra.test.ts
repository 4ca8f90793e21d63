/**
 * `tooltype/mastra` in Mastra's own loop: a Mastra `Agent` (`agent.generate`) whose model is Mastra's own
 * OpenAI-compatible configuration pointed at the scripted server (scenario.ts). Mastra rewrites schemas for the
 * provider, so only their property names are compared; the calls, tooltype's error text, the correction (with
 * coercion, which Mastra's own validation would refuse) and the artifact kept out are checked on the request
 * bodies as for the other frameworks. Also Mastra's own approval flow for tools that ask for approval
 * (approval.ts): the run suspends on the call; approved, declined, a predicate.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolMessage, ToolRegistry, tool } from "tooltype";
import { toMastraTools } from "tooltype/mastra";
import { startScriptedServer } from "../scripted-openai/server";
import { createProviderRegistry } from "../support/provider-tools";
import { SCRIPT, USER_PROMPT, checkRequests } from "./scenario";
import { PAY_SCRIPT, WIRE_SCRIPT, approvalRegistry, checkApproved, checkPaid } from "./approval";
import type { ScriptStep } from "../scripted-openai/server";

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

/**
 * A conversation through Mastra's approval flow: `agent.generate` until it no longer ends suspended, each
 * suspension answered with `approveToolCallGenerate` or `declineToolCallGenerate` (`decide`). A suspended run is
 * resumed from its snapshot, kept in storage: the agent belongs to a `Mastra` with an in-memory store. Returns each
 * suspension's call (tool name and arguments) and the final text.
 */
async function converse(
  registry: ToolRegistry,
  script: ScriptStep[],
  decide: (name: string) => boolean,
): Promise<{ pauses: [string, unknown][]; text: string }> {
  const { Agent } = await import("@mastra/core/agent");
  const { Mastra } = await import("@mastra/core");
  const { InMemoryStore } = await import("@mastra/core/storage");
  const server = await startScriptedServer(script);
  try {
    const agent = new Agent({
      id: "bank",
      name: "bank",
      instructions: "Pay with the tools.",
      model: { id: "openai/scripted", url: server.baseURL, apiKey: "test", api: "chat" },
      tools: toMastraTools(registry),
    });
    new Mastra({ agents: { bank: agent }, storage: new InMemoryStore(), logger: false });
    const pauses: [string, unknown][] = [];
    let result = await agent.generate("Pay.", { maxSteps: 5 });
    while (result.finishReason === "suspended") {
      const { toolCallId, toolName, args } = result.suspendPayload as {
        toolCallId: string;
        toolName: string;
        args: unknown;
      };
      pauses.push([toolName, args]);
      const go = { runId: result.runId!, toolCallId, maxSteps: 5 };
      result = decide(toolName)
        ? await agent.approveToolCallGenerate(go)
        : await agent.declineToolCallGenerate({ ...go, reason: "not today" });
    }
    return { pauses, text: result.text };
  } finally {
    await server.close();
  }
}

test("approval: needsApproval: true suspends the run; approved, execute runs the call once", async () => {
  const { registry, runs } = approvalRegistry();
  const { pauses, text } = await converse(registry, WIRE_SCRIPT, () => true);
  assert.equal(pauses, [["wire_money", { to: "Ana", amount: "5" }]]);
  checkApproved(runs, text);
});

test("approval: a declined call never runs; the model reads the decline", async () => {
  const { registry, runs } = approvalRegistry();
  const { pauses, text } = await converse(registry, WIRE_SCRIPT, () => false);
  assert.is(pauses.length, 1);
  assert.equal(runs, []);
  assert.match(text, /^read: .*not today/);
});

test("approval: a needsApproval predicate suspends only for the calls it names", async () => {
  const { registry, runs, asked } = approvalRegistry();
  assert.type(toMastraTools(registry).pay!.requireApproval, "function");
  const { pauses, text } = await converse(registry, PAY_SCRIPT, () => true);
  assert.equal(pauses, [["pay", { to: "Bo", amount: "500" }]]);
  checkPaid(runs, asked, text);
});

test.run();
