/**
 * `#lazy/dispatch-full` under Node: the full dispatch pipeline (dispatch/full.ts), required on the spot the first
 * time a call needs it, so that dispatch answers exactly when it always did.
 */
import type * as FullModule from "../dispatch/full";

type Full = typeof FullModule;

let loaded: Full | undefined;

/** `use(full.ts)`: right away when it is loaded (always under Node), else once it is. */
export function withFull<T>(use: (full: Full) => T): T | Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("../dispatch/full") as Full;
  return use(loaded);
}

/** Whether the full pipeline has been loaded. */
export function fullLoaded(): boolean {
  return loaded !== undefined;
}
