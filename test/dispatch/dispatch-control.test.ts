/**
 * Controlling a dispatch: its time limit, maxConcurrency, cancellation, handlers that rethrow, duplicate and
 * missing call ids, the repair/coerce switches at each level, and the hooks that observe each call.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type Int,
  type OpenAIAssistantMessage,
  type ToolContext,
  type ToolEndEvent,
  type ToolErrorEvent,
  type ToolEvent,
  ToolMessage,
  ToolRegistry,
  ToolTimeoutError,
  ToolValidationError,
  tool,
} from "tooltype";
import { deferred, turns } from "../support/deferred";

/** A tool of this test. */
const count = tool(function count(n: Int) {
  return `n=${n}`;
});

function openai(...calls: [name: string, args: string, id?: string][]): OpenAIAssistantMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: calls.map(([name, args, id], i) => ({
      id: id ?? `call_${i}`,
      type: "function",
      function: { name, arguments: args },
    })),
  };
}

test("dispatch timeoutMs: calls still running when it runs out get a timeout error; their signals abort", async () => {
  let signal: AbortSignal | undefined;
  /** A tool of this test. */
  const hang = tool(function hang(context: ToolContext) {
    signal = context.signal;
    return new Promise(() => {});
  });
  /** A tool of this test. */
  const quick = tool(function quick() {
    return "done";
  });
  const registry = new ToolRegistry([hang, quick]);
  // A first round (one call invalid) loads what a first dispatch loads, so the deadline is all the tools'.
  await registry.dispatch(openai(["quick", ""], ["hang", "{bad"]));
  // `hang` never settles: without the dispatch's limit this would not return (the runner stops a hang).
  const messages = await registry.dispatch(openai(["hang", ""], ["quick", ""]), { timeoutMs: 50 });
  assert.equal(
    messages.map((m) => [m.content, m.status]),
    [
      ["Error: hang timed out: the time limit of 50ms for this round of tool calls ran out.", "error"],
      ["done", "success"],
    ],
  );
  assert.ok(signal!.aborted);
  assert.instance(signal!.reason, ToolTimeoutError);
  assert.is((signal!.reason as ToolTimeoutError).scope, "dispatch");
  assert.is((signal!.reason as ToolTimeoutError).timeoutMs, 50);
});

test("the tool's own timeoutMs still applies within the dispatch's; the earlier limit names itself", async () => {
  /** A tool of this test. */
  const slow = tool(
    function slow() {
      return new Promise(() => {});
    },
    { timeoutMs: 5 },
  );
  const [message] = await new ToolRegistry([slow]).dispatch(openai(["slow", ""]), { timeoutMs: 400 });
  assert.is(message!.content, "Error: slow timed out after 5ms.");
});

test("a late result after a timeout is discarded, and a late rejection is not unhandled", async () => {
  const release = deferred();
  const finished = deferred();
  /** A tool of this test. */
  const late = tool(
    async function late() {
      await release.promise;
      finished.resolve();
      throw new Error("too late to matter");
    },
    { timeoutMs: 5 },
  );
  const [message] = await new ToolRegistry([late]).dispatch(openai(["late", ""]));
  assert.is(message!.content, "Error: late timed out after 5ms.");
  // Now the tool ends, rejecting: an unhandled rejection would fail the run.
  release.resolve();
  await finished.promise;
  await turns(2);
  assert.is(message!.content, "Error: late timed out after 5ms.");
});

test("maxConcurrency: at most N calls at once, answers still in call order", async () => {
  let active = 0;
  let peak = 0;
  /** A tool of this test. */
  const work = tool(async function work(ms: number) {
    active++;
    peak = Math.max(peak, active);
    await turns(ms);
    active--;
    return `slept ${ms}`;
  });
  const message = openai(
    ["work", '{"ms":15}'],
    ["work", '{"ms":1}'],
    ["work", '{"ms":8}'],
    ["work", '{"ms":2}'],
    ["work", '{"ms":1}'],
  );
  const registry = new ToolRegistry([work]);
  const answers = await registry.dispatch(message, { maxConcurrency: 2 });
  assert.is(peak, 2);
  assert.equal(
    answers.map((m) => m.content),
    ["slept 15", "slept 1", "slept 8", "slept 2", "slept 1"],
  );
  peak = 0;
  await new ToolRegistry([work], { maxConcurrency: 1 }).dispatch(message);
  assert.is(peak, 1, "the registry's default applies");
  peak = 0;
  await registry.dispatch(message);
  assert.is(peak, 5, "without a limit every call runs at once");

  for (const bad of [0, -1, 1.5, Number.NaN]) {
    const error = await registry.dispatch(message, { maxConcurrency: bad }).catch((e: unknown) => e);
    assert.instance(error, RangeError);
    assert.match((error as Error).message, /maxConcurrency must be a positive integer/);
  }
});

