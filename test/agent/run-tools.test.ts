/**
 * runTools: the agent loop with the real `openai` SDK client against the scripted server. The request of each step
 * (tools, tool choice, parallel calls, strict, response format), the transcript (every call answered, ToolMessages
 * in wire form), the result, onStep, returnDirect, maxSteps, structured answers (parsed, retried, refused), abort.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { type ChatCompletionsClient, ToolRegistry, type Int, type Max, type Min } from "tooltype";
import {
  type RunStep,
  MaxStepsError,
  ModelRefusalError,
  ToolRetryError,
  runTools,
  structuredOutput,
} from "tooltype/loop";
import {
  lastUserText,
  startScriptedServer,
  toolResults,
  type Script,
  type ScriptedServer,
} from "../scripted-openai/server";
import { allTools, lookupAnswer, mathRegistry, slowCalls, slowEcho } from "./tools";

const model = "scripted-agent";

/** The real SDK client; also a compile-time check that `OpenAI` satisfies the structural client type. */
function clientFor(server: ScriptedServer): ChatCompletionsClient {
  const client: OpenAI = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
  return client;
}

async function withServer<R>(
  script: Script,
  body: (server: ScriptedServer, client: ChatCompletionsClient) => Promise<R>,
): Promise<R> {
  const server = await startScriptedServer(script);
  try {
    return await body(server, clientFor(server));
  } finally {
    await server.close();
  }
}

/** Every assistant tool call is answered by tool messages right after it, in order. */
function assertTranscriptValid(messages: readonly unknown[]): void {
  const wire = JSON.parse(JSON.stringify(messages)) as {
    role: string;
    tool_calls?: { id: string }[];
    tool_call_id?: string;
  }[];
  for (let i = 0; i < wire.length; i++) {
    const calls = wire[i]!.tool_calls ?? [];
    if (wire[i]!.role !== "assistant" || calls.length === 0) continue;
    const answers = wire.slice(i + 1, i + 1 + calls.length);
    assert.equal(
      answers.map((m) => [m.role, m.tool_call_id]),
      calls.map((c) => ["tool", c.id]),
      `the calls of message ${i} are answered in order`,
    );
  }
}

/** Awaits `run` and checks that it rejects with a message matching `pattern`. */
async function rejects(run: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(error, Error, `expected a rejection matching ${pattern}`);
  assert.match((error as Error).message, pattern);
}

const arithmetic: Script = [
  (request) => {
    assert.is(lastUserText(request), "What is 2 times 3, and 6 plus 6?");
    return {
      tool_calls: [
        { name: "multiply", arguments: { a: 2, b: 3 } },
        { name: "add", arguments: { a: 6, b: 6 } },
      ],
    };
  },
  (request) => {
    const [product, sum] = toolResults(request);
    return { content: `2 times 3 is ${product!.content}, and 6 plus 6 is ${sum!.content}.` };
  },
];

test("the loop: parallel calls dispatched, results appended, final answer, steps and onStep", async () => {
  const seen: RunStep[] = [];
  await withServer(arithmetic, async (server, client) => {
    const registry = mathRegistry();
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "What is 2 times 3, and 6 plus 6?" }];
    const result = await runTools(client, { model, messages, temperature: 0 }, registry, {
      onStep: (step) => void seen.push(step),
    });

    assert.is(result.content, "2 times 3 is 6, and 6 plus 6 is 12.");
    assert.is(result.message.role, "assistant");
    assert.is(result.parsed, undefined);
    assert.is(result.returnDirect, undefined);
    assert.equal(
      result.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool", "assistant"],
    );
    assertTranscriptValid(result.messages);
    assert.is(messages.length, 1, "the caller's list is not changed");

    assert.is(result.steps.length, 2);
    const [first, second] = result.steps;
    assert.is(first!.index, 1);
    assert.equal(
      first!.calls.map((c) => (c.type === "function" ? c.function.name : "")),
      ["multiply", "add"],
    );
    assert.equal(
      first!.results.map((r) => [r.name, r.content, r.status]),
      [
        ["multiply", "6", "success"],
        ["add", "12", "success"],
      ],
    );
    assert.equal(first!.failures, []);
    assert.equal(second!.calls, []);
    assert.equal(seen, result.steps);

    // What reached the wire: the tools every time, extra params passed through, tool messages in wire form.
    assert.is(server.requests.length, 2);
    for (const request of server.requests) {
      assert.equal(request.tools, JSON.parse(JSON.stringify(registry.toOpenAITools())));
      assert.is(request.temperature, 0);
      assert.is(request.tool_choice, undefined);
      assert.is(request.stream, undefined);
    }
    const tools = server.requests[1]!.messages.filter((m) => m.role === "tool");
    assert.equal(tools, [
      { role: "tool", tool_call_id: "call_1", content: "6" },
      { role: "tool", tool_call_id: "call_2", content: "12" },
    ]);
  });
});

