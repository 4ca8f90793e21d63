/**
 * `#lazy/dispatch-full` in a bundle: the stages' continuations — hooks, middleware, approval, time limits, error
 * texts and rich results — and what only they use (dispatch/continuations.ts) in a chunk of their own, loaded the
 * first time a call goes on to a continuation or an async entry point needs them.
 */
import type * as Continuations from "../dispatch/continuations";
import { chunk } from "./chunk";

type Full = typeof Continuations;

const full = chunk<Full>(() => import("../dispatch/continuations.js"));

/** `use(continuations.ts)`: right away when its chunk has loaded, else once it has. */
export function withFull<T>(use: (full: Full) => T): T | Promise<T> {
  return full.use(use);
}

/** Whether the continuations' chunk has loaded. */
export function fullLoaded(): boolean {
  return full.loaded();
}
