/** The progress of running calls as events of a streamed `runTools` run. */
import type { LoopTypes } from "../providers/provider";
import { ReportQueue } from "../dispatch/report-queue";
import type { RunToolsEvent } from "./run-types";

type Event = RunToolsEvent<unknown, unknown, LoopTypes>;

/**
 * Progress comes from the tools whenever they report it, while the loop's generator is waiting for something else
 * (the model's stream, the calls' answers): it is queued here, and the loop yields what is queued at each event of
 * the model's stream and while it waits for the calls (`untilDone`), so each report is seen before its call's
 * `tool_result`.
 */
export class ProgressEvents extends ReportQueue<Event> {
  /** Yields the progress reported while `work` runs, then what `work` gives (or throws). */
  async *untilDone<T>(work: Promise<T>): AsyncGenerator<Event, T> {
    let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
    const settled = work.then(
      (value) => void (outcome = { ok: true, value }),
      (error: unknown) => void (outcome = { ok: false, error }),
    );
    for (;;) {
      yield* this.take();
      if (outcome) break;
      await Promise.race([settled, this.queued()]);
    }
    yield* this.take();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }
}