test("toolChoice is forced on the first request only; parallelToolCalls and strict reach the request", async () => {
  await withServer(arithmetic, async (server, client) => {
    const registry = mathRegistry();
    await runTools(
      client,
      { model, messages: [{ role: "user", content: "What is 2 times 3, and 6 plus 6?" }] },
      registry,
      {
        toolChoice: "required",
        parallelToolCalls: false,
        strict: true,
      },
    );
    assert.equal(
      server.requests.map((r) => r.tool_choice),
      ["required", "auto"],
    );
    assert.equal(
      server.requests.map((r) => r.parallel_tool_calls),
      [false, false],
    );
    assert.equal(server.requests[0]!.tools, JSON.parse(JSON.stringify(registry.toOpenAITools({ strict: true }))));
  });
  await withServer([{ content: "none needed" }], async (server, client) => {
    await runTools(client, { model, messages: [{ role: "user", content: "hi" }] }, mathRegistry(), {
      toolChoice: "multiply",
    });
    assert.equal(server.requests[0]!.tool_choice, { type: "function", function: { name: "multiply" } });
  });
  await rejects(
    () =>
      runTools(
        { chat: { completions: { create: () => Promise.reject(new Error("not called")) } } },
        { model, messages: [] },
        mathRegistry(),
        { toolChoice: "divide" },
      ),
    /divide.*multiply, add/,
  );
});

test("a registry without tools sends no tools, tool choice or parallel_tool_calls", async () => {
  await withServer([{ content: "Hello." }], async (server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: "hi" }] }, new ToolRegistry(), {
      parallelToolCalls: false,
      toolChoice: "auto",
    });
    assert.is(result.content, "Hello.");
    assert.equal(Object.keys(server.requests[0]!).sort(), ["messages", "model"]);
  });
});

test("maxSteps: a model that keeps calling tools ends in MaxStepsError carrying a valid transcript", async () => {
  const always: Script = (_request, index) => ({ tool_calls: [{ name: "add", arguments: { a: index, b: 1 } }] });
  await withServer(always, async (server, client) => {
    const error = await runTools(client, { model, messages: [{ role: "user", content: "count" }] }, mathRegistry(), {
      maxSteps: 3,
    }).catch((e: unknown) => e);
    assert.instance(error, MaxStepsError);
    const maxSteps = error as MaxStepsError;
    assert.is(maxSteps.maxSteps, 3);
    assert.match(maxSteps.message, /no final answer after 3 steps/);
    assert.is(maxSteps.steps.length, 3);
    assert.is(server.requests.length, 3);
    // The last step's calls were run and answered, so the transcript can be sent again as it is.
    assert.equal(
      maxSteps.messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"],
    );
    assertTranscriptValid(maxSteps.messages);
  });
});

