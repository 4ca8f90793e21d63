/**
 * The budget of backtracking steps that pattern tests spend per validation run (pattern-guard.ts explains the
 * estimate), and the one of ajv validations (hand-written and run-time schemas), whose guarded patterns
 * (ajv/options.ts) spend from it and which the validator resets before each run (runs are synchronous). Apart from
 * the pattern guard and ajv's options, so that what every app loads (validate.ts resetting it) holds neither.
 */

/** Worst-case steps one validation run may spend in pattern tests that are not proven linear (a few ms). */
export const PATTERN_STEP_BUDGET = 2 ** 22;

/** Steps left for the current validation run; `reset()` at the start of each. */
export class StepBudget {
  #left = PATTERN_STEP_BUDGET;
  /** Strings refused in this run, so the message can say why they failed. */
  readonly refused = new Set<string>();

  reset(): void {
    this.#left = PATTERN_STEP_BUDGET;
    if (this.refused.size > 0) this.refused.clear();
  }

  spend(cost: number): boolean {
    if (cost > this.#left) return false;
    this.#left -= cost;
    return true;
  }
}

export const ajvBudget = new StepBudget();
