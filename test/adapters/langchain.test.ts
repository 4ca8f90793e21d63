/**
 * `tooltype/langchain` in LangChain's own loops, with `@langchain/openai`'s ChatOpenAI pointed at the scripted
 * server (scenario.ts): `createAgent` from `langchain`, and `model.bindTools` driven by LangGraph's `ToolNode`.
 * Checked on the request bodies and on the LangChain ToolMessages the program keeps (status, artifact). Also:
 * direct invocation, `returnDirect`, and the abort signal.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { ToolRegistry, tool } from "tooltype";
import { deferred } from "../support/deferred";
import { ToolCallFailedError, toLangChainTools } from "tooltype/langchain";
import { startScriptedServer } from "../scripted-openai/server";
import { createProviderRegistry } from "../support/provider-tools";
import { SCRIPT, USER_PROMPT, checkRequests } from "./scenario";

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

test.run();
