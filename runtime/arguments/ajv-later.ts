/**
 * How ajv-load.ts reaches ajv synchronously, in a bundle (package.json `imports`, `#ajv-now`, `module` condition):
 * it does not. ajv is loaded with `import()` on first need, which a bundler splits into a chunk of its own, so an app
 * whose tools all carry compiled validators ships none of ajv.
 */
import type { createAjv } from "./ajv-engine";

/** Whether ajvNow() answers: then nothing needs loading ahead. */
export const AJV_SYNC = false;

export function ajvNow(): typeof createAjv | undefined {
  return undefined;
}
