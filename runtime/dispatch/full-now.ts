/**
 * How full-load.ts reaches full.ts under Node (the CommonJS build; package.json `imports`, `#dispatch-full`, default
 * condition): required on the spot the first time a call needs it, so dispatch under Node answers exactly when it
 * always did. `dir` is the folder of the full-load.js asking, so each copy of the runtime gets its own full.js.
 * Bundlers take full-later.ts instead.
 */
import type * as Full from "./full";

export function loadFull(dir?: string): typeof Full | Promise<typeof Full> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(dir === undefined ? "./full" : `${dir}/full`) as typeof Full;
}
