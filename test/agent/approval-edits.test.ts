/**
 * Approvals with edited arguments through runTools, on every provider it drives (Chat Completions, Responses,
 * Anthropic, Gemini), each through its official SDK against a scripted server: a run pauses for two calls, the
 * state goes through JSON into a fresh registry, and the resume approves one call with an edit that fits (it runs
 * with the edit, and its answer tells the model so) and one with an edit that does not (nothing runs, and the answer
 * names the argument and says the edit was refused). The call that needed no approval runs as it came.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import type { ToolRegistry } from "tooltype";
import { type LoopTypes, type RunToolsApprovalState, type RunToolsResult, runTools } from "tooltype/loop";
import { anthropicReply, geminiReply, responsesCall, responsesReply, responsesText } from "../support/provider-replies";
import { startScriptedHttp } from "../support/scripted-http";
import { fileTools } from "../support/approval-tools";

const CALLS = [
  { id: "call_1", name: "remove", args: { path: "a.txt" } },
  { id: "call_2", name: "remove", args: { path: "b.txt" } },
  { id: "call_3", name: "list", args: { dir: "." } },
];

/** One API: its client run against `origin`, its scripted replies, and the texts of the answers in a request. */
interface Api {
  name: string;
  calls(): unknown;
  text(text: string): unknown;
  run(origin: string, registry: ToolRegistry, options: object): Promise<RunToolsResult<unknown, undefined, LoopTypes>>;
  answersOf(body: Record<string, unknown>): [string, string][];
}

const completion = (message: Record<string, unknown>, finish: string) =>
  ({
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "g",
    choices: [
      { index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason: finish, logprobs: null },
    ],
  }) as unknown as ChatCompletion;

const apis: Api[] = [
  {
    name: "openai-chat",
    calls: () =>
      completion(
        {
          content: null,
          tool_calls: CALLS.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          })),
        },
        "tool_calls",
      ),
    text: (text) => completion({ content: text }, "stop"),
    run: (origin, registry, options) =>
      runTools(
        new OpenAI({ baseURL: `${origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 }),
        { model: "g", messages: [{ role: "user" as const, content: "Clean up" }] },
        registry,
        options,
      ) as never,
    answersOf: (body) =>
      (body.messages as Record<string, unknown>[])
        .filter((message) => message.role === "tool")
        .map((message) => [message.tool_call_id as string, message.content as string]),
  },
  {
    name: "responses",
    calls: () =>
      responsesReply(
        "r",
        CALLS.map((call) => responsesCall(call.id, call.name, call.args)),
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
        .map((item) => [item.call_id as string, item.output as string]),
  },
  {
    name: "anthropic",
    calls: () =>
      anthropicReply(
        "m",
        CALLS.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
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
        block.content as string,
      ]);
    },
  },
  {
    name: "gemini",
    calls: () =>
      geminiReply(
        CALLS.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.args } })),
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
        String(response.error ?? JSON.stringify(response.output)),
      ]);
    },
  },
];

for (const api of apis) {
  test(`${api.name}: an approval with a fitting edit runs the edit and says so; one with an edit that does not fit runs nothing and says why`, async () => {
    const server = await startScriptedHttp([() => api.calls(), () => api.text("Done.")]);
    try {
      const paused = await api.run(server.origin, fileTools([]), {});
      assert.is(paused.finishReason, "paused");
      const state = JSON.parse(JSON.stringify(paused.paused!.state)) as RunToolsApprovalState;
      const ran: string[] = [];
      const done = await api.run(server.origin, fileTools(ran), {
        resume: {
          state,
          decisions: [
            { id: "call_1", approved: true, args: { path: "c.txt" } },
            { id: "call_2", approved: true, args: { path: ["b.txt"] } },
          ],
        },
      });
      assert.is(done.content, "Done.");
      assert.equal(ran.sort(), ["list .", "remove c.txt"]);
      const answers = api.answersOf(server.requests[1]!.body as Record<string, unknown>);
      assert.equal(
        answers.map(([id]) => id),
        ["call_1", "call_2", "call_3"],
      );
      assert.match(
        answers[0]![1],
        /The user edited the arguments of this call before approving it; it ran with \{\\?"path\\?":\\?"c\.txt\\?"\}\./,
      );
      assert.match(answers[0]![1], /removed c\.txt/);
      assert.match(answers[1]![1], /approved this call of remove with edited arguments, but the edit does not fit/);
      assert.match(answers[1]![1], /path/);
      assert.not.match(answers[2]![1], /edited/);
    } finally {
      await server.close();
    }
  });
}

test.run();
