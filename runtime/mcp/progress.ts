/** Progress reports of one MCP `tools/call`, turned into `notifications/progress` a client can take. */
import type { ToolProgress } from "../dispatch/options";

/** Default spacing of progress notifications for one call, in milliseconds. */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * How long a call that sent progress waits, at most, for the client to answer the ping that tells the server the
 * reports were handled (server.ts): a client that does not answer pings delays each such result by this much.
 */
export const PROGRESS_SETTLE_MS = 2000;

export interface ProgressThrottle {
  /** A tool's report: sent now, kept for the end of the interval, or dropped when it does not increase. */
  report(update: ToolProgress): void;
  /** The call ended: send the report still waiting (unless `send` is false), then never send again. */
  finish(send: boolean): void;
}

/**
 * `send` at most once per `intervalMs` (every report when `intervalMs` is 0), progress strictly increasing.
 * - A tool may call `ctx.progress` once per item of a million-item loop; each report would be one notification
 *   (and, over HTTP, one SSE event). At most one goes out per interval: the first at once, later ones coalesced so
 *   that the newest report of an interval goes out at its end.
 * - The MCP spec requires the progress value to increase with each notification: a report that does not is dropped.
 * - When the call ends, a report still waiting is sent before the result (so the client sees the final state) and
 *   nothing is sent after it; a cancelled call sends nothing more. On a stream transport the server then waits for
 *   the client to have handled the reports before the result goes out (server.ts).
 */
export function throttleProgress(send: (update: ToolProgress) => void, intervalMs: number): ProgressThrottle {
  let last = -Infinity;
  let sentAt = -Infinity;
  let waiting: ToolProgress | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;

  const emit = (update: ToolProgress): void => {
    sentAt = Date.now();
    send(update);
  };
  const flush = (): void => {
    timer = undefined;
    if (waiting === undefined) return;
    const update = waiting;
    waiting = undefined;
    emit(update);
  };

  return {
    report(update) {
      if (finished || !(update.progress > last)) return;
      last = update.progress;
      const wait = sentAt + intervalMs - Date.now();
      if (wait <= 0 && timer === undefined) {
        emit(update);
        return;
      }
      waiting = update;
      timer ??= setTimeout(flush, Math.max(wait, 0));
    },
    finish(sendWaiting) {
      if (finished) return;
      finished = true;
      if (timer !== undefined) clearTimeout(timer);
      if (sendWaiting) flush();
      waiting = undefined;
      timer = undefined;
    },
  };
}

/**
 * The gap a connection of the 2026-07-28 revision leaves between a call's last progress report and its result. The
 * SDK v2 client drops a report it reads in the same chunk as the result, and this revision gives the server no
 * request to wait on (the older ones have ping): a gap lets a client that keeps up read them apart.
 */
export const PROGRESS_GAP_MS = 10;
