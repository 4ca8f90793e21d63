/**
 * Reports of running calls (their progress) queued for a consumer that takes them when it can: a streamed
 * `runTools` run yields them as events, the AI SDK adapter's `execute` as preliminary results. Tools report
 * whenever they like, while the consumer awaits something else; `queued()` wakes it when there is something to take.
 */
export class ReportQueue<T> {
  #queued: T[] = [];
  #wake: (() => void) | undefined;

  push(report: T): void {
    this.#queued.push(report);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** The reports queued so far, in order; the queue is empty after. */
  take(): T[] {
    const taken = this.#queued;
    this.#queued = [];
    return taken;
  }

  /** Resolves once a report is queued. */
  queued(): Promise<void> {
    return this.#queued.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.#wake = resolve));
  }
}
