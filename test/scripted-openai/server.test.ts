/**
 * The scripted server, driven by the real `openai` SDK client: replies, parallel tool calls, id generation, the
 * request log, script helpers, streaming (SSE chunks the SDK reads and reassembles), and the OpenAI-style errors
 * (exhausted script, bad JSON, unknown route).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { lastUserText, startScriptedServer, toolResults, type ScriptedServer } from "./server";

const model = "scripted-model";

async function withServer(
  script: Parameters<typeof startScriptedServer>[0],
  body: (server: ScriptedServer, client: OpenAI) => Promise<void>,
): Promise<void> {
  const server = await startScriptedServer(script);
  try {
    await body(server, new OpenAI({ baseURL: server.baseURL, apiKey: "test" }));
  } finally {
    await server.close();
  }
}

test("answers a content reply as a real ChatCompletion and records the request", async () => {
  await withServer([{ content: "Hello there." }], async (server, client) => {
    assert.match(server.baseURL, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const completion = await client.chat.completions.create({ model, messages: [{ role: "user", content: "Hi" }] });

    assert.is(completion.object, "chat.completion");
    assert.is(completion.model, model);
    assert.match(completion.id, /^chatcmpl-/);
    assert.type(completion.created, "number");
    assert.is(completion.choices.length, 1);
    const [choice] = completion.choices;
    assert.is(choice.index, 0);
    assert.is(choice.finish_reason, "stop");
    assert.is(choice.message.role, "assistant");
    assert.is(choice.message.content, "Hello there.");
    assert.is(choice.message.tool_calls, undefined);
    assert.ok(completion.usage);
    assert.is(completion.usage.total_tokens, completion.usage.prompt_tokens + completion.usage.completion_tokens);

    assert.equal(server.requests, [{ model, messages: [{ role: "user", content: "Hi" }] }]);
  });
});

test("parallel tool calls: generated ids, object arguments as JSON text, string arguments verbatim", async () => {
  const script = [
    {
      tool_calls: [
        { name: "get_weather", arguments: { location: "Beijing" } },
        { name: "search_products", arguments: '{"keyword":"umbrella"' }, // malformed on purpose: sent as written
        { name: "get_weather", arguments: { location: "Paris" }, id: "call_custom" },
      ],
    },
    { tool_calls: [{ name: "get_weather", arguments: {} }], content: "Checking once more." },
  ];
  await withServer(script, async (_server, client) => {
    const first = await client.chat.completions.create({ model, messages: [{ role: "user", content: "go" }] });
    const [choice] = first.choices;
    assert.is(choice.finish_reason, "tool_calls");
    assert.is(choice.message.content, null);
    assert.equal(choice.message.tool_calls, [
      { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"location":"Beijing"}' } },
      { id: "call_2", type: "function", function: { name: "search_products", arguments: '{"keyword":"umbrella"' } },
      { id: "call_custom", type: "function", function: { name: "get_weather", arguments: '{"location":"Paris"}' } },
    ]);

    // Ids keep counting across requests, so they stay unique within one conversation.
    const second = await client.chat.completions.create({ model, messages: [{ role: "user", content: "again" }] });
    assert.is(second.choices[0].message.content, "Checking once more.");
    assert.equal(
      second.choices[0].message.tool_calls?.map((call) => call.id),
      ["call_3"],
    );
    assert.is.not(second.id, first.id);
  });
});

test("function steps see the request; toolResults and lastUserText read it", async () => {
  const seen: number[] = [];
  await withServer(
    [
      (request, index) => {
        seen.push(index);
        return {
          tool_calls: [
            { name: "echo", arguments: { text: lastUserText(request) } },
            { name: "noop", arguments: {} },
          ],
        };
      },
      (request, index) => {
        seen.push(index);
        const results = toolResults(request);
        return { content: results.map((r) => `${r.name}(${r.tool_call_id})=${r.content}`).join("; ") };
      },
    ],
    async (server, client) => {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "ping" }];
      const first = await client.chat.completions.create({ model, messages });
      const reply = first.choices[0].message;
      assert.equal(
        JSON.parse(reply.tool_calls?.[0].type === "function" ? reply.tool_calls[0].function.arguments : ""),
        { text: "ping" },
      );
      messages.push(reply);
      messages.push({ role: "tool", tool_call_id: "call_1", content: "ping" });
      messages.push({ role: "tool", tool_call_id: "call_2", content: [{ type: "text", text: "done" }] });

      const second = await client.chat.completions.create({ model, messages });
      assert.is(second.choices[0].message.content, "echo(call_1)=ping; noop(call_2)=done");
      assert.equal(seen, [0, 1]);
      assert.is(server.requests.length, 2);
      assert.equal(
        server.requests[1].messages.map((m) => m.role),
        ["user", "assistant", "tool", "tool"],
      );
      assert.equal(toolResults(server.requests[0]), []);
    },
  );
});

test("a single function script gets every request with its index and ends by returning undefined", async () => {
  await withServer(
    (_request, index) => (index < 2 ? { content: `reply ${index}` } : undefined),
    async (server, client) => {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "x" }];
      assert.is((await client.chat.completions.create({ model, messages })).choices[0].message.content, "reply 0");
      assert.is((await client.chat.completions.create({ model, messages })).choices[0].message.content, "reply 1");
      const error = await client.chat.completions.create({ model, messages }).catch((e: unknown) => e);
      assert.instance(error, OpenAI.APIError);
      assert.is((error as InstanceType<typeof OpenAI.APIError>).status, 500);
      assert.match((error as Error).message, /script is exhausted/);
      assert.is(server.requests.length, 3);
    },
  );
});

test("an exhausted list script answers HTTP 500 with an OpenAI error body, and the SDK does not retry it", async () => {
  await withServer([{ content: "only one" }], async (server, client) => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "x" }];
    await client.chat.completions.create({ model, messages });
    // The client keeps its default maxRetries (2): `x-should-retry: false` is what stops the retries.
    const error = await client.chat.completions.create({ model, messages }).catch((e: unknown) => e);
    assert.instance(error, OpenAI.InternalServerError);
    const apiError = error as InstanceType<typeof OpenAI.InternalServerError>;
    assert.is(apiError.status, 500);
    assert.is(apiError.type, "server_error");
    assert.is(apiError.code, "script_exhausted");
    assert.match(apiError.message, /script is exhausted: request #2 arrived but it has 1 step\(s\)/);
    assert.is(server.requests.length, 2);
  });
});

test("a throwing step answers HTTP 500 naming the step and the error", async () => {
  await withServer(
    [
      () => {
        throw new Error("expected a tool message");
      },
    ],
    async (_server, client) => {
      const error = await client.chat.completions
        .create({ model, messages: [{ role: "user", content: "x" }] })
        .catch((e: unknown) => e);
      assert.instance(error, OpenAI.InternalServerError);
      assert.match((error as Error).message, /Scripted step 0 threw: expected a tool message/);
    },
  );
});

test("bad JSON, missing fields, wrong routes: OpenAI-style 4xx errors", async () => {
  await withServer([{ content: "unused" }], async (server, client) => {
    const post = (path: string, body: string) =>
      fetch(server.baseURL.replace(/\/v1$/, "") + path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });

    const bad = await post("/v1/chat/completions", "{not json");
    assert.is(bad.status, 400);
    assert.is(bad.headers.get("x-should-retry"), "false");
    const badBody = (await bad.json()) as { error: { message: string; type: string; param: unknown; code: unknown } };
    assert.equal(Object.keys(badBody.error).sort(), ["code", "message", "param", "type"]);
    assert.is(badBody.error.type, "invalid_request_error");
    assert.match(badBody.error.message, /could not parse the JSON body/);

    const noModel = await post("/v1/chat/completions", JSON.stringify({ messages: [{ role: "user", content: "x" }] }));
    assert.is(noModel.status, 400);
    assert.match(((await noModel.json()) as { error: { message: string } }).error.message, /model/);

    const notFound = await post("/v1/embeddings", "{}");
    assert.is(notFound.status, 404);
    await notFound.arrayBuffer();

    // None of the above consumed the script's only step.
    assert.is(
      (await client.chat.completions.create({ model, messages: [{ role: "user", content: "x" }] })).choices[0].message
        .content,
      "unused",
    );
  });
});

test("stream: true answers server-sent chunks: content and arguments in fragments, tool calls by index, [DONE]", async () => {
  const reply = {
    content: "Let me check both.",
    tool_calls: [
      { name: "get_weather", arguments: { location: "Beijing" } },
      { name: "search_products", arguments: { keyword: "umbrella", limit: 3 } },
    ],
  };
  await withServer([reply, reply], async (server, client) => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "go" }];
    const stream = await client.chat.completions.create({
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    assert.ok(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === model));
    assert.equal(chunks[0].choices[0].delta, { role: "assistant", content: "" });
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    assert.is(text, "Let me check both.");
    // Arguments arrive in pieces of at most 5 characters, after one chunk with the id, type and name.
    const fragments = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const opening = fragments.filter((f) => f.id !== undefined);
    assert.equal(opening, [
      { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } },
      { index: 1, id: "call_2", type: "function", function: { name: "search_products", arguments: "" } },
    ]);
    const args = (index: number) => fragments.filter((f) => f.index === index).map((f) => f.function?.arguments ?? "");
    assert.ok(args(0).every((piece) => piece.length <= 5));
    assert.is(args(0).join(""), '{"location":"Beijing"}');
    assert.is(args(1).join(""), '{"keyword":"umbrella","limit":3}');
    const last = chunks[chunks.length - 1];
    assert.equal(last.choices, [], "the usage chunk comes last, without choices");
    assert.ok(last.usage && last.usage.total_tokens > 0);
    assert.is(chunks[chunks.length - 2].choices[0].finish_reason, "tool_calls");

    // The SDK's own stream helper reassembles the same message a non-streamed request gets.
    const runner = client.chat.completions.stream({ model, messages });
    const final = await runner.finalChatCompletion();
    assert.is(final.choices[0].message.content, "Let me check both.");
    assert.equal(
      final.choices[0].message.tool_calls?.map((c) =>
        c.type === "function" ? [c.id, c.function.name, c.function.arguments] : [],
      ),
      [
        ["call_3", "get_weather", '{"location":"Beijing"}'],
        ["call_4", "search_products", '{"keyword":"umbrella","limit":3}'],
      ],
    );
    assert.is(server.requests.length, 2);
    assert.is(server.requests[0].stream, true);
  });
});

test("a streamed text reply ends with finish_reason stop; fragmentSize cuts it", async () => {
  const server = await startScriptedServer([{ content: "abcdefghij" }], { fragmentSize: 3 });
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test" });
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    const pieces: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) pieces.push(choice.delta.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
    }
    assert.equal(pieces, ["abc", "def", "ghi", "j"]);
    assert.is(finish, "stop");
  } finally {
    await server.close();
  }
});

test("tolerates /chat/completions without the /v1 prefix", async () => {
  await withServer([{ content: "no prefix" }], async (server) => {
    const client = new OpenAI({ baseURL: server.baseURL.replace(/\/v1$/, ""), apiKey: "test" });
    const completion = await client.chat.completions.create({ model, messages: [{ role: "user", content: "x" }] });
    assert.is(completion.choices[0].message.content, "no prefix");
  });
});

test.run();
