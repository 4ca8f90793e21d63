/**
 * runTools(..., { stream: true }) with the real `openai` SDK client against the scripted server streaming SSE
 * chunks: the events and their order, partial arguments as they grow, a call dispatched as soon as it is complete
 * (before the reply has finished streaming), finalResult with and without reading the events, validation retries
 * and JSON Patch repair while streaming, and a reader that leaves early.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { ToolRegistry } from "tooltype";
import { PATCH_TOOL_NAME, runTools, structuredOutput, type RunToolsEvent } from "tooltype/loop";
import {
  startScriptedServer,
  toolResults,
  type Script,
  type ScriptedServer,
  type ScriptedServerOptions,
} from "../scripted-openai/server";
import { mathRegistry, recordPeople, recorded, slowCalls, slowEcho } from "./tools";
import { HANG_MS } from "../support/hang";

const model = "scripted-stream";

async function withServer<R>(
  script: Script,
  options: ScriptedServerOptions,
  body: (server: ScriptedServer, client: OpenAI) => Promise<R>,
): Promise<R> {
  const server = await startScriptedServer(script, options);
  try {
    return await body(server, new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 }));
  } finally {
    await server.close();
  }
}

const arithmetic: Script = [
  {
    content: "Let me compute.",
    tool_calls: [
      { name: "multiply", arguments: { a: 2, b: 3 } },
      { name: "add", arguments: { a: 6, b: 6 } },
    ],
  },
  (request) => {
    const [product, sum] = toolResults(request);
    return { content: `2 times 3 is ${product!.content}, and 6 plus 6 is ${sum!.content}.` };
  },
];

/** The event list in short form. */
function shape(events: RunToolsEvent[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    const last = out[out.length - 1];
    const name =
      event.type === "tool_call_delta"
        ? `delta ${event.call.index}`
        : event.type === "tool_call" || event.type === "tool_result"
          ? `${event.type} ${event.call.id}`
          : event.type;
    if (name !== last) out.push(name);
  }
  return out;
}

test("events: text deltas, call fragments with partial args, complete calls, results, steps, final", async () => {
  await withServer(arithmetic, { fragmentSize: 4 }, async (server, client) => {
    const stream = runTools(client, { model, messages: [{ role: "user", content: "2*3, 6+6?" }] }, mathRegistry(), {
      stream: true,
    });
    const events: RunToolsEvent[] = [];
    const partials: unknown[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === "tool_call_delta" && event.call.index === 0) partials.push(event.call.args);
    }
    assert.equal(shape(events), [
      "text",
      "delta 0",
      "tool_call call_1",
      "delta 1",
      "tool_call call_2",
      "tool_result call_1",
      "tool_result call_2",
      "step",
      "text",
      "step",
      "final",
    ]);
    const text = events.filter((e) => e.type === "text").map((e) => (e.type === "text" ? e.delta : ""));
    assert.is(text.slice(0, 4).join(""), "Let me compute.");
    // "" then {"a":2,"b":3} in pieces of 4 ({"a"  :2,"  b":3  }): parsed as far as they go at each fragment.
    assert.equal(partials, [undefined, {}, { a: 2 }, { a: 2, b: 3 }, { a: 2, b: 3 }]);

    const result = await stream.finalResult();
    assert.is(result.content, "2 times 3 is 6, and 6 plus 6 is 12.");
    const final = events[events.length - 1]!;
    assert.is(final.type === "final" ? final.result : undefined, result);
    assert.equal(
      result.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool", "assistant"],
    );
    assert.equal(
      result.steps[0]!.message.tool_calls?.map((c) => c.id),
      ["call_1", "call_2"],
    );
    assert.is(result.steps[0]!.message.content, "Let me compute.");
    assert.equal(
      server.requests.map((r) => r.stream),
      [true, true],
    );
    // The assistant message sent back is the streamed reply, reassembled.
    const assistant = server.requests[1]!.messages[1]!;
    assert.equal(
      assistant.role === "assistant"
        ? assistant.tool_calls?.map((c) => (c.type === "function" ? c.function.arguments : ""))
        : [],
      ['{"a":2,"b":3}', '{"a":6,"b":6}'],
    );
  });
});

