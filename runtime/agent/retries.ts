/** Counting the model's failed tries, for the loop's validation retries. */
import type { ToolAttempt } from "./errors";

/**
 * "Failures of the same tool in a row": each tool name has its own streak of consecutive validation failures, kept
 * across steps; a call of that tool whose arguments pass validation ends the streak (even if the tool itself then
 * fails: that is not the model's mistake to retry). A streak of `maxAttempts` stops the loop. Structured answers that
 * do not match their schema have a streak of their own.
 */
export class RetryTracker {
  readonly #maxAttempts: number;
  readonly #streaks = new Map<string, ToolAttempt[]>();

  constructor(maxAttempts: number) {
    this.#maxAttempts = maxAttempts;
  }

  /** Record a failed try; returns the whole streak when it has reached the limit. */
  fail(key: string, attempt: ToolAttempt): readonly ToolAttempt[] | undefined {
    let streak = this.#streaks.get(key);
    if (!streak) this.#streaks.set(key, (streak = []));
    streak.push(attempt);
    return this.exhausted(key);
  }

  /** The streak of `key` when it has reached the limit (and not been ended since), else `undefined`. */
  exhausted(key: string): readonly ToolAttempt[] | undefined {
    const streak = this.#streaks.get(key);
    return streak && streak.length >= this.#maxAttempts ? [...streak] : undefined;
  }

  /** The tool was called with valid arguments: its streak starts over. */
  succeed(key: string): void {
    this.#streaks.delete(key);
  }
}

/** A positive integer option, or its default; anything else is a RangeError naming the option. */
export function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && value >= 1) return value;
  throw new RangeError(`runTools: ${name} must be a positive integer; got ${String(value)}.`);
}
