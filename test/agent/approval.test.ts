/**
 * runTools pauses for approval, on every provider (Chat Completions, Responses, Anthropic, Gemini), each through its
 * official SDK against a scripted server of its wire format: a reply with two calls that need approval and one that
 * does not pauses the run (nothing runs), the state goes through JSON into a fresh registry, and runTools resumed
 * with one approve and one reject answers all three calls in the next request, then finishes. A streamed run pauses
 * the same way and starts no call before its reply has ended.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ToolRegistry } from "tooltype";
import { type LoopTypes, type RunToolsApprovalState, type RunToolsResult, runTools } from "tooltype/loop";
import { anthropicReply, geminiReply, responsesCall, responsesReply, responsesText } from "../support/provider-replies";
import { startScriptedHttp } from "../support/scripted-http";
import { fileTools } from "../support/approval-tools";

const completion = (message: Record<string, unknown>, finish: string) =>
  ({
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "gpt-scripted",
    choices: [
      { index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason: finish, logprobs: null },
    ],
  }) as unknown as ChatCompletion;

const CALLS = [
  { id: "call_1", type: "function", function: { name: "remove", arguments: '{"path":"a.txt"}' } },
  { id: "call_2", type: "function", function: { name: "remove", arguments: '{"path":"b.txt"}' } },
  { id: "call_3", type: "function", function: { name: "list", arguments: '{"dir":"."}' } },
];

test("runTools pauses, the state survives JSON and a fresh registry, and resumes with one approve and one reject", async () => {
  const server = await startScriptedHttp([
    () => completion({ content: null, tool_calls: CALLS }, "tool_calls"),
    () => completion({ content: "Removed a.txt." }, "stop"),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const params = { model: "gpt-scripted", messages: [{ role: "user" as const, content: "Clean up" }] };
    const ranBefore: string[] = [];
    const paused = await runTools(client, params, fileTools(ranBefore));
    assert.ok(paused.paused);
    assert.is(paused.content, null);
    assert.equal(ranBefore, []);
    assert.equal(
      paused.paused!.pending.map((p) => [p.id, p.args]),
      [
        ["call_1", { path: "a.txt" }],
        ["call_2", { path: "b.txt" }],
      ],
    );

    const state = JSON.parse(JSON.stringify(paused.paused!.state)) as RunToolsApprovalState;
    const ran: string[] = [];
    const done = await runTools(client, params, fileTools(ran), {
      resume: {
        state,
        decisions: [
          { id: "call_1", approved: true },
          { id: "call_2", approved: false, reason: "Keep b.txt." },
        ],
      },
    });
    assert.is(done.content, "Removed a.txt.");
    assert.is(done.paused, undefined);
    assert.equal(ran.sort(), ["list .", "remove a.txt"]);
    const sent = (server.requests[1]!.body as { messages: { role: string; tool_call_id?: string; content: unknown }[] })
      .messages;
    assert.equal(sent.slice(2), [
      { role: "tool", tool_call_id: "call_1", content: "removed a.txt" },
      {
        role: "tool",
        tool_call_id: "call_2",
        content: "The user rejected this call of remove, so it was not run. Reason: Keep b.txt.",
      },
      { role: "tool", tool_call_id: "call_3", content: '["a.txt","b.txt"]' },
    ]);
    assert.equal(sent[1]!.role, "assistant");
  } finally {
    await server.close();
  }
});

test("a streamed run pauses at the end of the reply without starting any call", async () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null): ChatCompletionChunk =>
    ({
      id: "s",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-scripted",
      choices: [{ index: 0, delta, finish_reason: finish }],
    }) as ChatCompletionChunk;
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
  const stream = runTools(
    client as never,
    { model: "m", messages: [{ role: "user", content: "Clean up" }] },
    fileTools(ran),
    { stream: true },
  );
  const result = await stream.finalResult();
  assert.equal(
    result.paused?.pending.map((p) => p.id),
    ["call_1", "call_2"],
  );
  assert.equal(ran, []);
});

test("a streamed reply whose calls need no approval runs them once it has ended, and the loop goes on", async () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null): ChatCompletionChunk =>
    ({
      id: "s",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-scripted",
      choices: [{ index: 0, delta, finish_reason: finish }],
    }) as ChatCompletionChunk;
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
  const stream = runTools(
    client as never,
    { model: "m", messages: [{ role: "user", content: "List" }] },
    fileTools(ran),
    { stream: true },
  );
  const events: string[] = [];
  for await (const event of stream) events.push(event.type);
  const result = await stream.finalResult();
  assert.is(result.content, "Two files.");
  assert.equal(ran, ["list ."]);
  assert.is(events.filter((type) => type === "tool_call").length, 1);
  assert.is(events.filter((type) => type === "tool_result").length, 1);
});

// ---- every provider runTools drives --------------------------------------------------------------------------

/** One API: its client run against `origin`, its scripted replies, and the answers of a request's last turn. */
interface Api {
  name: string;
  calls(calls: { id: string; name: string; args: Record<string, unknown> }[]): unknown;
  text(text: string): unknown;
  run(origin: string, registry: ToolRegistry, options: object): Promise<RunToolsResult<unknown, undefined, LoopTypes>>;
  answersOf(body: Record<string, unknown>): [string, boolean, string][];
}

