/**
 * A handler that rethrows (`handleValidationError: false`) rejects dispatch while other calls of the same message
 * are still running: those are aborted, and their own rejections must not surface as unhandled rejections (which
 * would end a Node process).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { tool, ToolRegistry, type ToolContext } from "tooltype";

/** Lets `slow` go on: the test does once dispatch has rejected. */
let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
/** Settles when `slow` has returned. */
let ended!: () => void;
const slowEnded = new Promise<void>((resolve) => (ended = resolve));

/**
 * Wait, then echo.
 * @param x A number
 */
const slow = tool(async function slow(x: number, ctx: ToolContext) {
  await released;
  ended();
  return ctx.signal.aborted ? "aborted" : String(x);
});

/**
 * Echo, refusing bad arguments loudly.
 * @param x A number
 */
const strict = tool(
  function strict(x: number) {
    return x;
  },
  { handleValidationError: false },
);

test("the running calls are aborted and their rejections handled", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  process.on("unhandledRejection", onUnhandled);
  try {
    const registry = new ToolRegistry([slow, strict]);
    const outcome = await registry
      .dispatch({
        tool_calls: [
          { id: "1", name: "slow", args: { x: 1 } },
          { id: "2", name: "strict", args: { x: "no" } },
        ],
      })
      .then(
        () => "resolved",
        (error: Error) => error.message,
      );
    assert.match(outcome, /^invalid arguments for strict/);
    // `slow` still runs; it ends now, and Node reports an unhandled rejection once the turn's promise jobs are done.
    release();
    await slowEnded;
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});

test.run();