test("returnDirect: the tool's content is the result and the model is not called again", async () => {
  const script: Script = [
    {
      tool_calls: [
        { name: "add", arguments: { a: 1, b: 1 } },
        { name: "lookup_answer", arguments: { topic: "life" } },
      ],
    },
  ];
  await withServer(script, async (server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: "the answer?" }] }, allTools());
    assert.is(server.requests.length, 1);
    assert.is(result.content, "The answer about life is 42.");
    assert.is(result.returnDirect?.name, "lookup_answer");
    assert.is(result.message.tool_calls?.length, 2);
    assert.equal(
      result.messages.map((m) => m.role),
      ["user", "assistant", "tool", "tool"],
    );
    assertTranscriptValid(result.messages);
    assert.ok(lookupAnswer);
  });
});

test("a returnDirect tool that fails does not end the loop: the model sees the error", async () => {
  const script: Script = [
    { tool_calls: [{ name: "lookup_answer", arguments: { topic: 42 } }] },
    (request) => ({ content: `saw: ${toolResults(request)[0]!.content.split("\n")[0]}` }),
  ];
  await withServer(script, async (server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: "?" }] }, allTools());
    assert.is(server.requests.length, 2);
    assert.is(result.returnDirect, undefined);
    assert.is(result.content, "saw: Error: invalid arguments for lookup_answer:");
  });
});

/** A joke to tell. */
interface Joke {
  /** The setup */
  setup: string;
  /** The punchline */
  punchline: string;
  /** How funny, 1 to 10 */
  rating?: Int & Min<1> & Max<10>;
}

test("responseFormat: sent as response_format, the final answer parsed into result.parsed", async () => {
  const joke = structuredOutput<Joke>();
  const script: Script = [
    { tool_calls: [{ name: "multiply", arguments: { a: 6, b: 7 } }] },
    { content: '{"setup":"Why 42?","punchline":"Because 6 times 7.","rating":null}' },
  ];
  await withServer(script, async (server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: "joke" }] }, mathRegistry(), {
      responseFormat: joke,
    });
    const parsed: Joke = result.parsed;
    assert.equal(parsed, { setup: "Why 42?", punchline: "Because 6 times 7." });
    for (const request of server.requests)
      assert.equal(request.response_format, JSON.parse(JSON.stringify(joke.responseFormat)));
  });
});

test("responseFormat: an answer that does not match is sent back with its problems; then maxAttempts ends it", async () => {
  const joke = structuredOutput<Joke>("joke", { strict: false });
  const retried: Script = [
    { content: '{"setup":"Knock knock.","rating":11}' },
    (request) => {
      const last = request.messages[request.messages.length - 1]!;
      assert.is(last.role, "user");
      assert.match(String(last.content), /not a valid joke answer/);
      assert.match(String(last.content), /punchline/);
      return { content: '{"setup":"Knock knock.","punchline":"Who is there?","rating":7}' };
    },
  ];
  await withServer(retried, async (_server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: "joke" }] }, mathRegistry(), {
      responseFormat: joke,
    });
    assert.equal(result.parsed, { setup: "Knock knock.", punchline: "Who is there?", rating: 7 });
    assert.is(result.steps.length, 2);
    assert.is(result.steps[0]!.failures[0]!.reason, "invalid_answer");
    assert.equal(
      result.messages.map((m) => m.role),
      ["user", "assistant", "user", "assistant"],
    );
  });
  await withServer(
    (_request) => ({ content: "not json at all" }),
    async (server, client) => {
      const error = await runTools(client, { model, messages: [{ role: "user", content: "joke" }] }, mathRegistry(), {
        responseFormat: joke,
        maxAttempts: 2,
      }).catch((e: unknown) => e);
      assert.instance(error, ToolRetryError);
      const retry = error as ToolRetryError;
      assert.is(retry.subject, "answer");
      assert.is(retry.toolName, "joke");
      assert.is(retry.attempts.length, 2);
      assert.is(retry.attempts[0]!.arguments, "not json at all");
      assert.is(server.requests.length, 2);
    },
  );
});

