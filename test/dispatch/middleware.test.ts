/**
 * Middleware, one test per use: change the arguments (re-validated), answer without calling (cache, policy deny),
 * retry, time, redact the result; the order (registry's `use` outermost in the order added, then the dispatch's
 * `wrap`), and hooks still observing the model's call.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolError, type ToolMiddleware, ToolRegistry, type Int, tool } from "tooltype";

function tools() {
  const calls: string[] = [];
  let failuresLeft = 0;
  /**
   * Look up a customer.
   * @param id Customer number
   */
  const customer = tool(function customer(id: Int) {
    calls.push(`customer ${id}`);
    return { id, name: "Ada", card: "4111 1111 1111 1111" };
  });
  /**
   * A flaky service.
   * @param q Query
   */
  const flaky = tool(async function flaky(q: string) {
    calls.push(`flaky ${q}`);
    if (failuresLeft-- > 0) throw new Error("503 from upstream");
    return `ok ${q}`;
  });
  return { calls, customer, flaky, failTimes: (n: number) => (failuresLeft = n) };
}

const call = (name: string, args: Record<string, unknown>, id = "c1") => ({ tool_calls: [{ id, name, args }] });

test("change the arguments: next(args) passes them on, validated again (coerced to the schema)", async () => {
  const { customer, calls } = tools();
  const registry = new ToolRegistry([customer]).use((request, next) => next({ ...request.args, id: "7" }));
  const [answer] = await registry.dispatch(call("customer", { id: 1 }));
  assert.equal(calls, ["customer 7"]);
  assert.is(JSON.parse(answer!.content).id, 7);
  // Arguments that do not fit are the middleware's bug: a tool error, and the tool does not run.
  const broken = new ToolRegistry([tools().customer]).use((_request, next) => next({ id: "seven" }));
  const [bad] = await broken.dispatch(call("customer", { id: 1 }));
  assert.is(bad!.status, "error");
  assert.match(bad!.content, /^Error: a middleware passed arguments to customer that do not fit its schema/);
});

test("cache: answer without calling the tool", async () => {
  const { customer, calls } = tools();
  const cache = new Map<string, unknown>();
  const caching: ToolMiddleware = async (request, next) => {
    const key = `${request.name} ${JSON.stringify(request.args)}`;
    if (!cache.has(key)) cache.set(key, await next());
    return cache.get(key);
  };
  const registry = new ToolRegistry([customer]).use(caching);
  const first = await registry.dispatch(call("customer", { id: 1 }));
  const second = await registry.dispatch(call("customer", { id: 1 }, "c2"));
  assert.equal(calls, ["customer 1"]);
  assert.is(second[0]!.content, first[0]!.content);
  assert.is(second[0]!.tool_call_id, "c2");
});

test("policy: deny with a ToolError the model reads, the tool never runs", async () => {
  const { customer, calls } = tools();
  const policy: ToolMiddleware = (request, next) => {
    if (request.metadata.role !== "admin") throw new ToolError(`${request.name} is for admins only.`);
    return next();
  };
  const registry = new ToolRegistry([customer]).use(policy);
  const [denied] = await registry.dispatch(call("customer", { id: 1 }), { metadata: { role: "guest" } });
  assert.equal([denied!.status, denied!.content], ["error", "customer is for admins only."]);
  assert.equal(calls, []);
  const [allowed] = await registry.dispatch(call("customer", { id: 1 }), { metadata: { role: "admin" } });
  assert.is(allowed!.status, "success");
});

test("retry: call next again after a failure", async () => {
  const { flaky, calls, failTimes } = tools();
  const retry: ToolMiddleware = async (_request, next) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await next();
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  };
  const registry = new ToolRegistry([flaky]).use(retry);
  failTimes(2);
  const [answer] = await registry.dispatch(call("flaky", { q: "x" }));
  assert.equal([answer!.status, answer!.content], ["success", "ok x"]);
  assert.equal(calls, ["flaky x", "flaky x", "flaky x"]);
  failTimes(5);
  const [failed] = await registry.dispatch(call("flaky", { q: "y" }));
  assert.equal([failed!.status, failed!.content], ["error", "Error: 503 from upstream"]);
});

test("timing: measure each call around next()", async () => {
  // A clock only the tool moves, so the measure is exact: it spans the tool's run, not only the middleware's.
  let clock = 0;
  /**
   * Takes 25 ticks of the test's clock.
   * @param q Anything
   */
  const ticking = tool(async function ticking(q: string) {
    await Promise.resolve();
    clock += 25;
    return q;
  });
  const timings: { name: string; ms: number }[] = [];
  const timing: ToolMiddleware = async (request, next) => {
    const start = clock;
    try {
      return await next();
    } finally {
      timings.push({ name: request.name, ms: clock - start });
    }
  };
  const [answer] = await new ToolRegistry([ticking]).dispatch(call("ticking", { q: "t" }), { wrap: timing });
  assert.is(answer!.content, "t");
  assert.equal(timings, [{ name: "ticking", ms: 25 }]);
});

test("redaction: change the result before the model reads it", async () => {
  const { customer } = tools();
  const redact: ToolMiddleware = async (_request, next) => {
    const result = (await next()) as { card?: string };
    return { ...result, card: result.card?.replace(/\d(?=(?:\D*\d){4})/g, "*") };
  };
  const [answer] = await new ToolRegistry([customer]).use(redact).dispatch(call("customer", { id: 2 }));
  assert.equal(JSON.parse(answer!.content), { id: 2, name: "Ada", card: "**** **** **** 1111" });
});

test("order: registry middleware outermost in the order added, then the dispatch's wrap; hooks still see the model's call", async () => {
  const { customer } = tools();
  const trace: string[] = [];
  const layer =
    (name: string): ToolMiddleware =>
    async (request, next) => {
      trace.push(`${name} in ${String(request.args.id)}`);
      const result = await next({ ...request.args, id: (request.args.id as number) + 1 });
      trace.push(`${name} out`);
      return result;
    };
  const started: unknown[] = [];
  const registry = new ToolRegistry([customer], { onToolStart: (event) => started.push(event.call.args) }).use(
    layer("a"),
    layer("b"),
  );
  registry.use(layer("c"));
  const [answer] = await registry.dispatch(call("customer", { id: 1 }), { wrap: [layer("d"), layer("e")] });
  assert.equal(trace, ["a in 1", "b in 2", "c in 3", "d in 4", "e in 5", "e out", "d out", "c out", "b out", "a out"]);
  assert.is(JSON.parse(answer!.content).id, 6);
  assert.equal(started, [{ id: 1 }]);
  assert.throws(() => registry.use("nope" as unknown as ToolMiddleware), /registry.use takes middleware functions/);
});

test("the tool's time limit covers the whole chain, and its signal reaches the middleware", async () => {
  const { customer } = tools();
  let aborted = false;
  const slow: ToolMiddleware = (request) =>
    new Promise((resolve) => {
      request.signal.addEventListener("abort", () => {
        aborted = true;
        resolve("late");
      });
    });
  const [answer] = await new ToolRegistry([customer], { timeoutMs: 20 })
    .use(slow)
    .dispatch(call("customer", { id: 1 }));
  assert.is(answer!.status, "error");
  assert.match(answer!.content, /timed out/);
  assert.ok(aborted);
});

test.run();
