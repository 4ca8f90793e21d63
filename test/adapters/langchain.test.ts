/**
 * `tooltype/langchain` in LangChain's own loops, with `@langchain/openai`'s ChatOpenAI pointed at the scripted
 * server (scenario.ts): `createAgent` from `langchain`, and `model.bindTools` driven by LangGraph's `ToolNode`.
 * Checked on the request bodies and on the LangChain ToolMessages the program keeps (status, artifact). Also:
 * direct invocation, `returnDirect`, the abort signal, and approval through LangChain's human-in-the-loop middleware
 * (approval.ts: approved, rejected, edited, a predicate; without the middleware, refused).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { type Decision, type HITLRequest, createAgent, humanInTheLoopMiddleware } from "langchain";
import { ApprovalRequiredError, ToolRegistry, tool } from "tooltype";
import { deferred } from "../support/deferred";
import { ToolCallFailedError, toLangChainHumanInTheLoop, toLangChainTools } from "tooltype/langchain";
import { startScriptedServer } from "../scripted-openai/server";
import { createProviderRegistry } from "../support/provider-tools";
import { SCRIPT, USER_PROMPT, checkRequests } from "./scenario";
import { PAY_SCRIPT, WIRE_SCRIPT, approvalRegistry, checkApproved, checkPaid } from "./approval";
import type { ScriptStep } from "../scripted-openai/server";

function chatModel(baseURL: string): ChatOpenAI {
  return new ChatOpenAI({ model: "scripted", apiKey: "test", maxRetries: 0, configuration: { baseURL } });
}

function checkKept(messages: BaseMessage[]): void {
  const tools = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  assert.equal(
    tools.map((m) => [m.name, m.status]),
    [
      ["get_weather", "success"],
      ["search_products", "error"],
      ["search_products", "success"],
      ["lookup", "success"],
    ],
  );
  assert.equal(tools[3]!.artifact, { id: "r7", secret: "kept in process" });
}

test("createAgent (langchain) runs the tools: parallel calls, a correction from tooltype's message, artifacts kept", async () => {
  const registry = createProviderRegistry();
  const server = await startScriptedServer(SCRIPT);
  try {
    const agent = createAgent({ model: chatModel(server.baseURL), tools: toLangChainTools(registry) });
    const result = await agent.invoke({ messages: [new HumanMessage(USER_PROMPT)] });
    const messages = result.messages as BaseMessage[];
    assert.is(messages.at(-1)!.content, "done");
    checkRequests(server.requests, registry);
    checkKept(messages);
  } finally {
    await server.close();
  }
});

test("model.bindTools + LangGraph's ToolNode: the same conversation", async () => {
  const registry = createProviderRegistry();
  const server = await startScriptedServer(SCRIPT);
  try {
    const tools = toLangChainTools(registry);
    const model = chatModel(server.baseURL).bindTools(tools);
    const node = new ToolNode(tools);
    const messages: BaseMessage[] = [new HumanMessage(USER_PROMPT)];
    for (let step = 0; step < 5; step++) {
      const reply = await model.invoke(messages);
      messages.push(reply);
      if (!AIMessage.isInstance(reply) || !reply.tool_calls?.length) break;
      const answered = (await node.invoke({ messages })) as { messages: BaseMessage[] };
      messages.push(...answered.messages);
    }
    assert.is(messages.at(-1)!.content, "done");
    checkRequests(server.requests, registry);
    checkKept(messages);
  } finally {
    await server.close();
  }
});

test("invoked directly: a ToolCall gives a ToolMessage, plain arguments the content; returnDirect; the abort signal", async () => {
  const registry = createProviderRegistry();
  const [weather, , , lookup] = toLangChainTools(registry);
  assert.is(
    await weather!.invoke({ city: "Oslo", unit: "fahrenheit" }),
    '{"city":"Oslo","temperature":70,"unit":"fahrenheit"}',
  );
  assert.equal(await lookup!.invoke({ id: "x" }), ["Record x found.", { id: "x", secret: "kept in process" }]);
  const answer = (await weather!.invoke({
    id: "c9",
    name: "get_weather",
    args: { city: "Oslo", unit: "kelvin" },
    type: "tool_call",
  })) as ToolMessage;
  assert.ok(ToolMessage.isInstance(answer));
  assert.equal([answer.tool_call_id, answer.status], ["c9", "error"]);
  assert.match(
    String(answer.content),
    /^Error: invalid arguments for get_weather:\n- \/unit: must be one of "celsius", "fahrenheit"; got "kelvin"/,
  );
  await weather!.invoke({ city: "Oslo", unit: "kelvin" }).then(
    () => assert.unreachable("invalid arguments resolved"),
    (error: unknown) => assert.instance(error, ToolCallFailedError),
  );

  const final = tool.fromSchema(
    { name: "final", parameters: { type: "object", properties: {} }, returnDirect: true },
    () => "the end",
  );
  let seen: AbortSignal | undefined;
  const started = deferred();
  const waits = tool.fromSchema({ name: "waits", parameters: { type: "object", properties: {} } }, (_args, context) => {
    seen = context.signal;
    started.resolve();
    return new Promise((_resolve, reject) =>
      context.signal.addEventListener("abort", () => reject(context.signal.reason)),
    );
  });
  const [finalTool, waitsTool] = toLangChainTools(new ToolRegistry([final, waits]));
  assert.is(finalTool!.returnDirect, true);
  assert.is(waitsTool!.returnDirect, false);
  const controller = new AbortController();
  const running = waitsTool!.invoke({}, { signal: controller.signal });
  await started.promise;
  controller.abort(new Error("user left"));
  await running.then(
    () => assert.unreachable("resolved after abort"),
    (error: unknown) => assert.match(String(error), /user left|abort/i),
  );
  assert.ok(seen?.aborted);
});

/**
 * A conversation through LangChain's human-in-the-loop middleware: `createAgent` with the middleware and a
 * checkpointer, invoked until it ends with no interrupt, each interrupt answered by `agent.invoke(new Command({
 * resume: { decisions } }))` (`decide` gives each call's decision). Returns each interrupt's calls (tool name and
 * arguments) and the final text.
 */
