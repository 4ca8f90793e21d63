/** `ToolRunStream`: what `runTools(..., { stream: true })` returns; the loop runs as its events are read. */
import type { ChatLoopTypes } from "../providers/catalog";
import type { LoopTypes } from "../providers/provider";
import type { RunToolsEvent, RunToolsResult } from "./run-types";

type Loop<M, T, L extends LoopTypes> = AsyncGenerator<RunToolsEvent<M, T, L>, RunToolsResult<M, T, L>>;

/**
 * A streamed `runTools` run: iterate it for events (`text`, `tool_call_delta`, `tool_call`, `tool_progress`,
 * `tool_result`, `step`, `final`), or await `finalResult()`, whether or not the events are read (without a reader it
 * reads them itself and drops them). Leaving the iteration early (`break`, an exception in its body) stops the loop:
 * the request in flight and the running tools are aborted, and `finalResult()` rejects.
 */
export class ToolRunStream<M, T, L extends LoopTypes = ChatLoopTypes> implements AsyncIterable<RunToolsEvent<M, T, L>> {
  readonly #loop: Loop<M, T, L>;
  readonly #stop = new AbortController();
  readonly #result: Promise<RunToolsResult<M, T, L>>;
  #resolve!: (result: RunToolsResult<M, T, L>) => void;
  #reject!: (error: unknown) => void;
  #claimed = false;

  /** @param start starts the loop; its signal aborts when the reader stops early. */
  /** @internal Made by `runTools(…, { stream: true })`. */
  constructor(start: (stop: AbortSignal) => Loop<M, T, L>) {
    this.#loop = start(this.#stop.signal);
    this.#result = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A caller who only iterates need not also await the result: its rejection must not count as unhandled.
    this.#result.catch(() => undefined);
  }

  /** The run's events, in order; a run can be iterated once. */
  [Symbol.asyncIterator](): AsyncIterator<RunToolsEvent<M, T, L>> {
    this.#claim();
    return {
      next: () => this.#next(),
      return: async () => {
        const reason = new Error("runTools: the stream was closed before the loop ended.");
        this.#stop.abort(reason);
        this.#reject(reason);
        await this.#loop.return(undefined as never).catch(() => undefined);
        return { done: true, value: undefined };
      },
    };
  }

  /** The loop's result, once it is over; rejects with the loop's error. */
  finalResult(): Promise<RunToolsResult<M, T, L>> {
    if (!this.#claimed) {
      this.#claim();
      void (async () => {
        // Errors reach the caller through the result promise.
        try {
          while (!(await this.#next()).done);
        } catch {
          /* rejected in #next */
        }
      })();
    }
    return this.#result;
  }

  async #next(): Promise<IteratorResult<RunToolsEvent<M, T, L>, undefined>> {
    try {
      const next = await this.#loop.next();
      if (next.done) {
        this.#resolve(next.value);
        return { done: true, value: undefined };
      }
      // The result is known from the final event on: a reader that stops there has not cut the loop short.
      if (next.value.type === "final") this.#resolve(next.value.result);
      return next;
    } catch (error) {
      this.#reject(error);
      throw error;
    }
  }

  #claim(): void {
    if (this.#claimed) {
      throw new Error(
        "runTools: this stream is already being read; iterate it once (finalResult() then gives the result), or call finalResult() alone.",
      );
    }
    this.#claimed = true;
  }
}
