/**
 * The check of the worker's plain dispatch routes, shared by the Workers and Bun tests: the OpenAI SDK asks the
 * scripted server for a reply with the tools the worker lists at /tools, and the reply's message posted to
 * /dispatch comes back as ToolMessages in call order (a result, a ToolError's text, an invalid call's error).
 */
import * as assert from "uvu/assert";
import OpenAI from "openai";
import type { ChatCompletionTool } from "openai/resources/chat/completions";
import { startScriptedServer } from "../../scripted-openai/server";

export async function checkDispatchRoute(base: URL): Promise<void> {
  const scripted = await startScriptedServer([
    {
      tool_calls: [
        { name: "add", arguments: { values: [2, 3] } },
        { name: "refuse", arguments: { what: "guess" } },
        { name: "add", arguments: '{"values": [1, "x"]}' },
      ],
    },
  ]);
  try {
    await askAndDispatch(base, new OpenAI({ baseURL: scripted.baseURL, apiKey: "test", maxRetries: 0 }));
  } finally {
    await scripted.close();
  }
}

async function askAndDispatch(base: URL, openai: OpenAI): Promise<void> {
  const tools = (await (
    await fetch(new URL("/tools", base), { signal: AbortSignal.timeout(10_000) })
  ).json()) as ChatCompletionTool[];
  assert.ok(tools.some((t) => t.type === "function" && t.function.name === "add"));
  const completion = await openai.chat.completions.create({
    model: "scripted",
    messages: [{ role: "user", content: "Add 2 and 3." }],
    tools,
  });
  const reply = completion.choices[0]!.message;
  const answered = await fetch(new URL("/dispatch", base), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(reply),
    signal: AbortSignal.timeout(10_000),
  });
  assert.is(answered.status, 200);
  const messages = (await answered.json()) as { role: string; tool_call_id: string; content: string }[];
  const ids = reply.tool_calls!.map((c) => c.id);
  assert.equal(
    messages.map((m) => [m.role, m.tool_call_id]),
    ids.map((id) => ["tool", id]),
  );
  assert.is(messages[0]!.content, '{"total":5,"count":2}');
  assert.is(messages[1]!.content, "I will not guess.");
  assert.match(messages[2]!.content, /^Error: invalid arguments for add:\n- \/values\/1: must be a number; got "x"/);
}
