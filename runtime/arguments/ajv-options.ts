/**
 * The one ajv configuration tooltype validates with, shared by the runtime (lazy compilation) and the transformer
 * (validators compiled to code at build time), so a precompiled validator reports exactly the errors a run-time
 * one would, and the error messages built from them read the same.
 */
import type Ajv2020 from "ajv/dist/2020";

export const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  // Errors carry the failing value and schema, which the messages for the model quote.
  verbose: true,
  // An unknown `format` is skipped quietly (the transformer warns about it at build time, TT1014).
  logger: false,
} as const;

export function addTooltypeFormats(ajv: Ajv2020): Ajv2020 {
  // Required here, not at the top: only code that creates an ajv instance needs the formats plugin.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: addFormats } = require("ajv-formats") as typeof import("ajv-formats");
  addFormats(ajv);
  return ajv;
}
