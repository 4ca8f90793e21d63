/**
 * `#lazy/ajv` in a bundle: no ajv. It comes in only through `tooltype/ajv` (entries/ajv.ts), so that an app whose
 * tools all carry compiled validators ships none of it.
 */
import type { createAjv } from "../validation/ajv/engine";

/** Whether ajvNow() answers: then nothing needs installing ahead. */
export const AJV_SYNC: boolean = false;

export function ajvNow(): typeof createAjv | undefined {
  return undefined;
}