test("with maxConcurrency, the dispatch deadline also answers the calls that never got to start", async () => {
  let starts = 0;
  /** A tool of this test. */
  const hang = tool(function hang() {
    starts++;
    return new Promise(() => {});
  });
  const messages = await new ToolRegistry([hang]).dispatch(openai(["hang", ""], ["hang", ""], ["hang", ""]), {
    timeoutMs: 15,
    maxConcurrency: 1,
  });
  assert.is(starts, 1);
  assert.equal(
    messages.map((m) => [m.tool_call_id, m.status]),
    [
      ["call_0", "error"],
      ["call_1", "error"],
      ["call_2", "error"],
    ],
  );
  for (const m of messages) assert.match(m.content, /timed out: the time limit of 15ms/);
});

test("the caller's signal cancels everything: running calls abort, waiting calls never start", async () => {
  let starts = 0;
  const signals: AbortSignal[] = [];
  /** A tool of this test. */
  const hang = tool(function hang(context: ToolContext) {
    starts++;
    signals.push(context.signal);
    if (starts === 2) twoStarted.resolve();
    return new Promise(() => {});
  });
  const twoStarted = deferred();
  const controller = new AbortController();
  const pending = new ToolRegistry([hang]).dispatch(openai(["hang", ""], ["hang", ""], ["hang", ""]), {
    signal: controller.signal,
    maxConcurrency: 2,
  });
  await twoStarted.promise;
  // Were the third call to start, it would be by now.
  await turns(2);
  controller.abort(new Error("stop"));
  const error = await pending.catch((e: unknown) => e);
  assert.is((error as Error).message, "stop");
  assert.is(starts, 2);
  assert.ok(signals.every((s) => s.aborted));
});

test("a handler that rethrows rejects dispatch and aborts the calls still running", async () => {
  let hangSignal: AbortSignal | undefined;
  const hangStarted = deferred();
  /** A tool of this test. */
  const hang = tool(function hang(context: ToolContext) {
    hangSignal = context.signal;
    hangStarted.resolve();
    return new Promise(() => {});
  });
  /** A tool of this test. */
  const fail = tool(
    async function fail() {
      await hangStarted.promise;
      throw new Error("disk full");
    },
    { handleToolError: false },
  );
  const error = await new ToolRegistry([hang, fail])
    .dispatch(openai(["hang", ""], ["fail", ""]))
    .catch((e: unknown) => e);
  assert.is((error as Error).message, "disk full");
  assert.ok(hangSignal!.aborted);
});

test("duplicate and missing call ids: still one message per call, in order, each with the id it came with", async () => {
  const messages = await new ToolRegistry([count]).dispatch({
    tool_calls: [
      { id: "same", type: "function", function: { name: "count", arguments: '{"n":1}' } },
      { id: "same", type: "function", function: { name: "count", arguments: '{"n":2}' } },
      { type: "function", function: { name: "count", arguments: '{"n":3}' } } as never,
      { name: "count", args: { n: 4 } } as never,
      { id: "same", type: "function", function: { name: "nope", arguments: "{}" } },
    ],
  });
  assert.equal(
    messages.map((m) => [m.tool_call_id, m.content.slice(0, 20), m.status]),
    [
      ["same", "n=1", "success"],
      ["same", "n=2", "success"],
      ["", "n=3", "success"],
      ["", "n=4", "success"],
      ["same", 'Error: "nope" is not', "error"],
    ],
  );
});