test("responseFormat: a refusal is a ModelRefusalError", async () => {
  const refusing = {
    chat: {
      completions: {
        create: async () => ({
          choices: [{ message: { role: "assistant" as const, content: null, refusal: "I can't help with that." } }],
        }),
      },
    },
  };
  const error = await runTools(refusing, { model, messages: [{ role: "user", content: "joke" }] }, mathRegistry(), {
    responseFormat: structuredOutput<Joke>(),
  }).catch((e: unknown) => e);
  assert.instance(error, ModelRefusalError);
  assert.is((error as ModelRefusalError).refusal, "I can't help with that.");
  assert.is((error as ModelRefusalError).messages.length, 2);
});

test("a final reply with an empty tool_calls list (some gateways send one) is stored without it", async () => {
  const gateway: ChatCompletionsClient = {
    chat: {
      completions: {
        create: async () => ({ choices: [{ message: { role: "assistant", content: "done", tool_calls: [] } }] }),
      },
    },
  };
  const result = await runTools(gateway, { model, messages: [{ role: "user", content: "x" }] }, mathRegistry());
  assert.equal(result.message, { role: "assistant", content: "done" });
});

test("params the loop owns are refused; bad maxSteps and repair values too", async () => {
  const client: ChatCompletionsClient = {
    chat: { completions: { create: () => Promise.reject(new Error("not called")) } },
  };
  const params = { model, messages: [{ role: "user" as const, content: "x" }], tools: [] } as unknown as {
    model: string;
    messages: [];
  };
  await rejects(() => runTools(client, params, mathRegistry()), /params\.tools is set by the loop/);
  await rejects(
    () => runTools(client, { model, messages: [] }, mathRegistry(), { maxSteps: 0 }),
    /maxSteps must be a positive integer/,
  );
  await rejects(
    () => runTools(client, { model, messages: [] }, mathRegistry(), { maxAttempts: 1.5 }),
    /maxAttempts must be a positive integer/,
  );
  await rejects(
    () => runTools(client, { model, messages: [] }, mathRegistry(), { repair: "guess" as "jsonpatch" }),
    /repair must be "regenerate" or "jsonpatch"/,
  );
});

test("signal: aborting stops the loop, rejects with the reason and aborts running tools", async () => {
  slowCalls.length = 0;
  const controller = new AbortController();
  const script: Script = [{ tool_calls: [{ name: "slow_echo", arguments: { text: "slow", ms: 5_000 } }] }];
  await withServer(script, async (server, client) => {
    const registry = new ToolRegistry([slowEcho]);
    const running = runTools(client, { model, messages: [{ role: "user", content: "x" }] }, registry, {
      signal: controller.signal,
      // Once the tool runs (onToolStart comes just before it): the next turn of the event loop.
      dispatch: { onToolStart: () => setImmediate(() => controller.abort(new Error("user cancelled"))) },
    });
    const error = await running.catch((e: unknown) => e);
    assert.instance(error, Error);
    assert.is((error as Error).message, "user cancelled");
    // Its signal aborted: a wait left to run out would have ended with `aborted: false`.
    assert.equal(slowCalls, [{ text: "slow", aborted: true }]);
    assert.is(server.requests.length, 1);
  });
});

test("dispatch options reach each round; the caller's own hooks still fire", async () => {
  const ends: string[] = [];
  const errors: string[] = [];
  const script: Script = [
    {
      tool_calls: [
        { name: "add", arguments: { a: "x", b: 1 } },
        { name: "multiply", arguments: { a: 2, b: 2 } },
      ],
    },
    { content: "done" },
  ];
  await withServer(script, async (_server, client) => {
    await runTools(client, { model, messages: [{ role: "user", content: "x" }] }, mathRegistry(), {
      dispatch: {
        coerce: false,
        onToolEnd: (event) => void ends.push(`${event.call.name}:${event.status}`),
        onToolError: (event) => void errors.push(`${event.call.name}:${event.kind}`),
      },
    });
  });
  assert.equal(ends, ["add:error", "multiply:success"]);
  assert.equal(errors, ["add:validation"]);
});

test.run();
