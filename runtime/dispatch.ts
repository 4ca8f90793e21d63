/**
 * Answering an assistant message: read its tool calls (calls.ts), run them through the per-call pipeline
 * (pipeline.ts) and return exactly one ToolMessage per call, in call order.
 *
 * - Calls run concurrently, at most `maxConcurrency` at a time (dispatch's, else the registry's; default all).
 * - `timeoutMs` of the dispatch is one deadline for all its calls; each tool's own `timeoutMs` applies within it.
 * - The caller's `signal` aborts every running call and rejects with its reason; calls still waiting never start.
 * - A handler that rethrows (`handleToolError: false`, …) rejects dispatch with that error and aborts the rest.
 */
import { normalizeCalls } from "./calls";
import type { DispatchInput, ToolMessage } from "./messages";
import type { DispatchOptions } from "./options";
import { type DispatchEnvironment, answerCall, createRun } from "./pipeline";

export { answerCall, invokeRaw, invokeTool } from "./pipeline";
export type { DispatchEnvironment, DispatchRun, DispatchTool, ToolInput } from "./pipeline";

/** One ToolMessage per call in `message`, in call order. */
export async function dispatchMessage(
  env: DispatchEnvironment,
  message: DispatchInput,
  options: DispatchOptions = {},
): Promise<ToolMessage[]> {
  const calls = normalizeCalls(message);
  options.signal?.throwIfAborted();
  const limit = concurrencyLimit(options.maxConcurrency ?? env.options.maxConcurrency);
  const run = createRun(options);
  try {
    if (limit >= calls.length) return await Promise.all(calls.map((call) => answerCall(env, call, options, run)));
    const answers: ToolMessage[] = new Array(calls.length);
    let next = 0;
    let stopped = false;
    const worker = async (): Promise<void> => {
      while (!stopped && next < calls.length) {
        const index = next++;
        try {
          answers[index] = await answerCall(env, calls[index]!, options, run);
        } catch (error) {
          stopped = true;
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: limit }, worker));
    return answers;
  } catch (error) {
    // Dispatch gives up: no one will read the other answers, so stop the calls still running.
    run.abort(error);
    throw error;
  } finally {
    run.close();
  }
}

function concurrencyLimit(value: number | undefined): number {
  if (value === undefined || value === Infinity) return Infinity;
  if (Number.isInteger(value) && value >= 1) return value;
  throw new RangeError(`maxConcurrency must be a positive integer (or Infinity); got ${String(value)}.`);
}