const apis: Api[] = [
  {
    name: "responses",
    calls: (calls) =>
      responsesReply(
        "r",
        calls.map((call) => responsesCall(call.id, call.name, call.args)),
      ),
    text: (text) => responsesReply("r", [responsesText(text)]),
    run: (origin, registry, options) =>
      runTools(
        new OpenAI({ baseURL: `${origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 }),
        { model: "g", input: "Clean up" },
        registry,
        { ...options, provider: "responses" },
      ) as never,
    answersOf: (body) =>
      (body.input as Record<string, unknown>[])
        .filter((item) => item.type === "function_call_output")
        .map((item) => [item.call_id as string, /rejected/.test(item.output as string), item.output as string]),
  },
  {
    name: "anthropic",
    calls: (calls) =>
      anthropicReply(
        "m",
        calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
      ),
    text: (text) => anthropicReply("m", [{ type: "text", text }]),
    run: (origin, registry, options) =>
      runTools(
        new Anthropic({ baseURL: origin, apiKey: "test", maxRetries: 0, timeout: 10_000 }),
        { model: "c", max_tokens: 100, messages: [{ role: "user" as const, content: "Clean up" }] },
        registry,
        options,
      ) as never,
    answersOf: (body) => {
      const messages = body.messages as { content: Record<string, unknown>[] }[];
      return messages[messages.length - 1]!.content.map((block) => [
        block.tool_use_id as string,
        block.is_error === true,
        block.content as string,
      ]);
    },
  },
  {
    name: "gemini",
    calls: (calls) =>
      geminiReply(
        calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.args } })),
        "STOP",
      ),
    text: (text) => geminiReply([{ text }], "STOP"),
    run: async (origin, registry, options) => {
      const { GoogleGenAI } = await import("@google/genai");
      return runTools(
        new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: origin, timeout: 10_000 } }),
        { model: "g", contents: "Clean up" },
        registry,
        options,
      ) as never;
    },
    answersOf: (body) => {
      const contents = body.contents as {
        parts: { functionResponse: { id: string; response: { output?: unknown; error?: string } } }[];
      }[];
      return contents[contents.length - 1]!.parts.map(({ functionResponse: { id, response } }) => [
        id,
        response.error !== undefined,
        String(response.error ?? JSON.stringify(response.output)),
      ]);
    },
  },
];

for (const api of apis) {
  test(`${api.name}: runTools pauses, and resumes after JSON in a fresh registry with one approve and one reject`, async () => {
    const calls = CALLS.map((call) => ({
      id: call.id,
      name: call.function.name,
      args: JSON.parse(call.function.arguments) as Record<string, unknown>,
    }));
    const server = await startScriptedHttp([() => api.calls(calls), () => api.text("Removed a.txt.")]);
    try {
      const ranBefore: string[] = [];
      const paused = await api.run(server.origin, fileTools(ranBefore), {});
      assert.is(paused.finishReason, "paused");
      assert.equal(
        paused.paused!.pending.map((p) => p.id),
        ["call_1", "call_2"],
      );
      assert.equal(ranBefore, []);
      const state = JSON.parse(JSON.stringify(paused.paused!.state)) as RunToolsApprovalState;
      const ran: string[] = [];
      const done = await api.run(server.origin, fileTools(ran), {
        resume: {
          state,
          decisions: [
            { id: "call_1", approved: true },
            { id: "call_2", approved: false, reason: "Keep b.txt." },
          ],
        },
      });
      assert.is(done.content, "Removed a.txt.");
      assert.is(done.finishReason, "answer");
      assert.equal(ran.sort(), ["list .", "remove a.txt"]);
      const answers = api.answersOf(server.requests[1]!.body as Record<string, unknown>);
      assert.equal(
        answers.map(([id, rejected]) => [id, rejected]),
        [
          ["call_1", false],
          ["call_2", true],
          ["call_3", false],
        ],
      );
      assert.match(answers[1]![2], /rejected this call of remove, so it was not run\. Reason: Keep b\.txt\./);
    } finally {
      await server.close();
    }
  });
}

test.run();
