/**
 * Once a call is answered, nothing of it starts, and nothing one call returns can take the batch's other answers
 * with it (hostile input, round two, items 11 and 12).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistry, tool } from "tooltype";

function chat(...names: string[]): object {
  return {
    role: "assistant",
    content: null,
    tool_calls: names.map((name, i) => ({ id: `c${i}`, type: "function", function: { name, arguments: "{}" } })),
  };
}

let runs = 0;

/** Count a run. */
const counted = tool(
  function counted() {
    runs++;
    return "ran";
  },
  { timeoutMs: 1 },
);

test("a middleware's next() after the call timed out starts nothing: the tool never runs after the model was told it timed out", async () => {
  runs = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let late: Promise<unknown> | undefined;
  const registry = new ToolRegistry([counted]).use(async (_request, next) => {
    await gate;
    late = next();
    return late;
  });
  const [answer] = await registry.dispatch(chat("counted"));
  assert.is(answer!.status, "error");
  assert.match(answer!.content, /timed out/);
  release();
  // The middleware goes on after the answer: its next() is refused, and the tool does not run.
  while (late === undefined) await new Promise((resolve) => setImmediate(resolve));
  await late.then(
    () => assert.unreachable("next() after the answer resolved"),
    (error: unknown) => assert.match(String(error), /after the call was answered/),
  );
  assert.is(runs, 0);
});

/** Run once. */
const quick = tool(function quick() {
  runs++;
  return "done";
});

test("a middleware that calls next() again after its call was answered runs nothing more", async () => {
  runs = 0;
  let again: Promise<unknown> | undefined;
  // Settled into a value at once: a rejection nobody reads yet would be reported as unhandled.
  const outcome = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => "resolved",
      (error: unknown) => error,
    );
  let later!: () => void;
  const afterwards = new Promise<void>((resolve) => (later = resolve));
  const registry = new ToolRegistry([quick]).use(async (_request, next) => {
    const first = await next();
    void afterwards.then(() => (again = outcome(next())));
    return first;
  });
  const [answer] = await registry.dispatch(chat("quick"));
  assert.is(answer!.content, "done");
  later();
  while (again === undefined) await new Promise((resolve) => setImmediate(resolve));
  assert.match(String(await again), /after the call was answered/);
  assert.is(runs, 1);
});

/** A Proxy whose only trap, getPrototypeOf, throws: `instanceof` on it throws. */
function prototypeBomb(): object {
  return new Proxy(
    {},
    {
      getPrototypeOf() {
        throw new Error("no prototype for you");
      },
    },
  );
}

/** Return something unreadable. */
const bomb = tool(function bomb() {
  return prototypeBomb();
});

/** Answer plainly. */
const plain = tool(function plain() {
  return "plain answer";
});

test("a result that is a Proxy whose getPrototypeOf trap throws fails its own call; the batch's other answers are kept", async () => {
  const registry = new ToolRegistry([bomb, plain]);
  for (const options of [{}, { onToolEnd: () => undefined }]) {
    const answers = await registry.dispatch(chat("bomb", "plain", "bomb"), options);
    assert.equal(
      answers.map((m) => m.status),
      ["error", "success", "error"],
    );
    assert.is(answers[1]!.content, "plain answer");
  }
  const withMiddleware = new ToolRegistry([bomb, plain]).use((_request, next) => next());
  const answers = await withMiddleware.dispatch(chat("bomb", "plain"));
  assert.equal(
    answers.map((m) => m.status),
    ["error", "success"],
  );
});

test.run();
