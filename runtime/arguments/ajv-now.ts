/**
 * How ajv-load.ts reaches ajv synchronously. This is the CommonJS build's answer (package.json `imports`,
 * `#ajv-now`, default condition): Node loads ajv-engine on the spot. Bundlers take ajv-later.ts instead.
 */
import type { createAjv } from "./ajv-engine";

/** Whether ajvNow() answers: then nothing needs loading ahead. */
export const AJV_SYNC = true;

export function ajvNow(): typeof createAjv | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("./ajv-engine") as typeof import("./ajv-engine")).createAjv;
}
