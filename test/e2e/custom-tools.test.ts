/**
 * Free-form tools through the official `openai` client against scripted endpoints on 127.0.0.1 (issue 48, item 5):
 * `runTools` sends them as custom tools (a `regex` grammar for the one with a pattern), reads the model's
 * `custom_tool_call` items (whole and streamed: `response.custom_tool_call_input.delta`/`.done`) and Chat's custom
 * tool calls, runs each tool with the raw text, and answers with `custom_tool_call_output` items (Responses) or tool
 * messages (Chat); a text its pattern refuses is answered with an error naming the pattern, and the tool never runs.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { runTools } from "tooltype/loop";
import { createFreeformRegistry } from "../support/freeform-tools";
import { responsesReply, responsesText } from "../support/provider-replies";
import { type RecordedRequest, sse, startScriptedHttp } from "../support/scripted-http";

const DATE_GRAMMAR = { type: "grammar", syntax: "regex", definition: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" };

/** The model's three custom tool calls: any SQL, a date its pattern accepts, one it refuses. */
const CALLS = [
  { type: "custom_tool_call", id: "ctc_1", call_id: "call_sql", name: "run_sql", input: "SELECT 1" },
  { type: "custom_tool_call", id: "ctc_2", call_id: "call_ok", name: "set_date", input: "2026-12-06" },
  { type: "custom_tool_call", id: "ctc_3", call_id: "call_bad", name: "set_date", input: "next tuesday" },
];

function client(origin: string): OpenAI {
  return new OpenAI({ baseURL: `${origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
}

/** The request's tools and the answers the last request sent (the items after the model's calls). */
function sentTools(request: RecordedRequest): unknown[] {
  return (request.body as { tools: unknown[] }).tools;
}

function checkTools(tools: unknown[]): void {
  assert.equal(tools[0], { type: "custom", name: "run_sql", description: "Run a read-only SQL query." });
  assert.equal(tools[1], {
    type: "custom",
    name: "set_date",
    description: "Set the report's date.",
    format: DATE_GRAMMAR,
  });
  assert.is((tools[2] as { type: string }).type, "function");
}

function checkAnswers(input: Record<string, unknown>[]): void {
  const answers = input.filter((item) => item.type === "custom_tool_call_output");
  assert.equal(answers.slice(0, 2), [
    { type: "custom_tool_call_output", call_id: "call_sql", output: "rows for SELECT 1" },
    { type: "custom_tool_call_output", call_id: "call_ok", output: "date set to 2026-12-06" },
  ]);
  assert.is(answers[2]!.call_id, "call_bad");
  const refused = answers[2]!.output as string;
  assert.match(refused, /^Error/);
  assert.match(refused, /set_date/);
  assert.ok(refused.includes("^\\d{4}-\\d{2}-\\d{2}$"), refused);
  assert.is(
    input.some((item) => item.type === "function_call_output"),
    false,
  );
}

test("Responses API: custom tools out, custom_tool_call items in, custom_tool_call_output items back", async () => {
  const server = await startScriptedHttp([
    () => responsesReply("resp_1", CALLS),
    () => responsesReply("resp_2", [responsesText("Done.")]),
  ]);
  try {
    const result = await runTools(
      client(server.origin),
      { model: "gpt-scripted", input: "Run it and set the date." },
      createFreeformRegistry(),
      { provider: "responses" },
    );
    assert.is(result.content, "Done.");
    checkTools(sentTools(server.requests[0]!));
    checkAnswers((server.requests[1]!.body as { input: Record<string, unknown>[] }).input);
  } finally {
    await server.close();
  }
});

test("Responses API, streamed: custom tool call input deltas feed the calls, answered as they complete", async () => {
  const events: Record<string, unknown>[] = [{ type: "response.created", response: responsesReply("resp_1", []) }];
  CALLS.forEach((call, output_index) => {
    events.push({ type: "response.output_item.added", output_index, item: { ...call, input: "" } });
    for (let i = 0; i < call.input.length; i += 4)
      events.push({
        type: "response.custom_tool_call_input.delta",
        output_index,
        item_id: call.id,
        delta: call.input.slice(i, i + 4),
      });
    events.push({ type: "response.custom_tool_call_input.done", output_index, item_id: call.id, input: call.input });
    events.push({ type: "response.output_item.done", output_index, item: call });
  });
  events.push({ type: "response.completed", response: responsesReply("resp_1", CALLS) });
  const server = await startScriptedHttp([
    () =>
      sse(events.map((data, sequence_number) => ({ event: data.type as string, data: { ...data, sequence_number } }))),
    // The second request is streamed too: the answer's text as the stream would carry it.
    () =>
      sse(
        [
          { type: "response.output_text.delta", output_index: 0, item_id: "msg_1", content_index: 0, delta: "Done." },
          { type: "response.completed", response: responsesReply("resp_2", [responsesText("Done.")]) },
        ].map((data, sequence_number) => ({ event: data.type, data: { ...data, sequence_number } })),
      ),
  ]);
  try {
    const run = runTools(
      client(server.origin),
      { model: "gpt-scripted", input: "Run it and set the date." },
      createFreeformRegistry(),
      { provider: "responses", stream: true },
    );
    for await (const _event of run) {
      // Drained: the loop runs as the stream is read.
    }
    const result = await run.finalResult();
    assert.is(result.content, "Done.");
    checkTools(sentTools(server.requests[0]!));
    checkAnswers((server.requests[1]!.body as { input: Record<string, unknown>[] }).input);
  } finally {
    await server.close();
  }
});

test("Chat Completions: custom tools out, custom tool calls in, tool messages back", async () => {
  const completion = (message: Record<string, unknown>, finish_reason: string) => ({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "gpt-scripted",
    choices: [{ index: 0, message: { role: "assistant", content: null, ...message }, finish_reason }],
  });
  const server = await startScriptedHttp([
    () =>
      completion(
        {
          tool_calls: CALLS.map((call) => ({
            id: call.call_id,
            type: "custom",
            custom: { name: call.name, input: call.input },
          })),
        },
        "tool_calls",
      ),
    () => completion({ content: "Done." }, "stop"),
  ]);
  try {
    const result = await runTools(
      client(server.origin),
      { model: "gpt-scripted", messages: [{ role: "user", content: "Run it and set the date." }] },
      createFreeformRegistry(),
    );
    assert.is(result.content, "Done.");
    const tools = sentTools(server.requests[0]!);
    assert.equal(tools[1], {
      type: "custom",
      custom: {
        name: "set_date",
        description: "Set the report's date.",
        format: { type: "grammar", grammar: { syntax: "regex", definition: DATE_GRAMMAR.definition } },
      },
    });
    const messages = (server.requests[1]!.body as { messages: Record<string, unknown>[] }).messages;
    const answers = messages.filter((message) => message.role === "tool");
    assert.equal(
      answers.map((message) => [message.tool_call_id, message.content]),
      [
        ["call_sql", "rows for SELECT 1"],
        ["call_ok", "date set to 2026-12-06"],
        ["call_bad", answers[2]!.content],
      ],
    );
    assert.match(answers[2]!.content as string, /^Error.*set_date/s);
    assert.ok((answers[2]!.content as string).includes("^\\d{4}-\\d{2}-\\d{2}$"));
  } finally {
    await server.close();
  }
});

test.run();
