/**
 * Tools that stream: a tool written as `async function*` (compiled by the real transformer with this suite) yields
 * progress and returns its result. The transformer reads the parameters as for any function, the result's schema
 * from the generator's TReturn and the progress schema from its TYield; dispatch answers with the returned value
 * and reports each yield to `onProgress` (as a progress report and as the value); a time limit or an abort stops the
 * generator (its `finally` runs, nothing after the `yield` it was stopped at).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type ToolContext, type ToolProgress, ToolRegistry, tool } from "tooltype";
import { deferred, turns } from "../support/deferred";

interface Report {
  done: number;
  of: number;
}

/**
 * Count to a number.
 * @param to Where to stop
 */
const count = tool(async function* count(to: number): AsyncGenerator<Report, { counted: number }> {
  for (let i = 1; i <= to; i++) yield { done: i, of: to };
  return { counted: to };
});

/**
 * Say what it does.
 * @param steps How many steps
 */
const phases = tool(async function* phases(steps: number) {
  yield "starting";
  for (let i = 1; i <= steps; i++) yield { progress: i * 10, total: steps * 10, message: `step ${i}` };
  return `finished ${steps} steps`;
});

test("the transformer reads a generator's parameters, its TReturn as the result and its TYield as progress", () => {
  const registry = new ToolRegistry([count, phases]);
  const meta = registry.get("count")!.meta;
  assert.is(meta.streams, true);
  assert.equal(meta.params, ["to"]);
  assert.equal((meta.parameters as { properties: unknown }).properties, {
    to: { type: "number", description: "Where to stop" },
  });
  assert.equal(meta.returns, {
    type: "object",
    properties: { counted: { type: "number" } },
    required: ["counted"],
    additionalProperties: false,
  });
  assert.equal(meta.yields, {
    type: "object",
    properties: { done: { type: "number" }, of: { type: "number" } },
    required: ["done", "of"],
    additionalProperties: false,
  });
  const inferred = registry.get("phases")!.meta;
  assert.is(inferred.streams, true);
  assert.equal(inferred.returns, { type: "string" });
  // A plain function is no stream.
  /**
   * Plain.
   * @param x A number
   */
  const plain = tool(function plain(x: number) {
    return x;
  });
  assert.is(new ToolRegistry([plain]).get("plain")!.meta.streams, undefined);
});

test("dispatch answers with what the generator returns; each yield reaches onProgress as a report and as the value", async () => {
  const registry = new ToolRegistry([count, phases]);
  const reports: [ToolProgress, string, unknown][] = [];
  const answers = await registry.runCalls(
    {
      tool_calls: [
        { id: "a", name: "count", args: { to: 2 } },
        { id: "b", name: "phases", args: { steps: 1 } },
      ],
    },
    { onProgress: (update, call, yielded) => reports.push([update, call.id!, yielded?.value]) },
  );
  assert.equal(
    answers.map((m) => [m.status, m.content]),
    [
      ["success", '{"counted":2}'],
      ["success", "finished 1 steps"],
    ],
  );
  const byCall = (id: string) => reports.filter(([, call]) => call === id).map(([update, , value]) => [update, value]);
  assert.equal(byCall("a"), [
    [{ progress: 1 }, { done: 1, of: 2 }],
    [{ progress: 2 }, { done: 2, of: 2 }],
  ]);
  assert.equal(byCall("b"), [
    [{ progress: 1, message: "starting" }, "starting"],
    [
      { progress: 10, total: 10, message: "step 1" },
      { progress: 10, total: 10, message: "step 1" },
    ],
  ]);
});

test("a plain run (no hooks, no listener) answers the result too, and invoke returns it", async () => {
  const registry = new ToolRegistry([count]);
  const [answer] = await registry.runCalls({ tool_calls: [{ id: "a", name: "count", args: { to: 3 } }] });
  assert.is(answer!.content, '{"counted":3}');
  const openai = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "x", type: "function", function: { name: "count", arguments: '{"to":1}' } }],
  });
  assert.equal(JSON.parse(JSON.stringify(openai)), [{ role: "tool", tool_call_id: "x", content: '{"counted":1}' }]);
  assert.equal(await registry.invoke("count", { to: 4 }), { counted: 4 });
});

