/**
 * How full-load.ts reaches full.ts under Node (the CommonJS build; package.json `imports`, `#dispatch-full`, default
 * condition): required on the spot the first time a call needs it, so dispatch under Node answers exactly when it
 * always did. Bundlers take full-later.ts instead (those that read the `module` condition); one that takes this file
 * bundles `./full` with it.
 */
import type * as Full from "./full";

/**
 * `dir` is the folder of the full-load.js asking. `#dispatch-full` resolves to the package's own build, so a second
 * copy of these files (the tests' build of the sources) gets the full.js next to it rather than this build's, whose
 * classes would not be its own.
 */
export function loadFull(dir?: string): typeof Full | Promise<typeof Full> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (dir !== undefined && dir !== __dirname) return require(`${dir}/full`) as typeof Full;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./full") as typeof Full;
}
