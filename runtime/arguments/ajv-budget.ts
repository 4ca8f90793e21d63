/**
 * The pattern budget of ajv validations (hand-written and run-time schemas): the guarded patterns of ajv-options.ts
 * spend from it, the validator resets it before each run (runs are synchronous). Apart from ajv-options.ts, which
 * brings the format checks, so that validate.ts can reset it without putting those in every bundle.
 */
import { StepBudget } from "./pattern-guard";

export const ajvBudget = new StepBudget();
