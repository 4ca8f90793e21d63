/**
 * How ajv-load.ts reaches ajv in a bundle (package.json `imports`, `#ajv-now`, `module` condition): it does not.
 * ajv comes in only through `tooltype/ajv` (ajv-install.ts), so an app whose tools all carry compiled validators
 * ships none of it.
 */
import type { createAjv } from "./ajv-engine";

/** Whether ajvNow() answers: then nothing needs loading ahead. */
export const AJV_SYNC = false;

export function ajvNow(): typeof createAjv | undefined {
  return undefined;
}
