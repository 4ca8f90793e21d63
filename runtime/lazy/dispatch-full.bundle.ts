/**
 * `#lazy/dispatch-full` in a bundle: hooks, middleware, approval, time limits, error texts and rich results
 * (dispatch/full.ts) in a chunk of their own, loaded the first time a call needs a later stage of the pipeline or an
 * async entry point needs them.
 */
import type * as FullModule from "../dispatch/full";
import { chunk } from "./chunk";

type Full = typeof FullModule;

const full = chunk<Full>(() => import("../dispatch/full.js"));

/** `use(full.ts)`: right away when its chunk has loaded, else once it has. */
export function withFull<T>(use: (full: Full) => T): T | Promise<T> {
  return full.use(use);
}

/** Whether the full pipeline's chunk has loaded. */
export function fullLoaded(): boolean {
  return full.loaded();
}