async function converse(
  registry: ToolRegistry,
  script: ScriptStep[],
  decide: (name: string, args: Record<string, unknown>) => Decision,
): Promise<{ pauses: [string, unknown][][]; text: string }> {
  const server = await startScriptedServer(script);
  try {
    const { tools, interruptOn } = toLangChainHumanInTheLoop(registry);
    const agent = createAgent({
      model: chatModel(server.baseURL),
      tools,
      middleware: [humanInTheLoopMiddleware({ interruptOn })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "bank" } };
    const pauses: [string, unknown][][] = [];
    let result = await agent.invoke({ messages: [new HumanMessage("Pay.")] }, config);
    for (;;) {
      const interrupt = (result as { __interrupt__?: { value: HITLRequest }[] }).__interrupt__?.[0];
      if (!interrupt) break;
      const requests = interrupt.value.actionRequests;
      pauses.push(requests.map((request) => [request.name, request.args]));
      const decisions = requests.map((request) => decide(request.name, request.args));
      result = await agent.invoke(new Command({ resume: { decisions } }), config);
    }
    return { pauses, text: String((result.messages as BaseMessage[]).at(-1)!.content) };
  } finally {
    await server.close();
  }
}

test("approval: the middleware interrupts a needsApproval: true call; approved, the tool runs it once", async () => {
  const { registry, runs } = approvalRegistry();
  const { interruptOn } = toLangChainHumanInTheLoop(registry);
  assert.equal(Object.keys(interruptOn), ["wire_money", "pay"]);
  assert.is(interruptOn.wire_money!.when, undefined);
  assert.type(interruptOn.pay!.when, "function");
  const { pauses, text } = await converse(registry, WIRE_SCRIPT, () => ({ type: "approve" }));
  assert.equal(pauses, [[["wire_money", { to: "Ana", amount: "5" }]]]);
  checkApproved(runs, text);
});

test("approval: a rejected call never runs; an edited one runs with the edit, validated as the model's", async () => {
  const rejected = approvalRegistry();
  const first = await converse(rejected.registry, WIRE_SCRIPT, () => ({ type: "reject", message: "not today" }));
  assert.is(first.pauses.length, 1);
  assert.equal(rejected.runs, []);
  assert.is(first.text, "read: not today");

  const edited = approvalRegistry();
  const second = await converse(edited.registry, WIRE_SCRIPT, (name, args) => ({
    type: "edit",
    editedAction: { name, args: { ...args, amount: "7" } },
  }));
  assert.equal(edited.runs, [["wire_money", { to: "Ana", amount: 7 }]]);
  assert.is(second.text, "read: sent 7 to Ana");
});

test("approval: a needsApproval predicate interrupts only for the calls it names", async () => {
  const { registry, runs, asked } = approvalRegistry();
  const { pauses, text } = await converse(registry, PAY_SCRIPT, () => ({ type: "approve" }));
  assert.equal(pauses, [[["pay", { to: "Bo", amount: "500" }]]]);
  checkPaid(runs, asked, text);
});

test("approval: toLangChainTools, with no approval step of LangChain's, refuses a call that needs approval", async () => {
  const { registry, runs } = approvalRegistry();
  const [wire] = toLangChainTools(registry);
  await wire!.invoke({ to: "Ana", amount: 5 }).then(
    () => assert.unreachable("ran without approval"),
    (error: unknown) => assert.instance(error, ApprovalRequiredError),
  );
  assert.equal(runs, []);
});

test.run();
