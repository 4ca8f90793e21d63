/**
 * The checks generated validators import by name from `tooltype/kit` besides the formats (runtime/entries/kit.ts lists
 * them all, with string length and deep equality): a guarded pattern and `uniqueItems`. Only validators whose
 * schemas use them import them, so a bundle of tools without patterns holds no pattern guard.
 */
import { GuardedPattern } from "./patterns/pattern-guard";
import { StepBudget } from "./patterns/step-budget";
import { firstDuplicate } from "./unique";

/**
 * A `pattern`, compiled once per validator; `linear`: proven linear at build time. It comes with a budget of its
 * own, which the validator (`v()` in kit.ts) replaces by the one its patterns share.
 */
export function pattern(source: string, linear?: 1): GuardedPattern {
  return new GuardedPattern(source, new StepBudget(), linear === 1);
}

/** `uniqueItems`: true when no two items are equal (linear time, see unique.ts). */
export function unique(items: unknown[]): boolean {
  return firstDuplicate(items) === undefined;
}
