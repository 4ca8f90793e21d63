/**
 * The run of one dispatch that is not plain (batch.ts makes it, and dispatch.ts's plain batches hand their rest to
 * one): what its calls share, namely its options, one abort signal, its deadline, the decisions of a resumed batch.
 */
import type { CallRun, DispatchEnvironment } from "./environment";
import { hasHooks } from "./hooks";
import { MAX_CALL_ID_LENGTH } from "./limits";
import type { DispatchOptions } from "./options";
import { validTimeout } from "./settings";

/** What the calls of one dispatch share: its options, one abort signal, its deadline. */
export interface DispatchRun extends CallRun {
  /** Set by batch.ts once the run's limits are read: see `CallRun`. */
  plain: boolean;
  idLimit: number;
  readonly options: DispatchOptions;
  /** Aborted when the caller's signal aborts, or when the dispatch gives up (a handler rethrew). */
  readonly signal: AbortSignal;
  /** Whether the run was aborted, and why: read without creating the signal. */
  readonly aborted: boolean;
  readonly reason: unknown;
  /** `performance.now()` by which every call must be answered, and the limit it came from. */
  readonly deadline: { readonly at: number; readonly timeoutMs: number } | undefined;
  /** The deadline has passed (or its timer fired: timers may fire a fraction of a millisecond early). */
  readonly expired: boolean;
  /** Note that the deadline's timer fired. */
  expire(): void;
  /** Call `listener` once when `signal` aborts; returns the function that unsubscribes it. */
  onAbort(listener: () => void): () => void;
  /** Abort every call of the run that is still going. */
  abort(reason: unknown): void;
  /** Detach from the caller's signal; call once the run is over. */
  close(): void;
  /** By call index: the answer for a call a human rejected (approval.ts); such a call is not run. */
  rejections?: readonly (string | undefined)[];
  /** By call index: the arguments a human edited when approving the call (approval.ts); its answer says so. */
  edits?: readonly (Record<string, unknown> | undefined)[];
}

/** Longest delay `setTimeout` honours; longer ones fire at once. */

/**
 * The run of one dispatch. Its AbortController is made only when something needs it (a caller's signal, a tool
 * that takes a ToolContext, a call still running): creating one costs more than answering a simple call.
 */
class Run implements DispatchRun {
  plain = false;
  idLimit = MAX_CALL_ID_LENGTH;
  readonly options: DispatchOptions;
  rejections?: readonly (string | undefined)[];
  edits?: readonly (Record<string, unknown> | undefined)[];
  readonly deadline: { readonly at: number; readonly timeoutMs: number } | undefined;
  #controller: AbortController | undefined;
  #listeners: Set<() => void> | undefined;
  #expired = false;
  #onCallerAbort: (() => void) | undefined;

  constructor(options: DispatchOptions) {
    this.options = options;
    const timeoutMs = validTimeout(options.timeoutMs);
    this.deadline = timeoutMs === undefined ? undefined : { at: performance.now() + timeoutMs, timeoutMs };
    const caller = options.signal;
    if (caller?.aborted) this.#controllerOf().abort(caller.reason);
    else if (caller) this.#follow(caller);
  }

  /** Abort with the caller's signal; apart from the constructor so that a run without one makes no closure. */
  #follow(caller: AbortSignal): void {
    const onCallerAbort = (): void => this.#controllerOf().abort(caller.reason);
    this.#onCallerAbort = onCallerAbort;
    caller.addEventListener("abort", onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controllerOf().signal;
  }

  get aborted(): boolean {
    return this.#controller?.signal.aborted ?? false;
  }

  get reason(): unknown {
    return this.#controller?.signal.reason;
  }

  get expired(): boolean {
    return this.#expired || (this.deadline !== undefined && performance.now() >= this.deadline.at);
  }

  expire(): void {
    this.#expired = true;
  }

  onAbort(listener: () => void): () => void {
    this.#controllerOf();
    const listeners = (this.#listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  abort(reason: unknown): void {
    this.#controllerOf().abort(reason);
  }

  close(): void {
    if (this.#onCallerAbort) this.options.signal?.removeEventListener("abort", this.#onCallerAbort);
  }

  #controllerOf(): AbortController {
    if (!this.#controller) {
      const controller = new AbortController();
      controller.signal.addEventListener(
        "abort",
        () => {
          const listeners = this.#listeners;
          if (!listeners) return;
          for (const listener of [...listeners]) listener();
          listeners.clear();
        },
        { once: true },
      );
      this.#controller = controller;
    }
    return this.#controller;
  }
}

/** A run for `options`: one listener on the caller's signal, fanned out to the calls. */
export function createRun(options: DispatchOptions): DispatchRun {
  return new Run(options);
}

/** Whether the calls of `run` are plain (see environment.ts `CallRun`): no approval decisions, deadline, middleware or hooks. */
export function isPlainRun(env: DispatchEnvironment, run: DispatchRun): boolean {
  const options = run.options;
  return (
    run.rejections === undefined &&
    run.deadline === undefined &&
    options.wrap === undefined &&
    (env.middleware === undefined || env.middleware.length === 0) &&
    !hasHooks(env.options) &&
    !hasHooks(options)
  );
}

/** The run was aborted (by the caller, or because dispatch gave up): reject with its reason, do not answer. */
export class CallerAbort {
  constructor(readonly reason: unknown) {}
}

/**
 * Whether a thrown value is the run's own abort. Anything a tool throws is inspected only like this, inside a try:
 * `instanceof` on a revoked Proxy (or a Proxy whose traps throw) throws, and would lose the batch's other answers.
 */
export function isCallerAbort(error: unknown): error is CallerAbort {
  try {
    return error instanceof CallerAbort;
  } catch {
    return false;
  }
}
