/**
 * runTools pauses for approval: with the official OpenAI SDK against a scripted Chat Completions server, a reply with
 * two calls that need approval and one that does not pauses the run (nothing runs), the state goes through JSON into
 * a fresh registry, and runTools resumed with one approve and one reject answers all three calls in the next
 * request, then finishes. Streamed runs pause the same way.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import { type RunToolsApprovalState, ToolRegistry, runTools, tool } from "tooltype";
import { startScriptedHttp } from "../support/scripted-http";

function makeRegistry(ran: string[]) {
  /**
   * Delete a file.
   * @param path File path
   */
  const remove = tool(
    function remove(path: string) {
      ran.push(`remove ${path}`);
      return `removed ${path}`;
    },
    { needsApproval: true },
  );
  /**
   * List files.
   * @param dir Directory
   */
  const list = tool(function list(dir: string) {
    ran.push(`list ${dir}`);
    return ["a.txt", "b.txt"];
  });
  return new ToolRegistry([remove, list]);
}

const completion = (message: Record<string, unknown>, finish: string) =>
  ({ id: "c", object: "chat.completion", created: 1, model: "gpt-scripted", choices: [{ index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason: finish, logprobs: null }] }) as unknown as ChatCompletion;

const CALLS = [
  { id: "call_1", type: "function", function: { name: "remove", arguments: '{"path":"a.txt"}' } },
  { id: "call_2", type: "function", function: { name: "remove", arguments: '{"path":"b.txt"}' } },
  { id: "call_3", type: "function", function: { name: "list", arguments: '{"dir":"."}' } },
];

test("runTools pauses, the state survives JSON and a fresh registry, and resumes with one approve and one reject", async () => {
  const server = await startScriptedHttp([() => completion({ content: null, tool_calls: CALLS }, "tool_calls"), () => completion({ content: "Removed a.txt." }, "stop")]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const params = { model: "gpt-scripted", messages: [{ role: "user" as const, content: "Clean up" }] };
    const ranBefore: string[] = [];
    const paused = await runTools(client, params, makeRegistry(ranBefore));
    assert.ok(paused.paused);
    assert.is(paused.content, null);
    assert.equal(ranBefore, []);
    assert.equal(paused.paused!.pending.map((p) => [p.id, p.args]), [["call_1", { path: "a.txt" }], ["call_2", { path: "b.txt" }]]);

    const state = JSON.parse(JSON.stringify(paused.paused!.state)) as RunToolsApprovalState;
    const ran: string[] = [];
    const done = await runTools(client, params, makeRegistry(ran), {
      resume: { state, decisions: [{ id: "call_1", approved: true }, { id: "call_2", approved: false, reason: "Keep b.txt." }] },
    });
    assert.is(done.content, "Removed a.txt.");
    assert.is(done.paused, undefined);
    assert.equal(ran.sort(), ["list .", "remove a.txt"]);
    const sent = (server.requests[1]!.body as { messages: { role: string; tool_call_id?: string; content: unknown }[] }).messages;
    assert.equal(sent.slice(2), [
      { role: "tool", tool_call_id: "call_1", content: "removed a.txt" },
      { role: "tool", tool_call_id: "call_2", content: "The user rejected this call of remove, so it was not run. Reason: Keep b.txt." },
      { role: "tool", tool_call_id: "call_3", content: '["a.txt","b.txt"]' },
    ]);
    assert.equal(sent[1]!.role, "assistant");
  } finally {
    await server.close();
  }
});

test("a streamed run pauses at the end of the reply without starting any call", async () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null): ChatCompletionChunk =>
    ({ id: "s", object: "chat.completion.chunk", created: 1, model: "gpt-scripted", choices: [{ index: 0, delta, finish_reason: finish }] }) as ChatCompletionChunk;
  const sse = [
    chunk({ role: "assistant", tool_calls: CALLS.map((call, index) => ({ index, ...call })) }, null),
    chunk({}, "tool_calls"),
  ];
  const client = {
    chat: {
      completions: {
        create: async () =>
          (async function* () {
            yield* sse;
          })(),
      },
    },
  };
  const ran: string[] = [];
  const stream = runTools(client as never, { model: "m", messages: [{ role: "user", content: "Clean up" }] }, makeRegistry(ran), { stream: true });
  const result = await stream.finalResult();
  assert.equal(result.paused?.pending.map((p) => p.id), ["call_1", "call_2"]);
  assert.equal(ran, []);
});

test("a streamed reply whose calls need no approval runs them once it has ended, and the loop goes on", async () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null): ChatCompletionChunk =>
    ({ id: "s", object: "chat.completion.chunk", created: 1, model: "gpt-scripted", choices: [{ index: 0, delta, finish_reason: finish }] }) as ChatCompletionChunk;
  const replies = [
    [chunk({ role: "assistant", tool_calls: [{ index: 0, ...CALLS[2]! }] }, null), chunk({}, "tool_calls")],
    [chunk({ role: "assistant", content: "Two files." }, null), chunk({}, "stop")],
  ];
  let request = 0;
  const client = {
    chat: {
      completions: {
        create: async () => {
          const chunks = replies[request++]!;
          return (async function* () {
            yield* chunks;
          })();
        },
      },
    },
  };
  const ran: string[] = [];
  const stream = runTools(client as never, { model: "m", messages: [{ role: "user", content: "List" }] }, makeRegistry(ran), { stream: true });
  const events: string[] = [];
  for await (const event of stream) events.push(event.type);
  const result = await stream.finalResult();
  assert.is(result.content, "Two files.");
  assert.equal(ran, ["list ."]);
  assert.is(events.filter((type) => type === "tool_call").length, 1);
  assert.is(events.filter((type) => type === "tool_result").length, 1);
});

test.run();