test("a generator that throws is a tool error, like any tool that throws", async () => {
  /**
   * Fails after one step.
   * @param n A number
   */
  const broken = tool(async function* broken(n: number) {
    yield n;
    throw new Error("the disk is full");
  });
  const [answer] = await new ToolRegistry([broken]).runCalls({
    tool_calls: [{ id: "a", name: "broken", args: { n: 1 } }],
  });
  assert.is(answer!.status, "error");
  assert.match(answer!.content, /the disk is full/);
});

/** A generator that reports where it got to, held at a gate between its first and second yield. */
function heldTool(gate: Promise<void>, trail: string[], finished: () => void) {
  return tool(
    /**
     * Held between two steps.
     * @param n A number
     */
    async function* held(n: number) {
      try {
        trail.push("first");
        yield n;
        await gate;
        trail.push("resumed");
        yield n + 1;
        trail.push("after the second yield");
        return "done";
      } finally {
        trail.push("finally");
        finished();
      }
    },
    { timeoutMs: 1 },
  );
}

test("a time limit answers the call and stops the generator: its finally runs, nothing after the yield it reached", async () => {
  const gate = deferred();
  const trail: string[] = [];
  const ended = deferred();
  const registry = new ToolRegistry([heldTool(gate.promise, trail, ended.resolve)]);
  const progress: unknown[] = [];
  const [answer] = await registry.runCalls(
    { tool_calls: [{ id: "a", name: "held", args: { n: 1 } }] },
    { onProgress: (_update, _call, yielded) => progress.push(yielded?.value) },
  );
  assert.is(answer!.status, "error");
  assert.match(answer!.content, /timed out|time limit|did not finish/i);
  assert.equal(trail, ["first"]);
  gate.resolve();
  // The generator reaches its second yield, where the return() waiting for it ends it.
  await ended.promise;
  assert.equal(trail, ["first", "resumed", "finally"]);
  // Nothing yielded after the answer is reported.
  assert.equal(progress, [1]);
});

test("a generator that yields forever without waiting for anything is still stopped by its time limit", async () => {
  const ended = deferred();
  let yielded = 0;
  /**
   * Never ends.
   * @param n A number
   */
  const endless = tool(
    async function* endless(n: number) {
      try {
        for (;;) yield n + yielded++;
      } finally {
        ended.resolve();
      }
    },
    { timeoutMs: 20 },
  );
  const [answer] = await new ToolRegistry([endless]).runCalls({
    tool_calls: [{ id: "a", name: "endless", args: { n: 0 } }],
  });
  assert.is(answer!.status, "error");
  assert.match(answer!.content, /timed out|time limit|did not finish/i);
  await ended.promise;
  const after = yielded;
  // Stopped: nothing more is pulled from it.
  await turns(2);
  assert.is(yielded, after);
});

test("the caller's abort stops a generator that takes a ToolContext at once: its signal aborts, finally runs", async () => {
  const trail: string[] = [];
  const started = deferred();
  const ended = deferred();
  /**
   * Runs until aborted.
   * @param label A label
   */
  const watching = tool(async function* watching(label: string, ctx: ToolContext) {
    try {
      yield label;
      started.resolve();
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      trail.push("saw the abort");
      yield "late";
      trail.push("after the late yield");
    } finally {
      trail.push("finally");
      ended.resolve();
    }
    return "never";
  });
  const registry = new ToolRegistry([watching]);
  const controller = new AbortController();
  const reasons: unknown[] = [];
  const running = registry.runCalls(
    { tool_calls: [{ id: "a", name: "watching", args: { label: "x" } }] },
    { signal: controller.signal, onProgress: (_u, _c, y) => reasons.push(y?.value) },
  );
  await started.promise;
  controller.abort(new Error("user left"));
  const error = await running.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  assert.match(String(error), /user left/);
  await ended.promise;
  assert.equal(trail, ["saw the abort", "finally"]);
  assert.equal(reasons, ["x"]);
});

test.run();
