/**
 * `tooltype/agents` in the OpenAI Agents SDK's own runner: `Runner.run` with the SDK's OpenAI provider on Chat
 * Completions pointed at the scripted server (scenario.ts), strict by default; checked on the request bodies and
 * on the ToolMessages the program keeps through `onToolMessage`. Also: the model's arguments text read leniently,
 * `errorFunction`, and the SDK's own approval flow for tools that ask for approval (approval.ts: the run stops with
 * an interruption; approved, rejected, a predicate; resumed from a serialized state).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Agent, OpenAIProvider, RunContext, RunState, Runner, setTracingDisabled } from "@openai/agents";
import { type ToolMessage, ToolRegistry, tool } from "tooltype";
import { ToolCallFailedError, toAgentsTools } from "tooltype/agents";
import { startScriptedServer } from "../scripted-openai/server";
import { createProviderRegistry } from "../support/provider-tools";
import { SCRIPT, USER_PROMPT, checkRequests } from "./scenario";
import { PAY_SCRIPT, WIRE_SCRIPT, approvalRegistry, checkApproved, checkPaid } from "./approval";
import type { ScriptStep } from "../scripted-openai/server";

setTracingDisabled(true);

test("Runner.run runs the tools (strict): parallel calls, a correction from tooltype's message, artifacts kept", async () => {
  const registry = createProviderRegistry();
  const server = await startScriptedServer(SCRIPT);
  const kept: ToolMessage[] = [];
  try {
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: "test", baseURL: server.baseURL, useResponses: false }),
    });
    const agent = new Agent({
      name: "shop",
      model: "scripted",
      tools: toAgentsTools(registry, { onToolMessage: (m) => kept.push(m) }),
    });
    const result = await runner.run(agent, USER_PROMPT);
    assert.is(result.finalOutput, "done");
    checkRequests(server.requests, registry, { strict: true });
    kept.sort((a, b) => a.tool_call_id.localeCompare(b.tool_call_id));
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

test("invoke: arguments text read leniently; errorFunction; needsApproval; strict: false", async () => {
  const registry = createProviderRegistry();
  const context = new RunContext();
  const [weather] = toAgentsTools(registry, { strict: false });
  assert.is(weather!.strict, false);
  assert.equal(weather!.parameters, registry.toOpenAITools()[0]!.function.parameters);
  const details = (callId: string) => ({
    toolCall: { type: "function_call" as const, callId, name: "get_weather", arguments: "" },
  });
  // Single quotes and a trailing comma: JSON.parse would refuse it.
  assert.is(
    await weather!.invoke(context, "{'city': 'Oslo',}", details("a")),
    '{"city":"Oslo","temperature":21,"unit":"celsius"}',
  );
  assert.match(String(await weather!.invoke(context, '{"city": 3', details("b"))), /^Error: .*get_weather/);

  const seen: unknown[] = [];
  const [custom] = toAgentsTools(registry, {
    errorFunction: (_context, error) => {
      seen.push(error);
      return "custom text";
    },
  });
  assert.is(await custom!.invoke(context, '{"city": "Oslo", "unit": "kelvin"}', details("c")), "custom text");
  assert.instance(seen[0], ToolCallFailedError);
  assert.match(
    (seen[0] as ToolCallFailedError).toolMessage.content,
    /must be one of "celsius", "fahrenheit"; got "kelvin"/,
  );
  const [raising] = toAgentsTools(registry, { errorFunction: null });
  await raising!.invoke(context, '{"city": "Oslo", "unit": "kelvin"}', details("d")).then(
    () => assert.unreachable("resolved"),
    (error: unknown) => assert.instance(error, ToolCallFailedError),
  );

  const guarded = tool.fromSchema(
    { name: "wire_money", parameters: { type: "object", properties: {} }, metadata: { needsApproval: true } },
    () => "sent",
  );
  const [money] = toAgentsTools(new ToolRegistry([guarded]));
  assert.is(await money!.needsApproval(context, {} as never, "x"), true);
  assert.is(await weather!.needsApproval(context, { city: "Oslo" } as never, "y"), false);
});

test("a tool that asks for approval pauses the run (an interruption) and does not run", async () => {
  let ran = false;
  const guarded = tool.fromSchema(
    { name: "wire_money", parameters: { type: "object", properties: {} }, metadata: { needsApproval: true } },
    () => {
      ran = true;
      return "sent";
    },
  );
  const server = await startScriptedServer([
    { tool_calls: [{ name: "wire_money", arguments: {} }] },
    { content: "done" },
  ]);
  try {
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: "test", baseURL: server.baseURL, useResponses: false }),
    });
    const agent = new Agent({
      name: "bank",
      model: "scripted",
      tools: toAgentsTools(new ToolRegistry([guarded]), { strict: false }),
    });
    const result = await runner.run(agent, "Pay the bill.");
    assert.equal(
      result.interruptions.map((item) => item.rawItem.type === "function_call" && item.rawItem.name),
      ["wire_money"],
    );
    assert.is(ran, false);
  } finally {
    await server.close();
  }
});

/**
 * A conversation through the SDK's approval flow: `runner.run` until it ends with no interruption, each one
 * approved or rejected (`decide`) on the run's state, which is serialized and read back (as an app that waits for
 * a human would keep it) before the run goes on from it. Returns each round's interruptions (tool name and
 * arguments) and the final output.
 */
async function converse(
  registry: ToolRegistry,
  script: ScriptStep[],
  decide: (name: string) => boolean,
): Promise<{ pauses: [string, unknown][][]; text: string }> {
  const server = await startScriptedServer(script);
  try {
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: "test", baseURL: server.baseURL, useResponses: false }),
    });
    const agent = new Agent({ name: "bank", model: "scripted", tools: toAgentsTools(registry) });
    const pauses: [string, unknown][][] = [];
    let result = await runner.run(agent, "Pay.");
    while (result.interruptions.length > 0) {
      const state = await RunState.fromString(agent, result.state.toString());
      pauses.push(
        result.interruptions.map((item) => {
          const raw = item.rawItem as { name: string; arguments: string };
          return [raw.name, JSON.parse(raw.arguments)];
        }),
      );
      for (const item of state.getInterruptions()) {
        if (decide((item.rawItem as { name: string }).name)) state.approve(item);
        else state.reject(item, { message: "The user rejected it: not today." });
      }
      result = (await runner.run(agent, state)) as unknown as typeof result;
    }
    return { pauses, text: String(result.finalOutput) };
  } finally {
    await server.close();
  }
}

test("approval: needsApproval: true interrupts the run; approved, invoke runs the call once", async () => {
  const { registry, runs } = approvalRegistry();
  const { pauses, text } = await converse(registry, WIRE_SCRIPT, () => true);
  assert.equal(pauses, [[["wire_money", { to: "Ana", amount: "5" }]]]);
  checkApproved(runs, text);
});

test("approval: a rejected call never runs; the model reads the rejection", async () => {
  const { registry, runs } = approvalRegistry();
  const { pauses, text } = await converse(registry, WIRE_SCRIPT, () => false);
  assert.is(pauses.length, 1);
  assert.equal(runs, []);
  assert.match(text, /^read: .*not today/);
});

test("approval: a needsApproval predicate interrupts only for the calls it names", async () => {
  const { registry, runs, asked } = approvalRegistry();
  const { pauses, text } = await converse(registry, PAY_SCRIPT, () => true);
  assert.equal(pauses, [[["pay", { to: "Bo", amount: "500" }]]]);
  checkPaid(runs, asked, text);
});

test.run();
