/**
 * `#lazy/dispatch-full` under Node: the stages' continuations and what only they use (dispatch/continuations.ts),
 * required on the spot the first time a call needs one, so that dispatch answers exactly when it always did.
 */
import type * as Continuations from "../dispatch/continuations";

type Full = typeof Continuations;

let loaded: Full | undefined;

/** `use(continuations.ts)`: right away when it is loaded (always under Node), else once it is. */
export function withFull<T>(use: (full: Full) => T): T | Promise<T> {
  loaded ??= require("../dispatch/continuations") as Full;
  return use(loaded);
}

/** Whether the continuations have been loaded. */
export function fullLoaded(): boolean {
  return loaded !== undefined;
}