test("coerce and repair are on by default and can be switched off per registry, per dispatch and per tool", async () => {
  const message = openai(["count", '{"n":"5"}']);
  const [coerced] = await new ToolRegistry([count]).dispatch(message);
  assert.is(coerced!.content, "n=5");
  const [strict] = await new ToolRegistry([count], { coerce: false }).dispatch(message);
  assert.is(
    strict!.content,
    'Error: invalid arguments for count:\n- /n: must be an integer; got "5"\nCall count again with corrected arguments.',
  );
  const [perDispatch] = await new ToolRegistry([count]).dispatch(message, { coerce: false });
  assert.is(perDispatch!.status, "error");
  const eager = tool(
    (n: number) => `n=${n}`,
    { coerce: true },
    {
      v: 1,
      name: "eager",
      description: "",
      parameters: {
        type: "object",
        properties: { n: { type: "integer" } },
        required: ["n"],
        additionalProperties: false,
      },
      params: ["n"],
    },
  );
  const [toolWins] = await new ToolRegistry([eager]).dispatch(openai(["eager", '{"n":"5"}']), { coerce: false });
  assert.is(toolWins!.content, "n=5", "the tool's own setting wins");

  const sloppy = openai(["count", "{n: 5,}"]);
  assert.is((await new ToolRegistry([count]).dispatch(sloppy))[0]!.content, "n=5");
  assert.match(
    (await new ToolRegistry([count], { repair: false }).dispatch(sloppy))[0]!.content,
    /^Error: invalid JSON/,
  );
  assert.match(
    (await new ToolRegistry([count]).dispatch(sloppy, { repair: false }))[0]!.content,
    /^Error: invalid JSON/,
  );
});

test("argument limits are options: maxArgumentsBytes and maxArgumentsDepth, per registry and per tool", async () => {
  const registry = new ToolRegistry([count], { maxArgumentsBytes: 10, maxArgumentsDepth: 1 });
  const [long] = await registry.dispatch(openai(["count", '{"n":1,"x":"123"}']));
  assert.is(
    long!.content,
    "Error: the arguments for count are too large (17 bytes, the limit is 10 bytes of JSON).\nCall count again with smaller arguments.",
  );
  const [deep] = await registry.dispatch(openai(["count", '{"n":[1]}']));
  assert.is(
    deep!.content,
    "Error: the arguments for count are nested too deeply (more than 1 levels of objects and arrays).\nCall count again with arguments nested at most 1 levels deep.",
  );
  const [fine] = await registry.dispatch(openai(["count", '{"n":1}']));
  assert.is(fine!.content, "n=1");
});

test("invoke(name, args) validates the caller's input strictly unless asked to coerce", async () => {
  const registry = new ToolRegistry([count]);
  const error = await registry.invoke("count", { n: "5" }).catch((e: unknown) => e);
  assert.instance(error, ToolValidationError);
  assert.is(await registry.invoke("count", { n: "5" }, { coerce: true }), "n=5");
  // A model's call through invoke(call) is treated as dispatch treats it.
  const answer = await registry.invoke({
    id: "c",
    type: "function",
    function: { name: "count", arguments: '{"n":"6"}' },
  });
  assert.is(answer.content, "n=6");
});

