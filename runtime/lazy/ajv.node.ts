/**
 * `#lazy/ajv` under Node: ajv (validation/ajv/engine.ts), required on the spot the first time a schema without a
 * compiled validator needs it (validation/ajv/ajv.ts).
 */
import type { createAjv } from "../validation/ajv/engine";

/** Whether ajvNow() answers: then nothing needs installing ahead. */
export const AJV_SYNC: boolean = true;

export function ajvNow(): typeof createAjv | undefined {
  return (require("../validation/ajv/engine") as typeof import("../validation/ajv/engine")).createAjv;
}
