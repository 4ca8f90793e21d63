/** Ready-made `stopWhen` conditions for `runTools`: once a tool has answered, or after a number of steps. */
import type { LoopTypes } from "../providers/provider";
import type { LoopState, StopCondition } from "./run-types";

/** True once the last step called `name` and it answered successfully (a call that failed validation does not count). */
export function toolCalled<L extends LoopTypes>(name: string): StopCondition<L> {
  return ({ steps }: LoopState<L>) =>
    steps[steps.length - 1]?.results.some((result) => result.name === name && result.status === "success") ?? false;
}

/** True once `count` steps (model requests) have run. */
export function stepCountIs<L extends LoopTypes>(count: number): StopCondition<L> {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`stepCountIs: count must be a positive integer; got ${String(count)}.`);
  return ({ steps }: LoopState<L>) => steps.length >= count;
}