test("hooks: start, error and end for every call, registry's first, with tags, metadata, repairs and coercions", async () => {
  const log: string[] = [];
  const events: (ToolEvent | ToolEndEvent | ToolErrorEvent)[] = [];
  const tagged = tool(
    (n: number) => `n=${n}`,
    { tags: ["math"], metadata: { owner: "team-a" } },
    {
      v: 1,
      name: "tagged",
      description: "",
      parameters: {
        type: "object",
        properties: { n: { type: "integer" } },
        required: ["n"],
        additionalProperties: false,
      },
      params: ["n"],
    },
  );
  // The dispatch's clock, moved only by `boom`: its end event's duration is exactly what its run took.
  let now = 1_000;
  /** A tool of this test. */
  const boom = tool(function boom() {
    now += 30;
    throw new Error("broken");
  });
  const registry = new ToolRegistry([tagged, boom], {
    onToolStart: (e) => {
      log.push(`registry start ${e.call.id}`);
      events.push(e);
    },
    onToolEnd: (e) => {
      log.push(`registry end ${e.call.id} ${e.status}`);
      events.push(e);
    },
    onToolError: (e) => {
      log.push(`registry error ${e.call.id} ${e.kind}`);
      events.push(e);
    },
  });
  performance.now = () => now;
  let messages: ToolMessage[];
  try {
    messages = await registry.dispatch(
      openai(["tagged", "{'n': '7'}", "a"], ["boom", "", "b"], ["tagged", '{"n":"x"}', "c"], ["ghost", "{}", "d"]),
      {
        metadata: { user: "ada" },
        onToolStart: (e) => log.push(`dispatch start ${e.call.id}`),
        onToolEnd: (e) => log.push(`dispatch end ${e.call.id}`),
        onToolError: (e) => log.push(`dispatch error ${e.call.id}`),
      },
    );
  } finally {
    // The own property goes; the prototype's `now` is the real clock again.
    delete (performance as { now?: unknown }).now;
  }
  const forCall = (id: string) => log.filter((line) => line.split(" ")[2] === id);
  assert.equal(forCall("a"), ["registry start a", "dispatch start a", "registry end a success", "dispatch end a"]);
  assert.equal(forCall("b"), [
    "registry start b",
    "dispatch start b",
    "registry error b tool",
    "dispatch error b",
    "registry end b error",
    "dispatch end b",
  ]);
  assert.equal(forCall("c").slice(2, 3), ["registry error c validation"]);
  assert.equal(forCall("d").slice(2, 3), ["registry error d validation"]);

  const startA = events.find((e) => e.call.id === "a" && !("durationMs" in e)) as ToolEvent;
  assert.equal(startA.call, { name: "tagged", args: { n: 7 }, id: "a", type: "tool_call" });
  assert.is(startA.tool!.name, "tagged");
  assert.equal(startA.tags, ["math"]);
  assert.equal(startA.metadata, { owner: "team-a", user: "ada" });
  assert.equal(startA.repairs, ["single_quotes"]);
  assert.equal(startA.coercions, [{ path: "/n", rule: "number", from: "7" }]);

  const endB = events.find((e) => e.call.id === "b" && "message" in e) as ToolEndEvent;
  assert.is(endB.message, messages[1]);
  assert.instance(endB.message, ToolMessage);
  assert.is(endB.durationMs, 30);
  const endA = events.find((e) => e.call.id === "a" && "message" in e) as ToolEndEvent;
  assert.is(endA.durationMs, 0, "no time passed in tagged's run");
  const errorB = events.find((e) => e.call.id === "b" && "error" in e) as ToolErrorEvent;
  assert.is((errorB.error as Error).message, "broken");

  const startD = events.find((e) => e.call.id === "d") as ToolEvent;
  assert.is(startD.tool, undefined);
  assert.equal(startD.tags, []);
});

test("a throwing or rejecting hook never changes the outcome", async () => {
  const registry = new ToolRegistry([count], {
    onToolStart: () => {
      throw new Error("hook bug");
    },
    onToolEnd: async () => {
      throw new Error("async hook bug");
    },
  });
  const messages = await registry.dispatch(openai(["count", '{"n":1}'], ["count", "{"]), {
    onToolError: () => {
      throw new Error("another");
    },
  });
  assert.equal(
    messages.map((m) => m.status),
    ["success", "error"],
  );
});

test("an aborted call reports kind aborted to onToolError and has no end", async () => {
  const seen: string[] = [];
  const started = deferred();
  /** A tool of this test. */
  const hang = tool(function hang() {
    started.resolve();
    return new Promise(() => {});
  });
  const controller = new AbortController();
  const pending = new ToolRegistry([hang]).dispatch(openai(["hang", ""]), {
    signal: controller.signal,
    onToolError: (e) => seen.push(`error ${e.kind} ${String((e.error as Error).message)}`),
    onToolEnd: () => seen.push("end"),
  });
  await started.promise;
  controller.abort(new Error("bye"));
  await pending.catch(() => undefined);
  assert.equal(seen, ["error aborted bye"]);
});

test.run();
