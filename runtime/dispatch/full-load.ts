/**
 * Where dispatch gets the pipeline's later stages (full.ts): under Node at once (full-now.ts), in a bundle from a
 * chunk loaded the first time a call needs one or an async entry point needs it (full-later.ts). The same pattern as
 * arguments/settle-load.ts (package.json `imports`, `#dispatch-full`).
 */
import { loadFull } from "#dispatch-full";
import type * as FullModule from "./full";

/** The full pipeline module, as its users see it. */
export type Full = typeof FullModule;

/**
 * This copy's folder under Node (CommonJS), so that the full pipeline required is the one next to it: `#dispatch-full`
 * resolves to the package's own build, and a second copy of these files (the tests' build) must not get another
 * copy's classes. In an ES module build there is no `__dirname` and the loader needs none.
 */
const here = typeof __dirname === "string" ? __dirname : undefined;

let loaded: Full | undefined;

function load(): Full | Promise<Full> {
  if (loaded !== undefined) return loaded;
  const full = loadFull(here);
  if (full instanceof Promise) return full.then((module) => (loaded = module));
  return (loaded = full);
}

/** `use(full.ts)`: right away when it is loaded (always under Node), else once it is. */
export function withFull<T>(use: (full: Full) => T): T | Promise<T> {
  const full = load();
  return full instanceof Promise ? full.then(use) : use(full);
}

/** Whether the full pipeline is at hand (under Node always; in a bundle once its chunk has loaded). */
export function fullLoaded(): boolean {
  return loaded !== undefined;
}
