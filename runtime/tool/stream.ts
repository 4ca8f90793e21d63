/** Tools that stream: a tool written as `async function*` yields progress values and returns its result. */

/**
 * One progress report: `progress` rising, of `total` when known, with an optional `message`. It is the shape
 * `ToolContext.progress` reports in, so MCP's `notifications/progress` and `DispatchOptions.onProgress` take a
 * streaming tool's reports unchanged; the yielded value itself goes along for the places that can show it (runTools'
 * `tool_progress` events, the AI SDK's preliminary results). Dispatch answers the call with what the generator returns.
 */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Whether a tool's return value is an async generator it hands over to be driven (the object an `async function*`
 * returns). Only a real async generator counts, or, for a tool the transformer marked as streaming (`streams`), the
 * object a build that lowered `async function*` makes (an async iterator with `next` and `return`): a tool may well
 * return some other async iterable (a stream of bytes) as its result.
 */
export function isToolStream(value: unknown, streams?: true): value is AsyncGenerator<unknown, unknown, undefined> {
  if (typeof value !== "object" || value === null) return false;
  try {
    if (Object.prototype.toString.call(value) === "[object AsyncGenerator]") return true;
    if (streams !== true) return false;
    const iterator = value as { next?: unknown; return?: unknown; [Symbol.asyncIterator]?: unknown };
    return (
      typeof iterator.next === "function" &&
      typeof iterator.return === "function" &&
      typeof iterator[Symbol.asyncIterator] === "function"
    );
  } catch {
    // A Proxy whose traps throw is no generator.
    return false;
  }
}

/**
 * The progress report of the `count`-th yielded value (1 for the first): a finite number is the progress itself; an
 * object with a finite `progress` gives its `progress`, `total` and `message`; anything else counts the yields, a
 * string as the message, an object's `message` string too.
 */
export function progressOf(value: unknown, count: number): ToolProgress {
  if (typeof value === "number" && Number.isFinite(value)) return { progress: value };
  if (typeof value === "string") return { progress: count, message: value };
  if (typeof value === "object" && value !== null) {
    const record = value as { progress?: unknown; total?: unknown; message?: unknown };
    const message = typeof record.message === "string" ? { message: record.message } : {};
    if (typeof record.progress === "number" && Number.isFinite(record.progress)) {
      return {
        progress: record.progress,
        ...(typeof record.total === "number" && Number.isFinite(record.total) ? { total: record.total } : {}),
        ...message,
      };
    }
    return { progress: count, ...message };
  }
  return { progress: count };
}

/** Yields reported between two turns of the event loop. */
const YIELDS_PER_TURN = 1024;

/**
 * Drives a tool's generator to its end: each yielded value is reported (`report`), the returned value resolves the
 * promise. `stop()` ends it early (a timeout, an abort, a call answered otherwise): the generator's `return()` is
 * called, so its `finally` blocks run (once it reaches its next `yield`, if it is inside an `await`), and nothing it
 * yields afterwards is reported.
 */
export function driveToolStream(
  generator: AsyncGenerator<unknown, unknown, undefined>,
  report: (value: unknown, count: number) => void,
): { readonly result: Promise<unknown>; stop(): void } {
  let stopped = false;
  let done = false;
  const result = (async () => {
    let count = 0;
    try {
      for (;;) {
        const step = await generator.next();
        if (step.done) return step.value;
        if (stopped) return undefined;
        report(step.value, ++count);
        // A generator that yields without ever waiting for I/O runs on microtasks alone, where no timer fires:
        // every so often a turn of the event loop lets its time limit, an abort and other requests in.
        if (count % YIELDS_PER_TURN === 0) await new Promise<void>((resolve) => setTimeout(resolve, 0));
        if (stopped) return undefined;
      }
    } finally {
      done = true;
    }
  })();
  return {
    result,
    stop() {
      if (stopped || done) return;
      stopped = true;
      // A `finally` of the tool's that throws is the tool's affair once its call has been answered.
      generator.return(undefined).catch(() => undefined);
    },
  };
}