test("a call is dispatched as soon as it is complete, while the rest of the reply still streams", async () => {
  slowCalls.length = 0;
  const long = "x".repeat(200);
  const script: Script = [
    {
      tool_calls: [
        { name: "slow_echo", arguments: { text: "first", ms: 0 } },
        { name: "slow_echo", arguments: { text: long, ms: 0 } },
      ],
    },
    { content: "done" },
  ];
  await withServer(script, { fragmentSize: 10, chunkDelayMs: 2 }, async (_server, client) => {
    const stream = runTools(
      client,
      { model, messages: [{ role: "user", content: "x" }] },
      new ToolRegistry([slowEcho]),
      { stream: true },
    );
    let firstRanBeforeSecondCompleted: boolean | undefined;
    for await (const event of stream) {
      if (event.type === "tool_call" && event.call.id === "call_2")
        firstRanBeforeSecondCompleted = slowCalls.some((c) => c.text === "first");
    }
    assert.is(firstRanBeforeSecondCompleted, true);
    assert.equal(
      slowCalls.map((c) => c.text.slice(0, 5)),
      ["first", "xxxxx"],
    );
    assert.is((await stream.finalResult()).content, "done");
  });
});

test("finalResult() without reading the events runs the loop; reading after that is refused", async () => {
  await withServer(arithmetic, {}, async (_server, client) => {
    const stream = runTools(client, { model, messages: [{ role: "user", content: "x" }] }, mathRegistry(), {
      stream: true,
    });
    const result = await stream.finalResult();
    assert.is(result.content, "2 times 3 is 6, and 6 plus 6 is 12.");
    assert.throws(() => stream[Symbol.asyncIterator](), /already being read/);
    assert.is(await stream.finalResult(), result);
  });
});

test("a reader that stops at the final event still gets the result", async () => {
  await withServer([{ content: "hi" }], {}, async (_server, client) => {
    const stream = runTools(client, { model, messages: [{ role: "user", content: "x" }] }, mathRegistry(), {
      stream: true,
    });
    for await (const event of stream) if (event.type === "final") break;
    assert.is((await stream.finalResult()).content, "hi");
  });
});

test("streaming with validation retries and JSON Patch repair; a structured final answer", async () => {
  recorded.length = 0;
  const invalid = { people: [{ name: "Ada", age: "36", address: { city: "London", country: "uk" } }] };
  const script: Script = [
    { tool_calls: [{ name: "record_people", arguments: invalid }] },
    (request) => {
      assert.ok(request.tools?.some((t) => t.type === "function" && t.function.name === PATCH_TOOL_NAME));
      assert.match(toolResults(request)[0]!.content, /\/people\/0\/address\/country/);
      return {
        tool_calls: [
          {
            name: PATCH_TOOL_NAME,
            arguments: {
              tool_call_id: "call_1",
              patch: [{ op: "replace", path: "/people/0/address/country", value: "GB" }],
            },
          },
        ],
      };
    },
    { content: '{"count": 1}' },
  ];
  await withServer(script, { fragmentSize: 7 }, async (server, client) => {
    const stream = runTools(
      client,
      { model, messages: [{ role: "user", content: "extract" }] },
      new ToolRegistry([recordPeople]),
      {
        stream: true,
        repair: "jsonpatch",
        responseFormat: structuredOutput<{ count: number }>("summary"),
      },
    );
    const results: string[] = [];
    for await (const event of stream)
      if (event.type === "tool_result") results.push(`${event.result.tool_call_id}:${event.result.status}`);
    assert.equal(results, ["call_1:error", "call_2:success"]);
    const result = await stream.finalResult();
    assert.equal(result.parsed, { count: 1 });
    // The string "36" was coerced to 36 when the arguments were read; the patch fixed the country.
    assert.equal(recorded, [[{ name: "Ada", age: 36, address: { city: "London", country: "GB" } }]]);
    assert.is(server.requests.length, 3);
  });
});

test("leaving the for-await early aborts the run: running tools are aborted and finalResult rejects", async () => {
  slowCalls.length = 0;
  const script: Script = [
    { content: "Working on it.", tool_calls: [{ name: "slow_echo", arguments: { text: "never", ms: 5_000 } }] },
  ];
  await withServer(script, {}, async (server, client) => {
    const stream = runTools(
      client,
      { model, messages: [{ role: "user", content: "x" }] },
      new ToolRegistry([slowEcho]),
      { stream: true },
    );
    for await (const event of stream) {
      if (event.type === "tool_call") break;
    }
    const error = await stream.finalResult().catch((e: unknown) => e);
    assert.instance(error, Error);
    assert.match((error as Error).message, /stream was closed before the loop ended/);
    // The tool started when its call completed, and its signal was aborted (a wait left to run out would have
    // ended with `aborted: false`); its end is awaited, the deadline only catches a hang.
    for (const end = Date.now() + HANG_MS; slowCalls.length === 0 && Date.now() < end; )
      await new Promise((resolve) => setImmediate(resolve));
    assert.equal(slowCalls, [{ text: "never", aborted: true }]);
    assert.is(server.requests.length, 1);
  });
});

test.run();
