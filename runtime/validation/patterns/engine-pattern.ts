/**
 * `enginePattern`, what a compiled validator imports from `tooltype/kit` for a pattern the build found tooltype's
 * automaton cannot hold whole: the same guarded pattern, with RE2's automata (re2js) installed first, so that the
 * engine is in a bundle exactly when a compiled tool's pattern needs it.
 */
import { installPatternEngine } from "./engine";
import { linearMatcher } from "./linear-pattern";
import { GuardedPattern } from "./pattern-guard";
import { StepBudget } from "./step-budget";

/** A `pattern` matched by RE2's automata where tooltype's own cannot answer; its budget as `pattern`'s (kit-imports.ts). */
export function enginePattern(source: string): GuardedPattern {
  installPatternEngine(linearMatcher);
  return new GuardedPattern(source, new StepBudget());
}
