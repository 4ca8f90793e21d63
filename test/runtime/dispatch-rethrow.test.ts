/**
 * A handler that rethrows (`handleValidationError: false`) rejects dispatch while other calls of the same message
 * are still running: those are aborted, and their own rejections must not surface as unhandled rejections (which
 * would end a Node process).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { tool, ToolRegistry, type ToolContext } from "tooltype";

/**
 * Wait, then echo.
 * @param x A number
 */
const slow = tool(async function slow(x: number, ctx: ToolContext) {
  await new Promise((resolve) => setTimeout(resolve, 30));
  return ctx.signal.aborted ? "aborted" : String(x);
});

/**
 * Echo, refusing bad arguments loudly.
 * @param x A number
 */
const strict = tool(function strict(x: number) { return x; }, { handleValidationError: false });

test("the running calls are aborted and their rejections handled", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  process.on("unhandledRejection", onUnhandled);
  try {
    const registry = new ToolRegistry([slow, strict]);
    const outcome = await registry
      .dispatch({ tool_calls: [{ id: "1", name: "slow", args: { x: 1 } }, { id: "2", name: "strict", args: { x: "no" } }] })
      .then(
        () => "resolved",
        (error: Error) => error.message,
      );
    assert.match(outcome, /^invalid arguments for strict/);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});

test.run();
