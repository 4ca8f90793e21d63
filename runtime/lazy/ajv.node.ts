/**
 * `#lazy/ajv` under Node: ajv (arguments/ajv-engine.ts), required on the spot the first time a schema without a
 * compiled validator needs it (arguments/ajv.ts).
 */
import type { createAjv } from "../arguments/ajv-engine";

/** Whether ajvNow() answers: then nothing needs installing ahead. */
export const AJV_SYNC: boolean = true;

export function ajvNow(): typeof createAjv | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("../arguments/ajv-engine") as typeof import("../arguments/ajv-engine")).createAjv;
}
