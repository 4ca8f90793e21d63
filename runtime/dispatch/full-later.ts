/**
 * How full-load.ts reaches full.ts in a bundle (the ES module build; package.json `imports`, `#dispatch-full`,
 * `module` condition): by a dynamic `import()`, which bundlers put in a chunk of its own, so an app ships hooks,
 * middleware, approval, time limits, error texts and rich results in a chunk it loads only when a call first needs
 * them. full-load.ts keeps the module once loaded.
 */
import type * as Full from "./full";

let loading: Promise<typeof Full> | undefined;

export function loadFull(_dir?: string): Promise<typeof Full> {
  return (loading ??= import("./full.js"));
}
