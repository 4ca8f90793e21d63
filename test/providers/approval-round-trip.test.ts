/**
 * Approval across a process restart, in each provider's own format, through the official SDKs against scripted
 * servers: the model's reply has two calls that need approval and one that does not; dispatchWithApproval pauses,
 * the state goes through JSON into a fresh registry, resume (one approve, one reject) answers all three, and the
 * next request carries every answer in the provider's format.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { Response, ResponseInputItem } from "openai/resources/responses/responses";
import { type ApprovalDecision, type ApprovalState, ToolRegistry, tool } from "tooltype";
import { startScriptedHttp } from "../support/scripted-http";

type Content = import("@google/genai", { with: { "resolution-mode": "import" }}).Content;

function makeRegistry(ran: string[]) {
  /**
   * Book a flight.
   * @param flight Flight number
   */
  const book = tool(
    function book(flight: string) {
      ran.push(`book ${flight}`);
      return `booked ${flight}`;
    },
    { needsApproval: true },
  );
  /**
   * Flight status.
   * @param flight Flight number
   */
  const status = tool(function status(flight: string) {
    ran.push(`status ${flight}`);
    return `${flight} on time`;
  });
  return new ToolRegistry([book, status]);
}

const DECISIONS = (ids: [string, string]): ApprovalDecision[] => [
  { id: ids[0], approved: true },
  { id: ids[1], approved: false, reason: "Too expensive." },
];
const REJECTED = "The user rejected this call of book, so it was not run. Reason: Too expensive.";

/** Pause with `first`, restart, resume: the answer and what ran before and after the restart. */
async function pauseAndResume<M extends object>(first: M, ids: [string, string]) {
  const before: string[] = [];
  const paused = await makeRegistry(before).dispatchWithApproval(first as never);
  if (paused.status !== "paused") throw new Error("expected a pause");
  assert.equal(
    paused.pending.map((p) => p.id),
    ids,
  );
  const state = JSON.parse(JSON.stringify(paused.state)) as ApprovalState<M>;
  const after: string[] = [];
  const done = await makeRegistry(after).resume(state, DECISIONS(ids));
  assert.equal(before, []);
  assert.equal(after.sort(), ["book LH1", "status LH1"]);
  return done.answer;
}

test("Anthropic: one user message of three tool_result blocks after the restart", async () => {
  const message = (content: unknown[], stop: string) => ({
    id: "m",
    type: "message",
    role: "assistant",
    model: "c",
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
    content,
  });
  const server = await startScriptedHttp([
    () =>
      message(
        [
          { type: "tool_use", id: "t1", name: "book", input: { flight: "LH1" } },
          { type: "tool_use", id: "t2", name: "book", input: { flight: "LH2" } },
          { type: "tool_use", id: "t3", name: "status", input: { flight: "LH1" } },
        ],
        "tool_use",
      ),
    () => message([{ type: "text", text: "Booked LH1." }], "end_turn"),
  ]);
  try {
    const client = new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const tools = makeRegistry([]).toAnthropicTools();
    const messages: MessageParam[] = [{ role: "user", content: "Book LH1 and LH2" }];
    const first = await client.messages.create({ model: "c", max_tokens: 100, tools, messages });
    const answer = await pauseAndResume(first, ["t1", "t2"]);
    messages.push({ role: "assistant", content: first.content }, answer);
    await client.messages.create({ model: "c", max_tokens: 100, tools, messages });
    const sent = (server.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages[2];
    assert.equal(sent, {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "booked LH1" },
        { type: "tool_result", tool_use_id: "t2", content: REJECTED, is_error: true },
        { type: "tool_result", tool_use_id: "t3", content: "LH1 on time" },
      ],
    });
  } finally {
    await server.close();
  }
});

test("Responses: three function_call_output items after the restart", async () => {
  const response = (output: unknown[]) =>
    ({
      id: "r",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "g",
      output,
      parallel_tool_calls: true,
      tool_choice: "auto",
      tools: [],
    }) as unknown as Response;
  const server = await startScriptedHttp([
    () =>
      response([
        {
          type: "function_call",
          id: "fc1",
          call_id: "c1",
          name: "book",
          arguments: '{"flight":"LH1"}',
          status: "completed",
        },
        {
          type: "function_call",
          id: "fc2",
          call_id: "c2",
          name: "book",
          arguments: '{"flight":"LH2"}',
          status: "completed",
        },
        {
          type: "function_call",
          id: "fc3",
          call_id: "c3",
          name: "status",
          arguments: '{"flight":"LH1"}',
          status: "completed",
        },
      ]),
    () =>
      response([
        {
          type: "message",
          id: "m",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Done.", annotations: [] }],
        },
      ]),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const tools = makeRegistry([]).toResponsesTools();
    const input: ResponseInputItem[] = [{ role: "user", content: "Book LH1 and LH2" }];
    const first = await client.responses.create({ model: "g", input, tools });
    const answer = await pauseAndResume(first, ["c1", "c2"]);
    input.push(...(first.output as ResponseInputItem[]), ...answer);
    await client.responses.create({ model: "g", input, tools });
    const sent = (server.requests[1]!.body as { input: unknown[] }).input.slice(4);
    assert.equal(sent, [
      { type: "function_call_output", call_id: "c1", output: "booked LH1" },
      { type: "function_call_output", call_id: "c2", output: REJECTED },
      { type: "function_call_output", call_id: "c3", output: "LH1 on time" },
    ]);
  } finally {
    await server.close();
  }
});

test("Gemini: one user Content of three functionResponse parts after the restart", async () => {
  const { GoogleGenAI } = await import("@google/genai");
  const candidate = (parts: unknown[]) => ({
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
  });
  const server = await startScriptedHttp([
    () =>
      candidate([
        { functionCall: { id: "g1", name: "book", args: { flight: "LH1" } } },
        { functionCall: { id: "g2", name: "book", args: { flight: "LH2" } } },
        { functionCall: { id: "g3", name: "status", args: { flight: "LH1" } } },
      ]),
    () => candidate([{ text: "Done." }]),
  ]);
  try {
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.origin, timeout: 10_000 } });
    const config = { tools: makeRegistry([]).toGeminiTools() };
    const contents: Content[] = [{ role: "user", parts: [{ text: "Book LH1 and LH2" }] }];
    const first = await ai.models.generateContent({ model: "g", contents, config });
    const answer = await pauseAndResume(first, ["g1", "g2"]);
    contents.push(first.candidates![0]!.content!, answer);
    await ai.models.generateContent({ model: "g", contents, config });
    const sent = (server.requests[1]!.body as { contents: unknown[] }).contents[2];
    assert.equal(sent, {
      role: "user",
      parts: [
        { functionResponse: { id: "g1", name: "book", response: { output: "booked LH1" } } },
        { functionResponse: { id: "g2", name: "book", response: { error: REJECTED } } },
        { functionResponse: { id: "g3", name: "status", response: { output: "LH1 on time" } } },
      ],
    });
  } finally {
    await server.close();
  }
});

test.run();
