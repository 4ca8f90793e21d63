/**
 * Bounded-cost `pattern` tests. JavaScript's regular expressions backtrack: `^(a+)+$` on 28 `a`s and a `!` takes
 * seconds, doubling per character. A model or a client controls the strings, so:
 *
 * - a pattern tooltype's automaton holds whole (pattern-dfa.ts: nearly every pattern a schema uses) is matched by it,
 *   one table lookup per character; that needs no re2js, so a bundle whose patterns are all such holds none;
 * - any other pattern RE2 can express (no lookaround, no backreference) is matched in linear time by RE2's automata
 *   (linear-pattern.ts, re2js, through engine.ts: loaded on need under Node, installed in a bundle by what brings
 *   such a pattern), whatever its shape, with no budget to spend; where the engine is missing, the pattern is
 *   refused with an error that says how to bring it, never tested by JavaScript's engine instead;
 * - any other is tested by JavaScript's engine within a budget of steps per validation run, its cost taken as
 *   exponential in the string's length (no reading of a pattern's shape finds every one that backtracks), so a
 *   string too long for what is left of the budget is refused with its own message, never run.
 *
 * The budget itself is step-budget.ts.
 */
import { engineMissing, patternEngine } from "./engine";
import type { LinearMatcher } from "./linear-pattern";
import { patternDfa } from "./pattern-dfa";
import { PATTERN_STEP_BUDGET, type StepBudget } from "./step-budget";

export type PatternRisk = { kind: "linear" } | { kind: "exponential" };

/** Compiled matchers by source, shared by every validator: the same few patterns recur across tools and calls. */
const matchers = new Map<string, LinearMatcher | null>();
const MAX_CACHED_MATCHERS = 512;

/**
 * The linear-time matcher of `source`, compiled once, or `null` when RE2 cannot express it (or it is no valid
 * pattern). Throws when only the engine could tell and a bundle left it out.
 */
function cachedMatcher(source: string): LinearMatcher | null {
  let matcher = matchers.get(source);
  if (matcher === undefined) {
    matcher = matcherOf(source);
    // Schemas that arrive at run time could name endless patterns: the oldest is forgotten, never the process's memory.
    if (matchers.size >= MAX_CACHED_MATCHERS) matchers.delete(matchers.keys().next().value!);
    matchers.set(source, matcher);
  }
  return matcher;
}

function matcherOf(source: string): LinearMatcher | null {
  try {
    // A pattern JavaScript refuses gets no matcher: the caller's RegExp throws, as it always did.
    new RegExp(source, "u");
  } catch {
    return null;
  }
  const dfa = patternDfa(source);
  // Every state made: the automaton answers every string, so re2js is never asked.
  if (dfa?.complete()) return { test: (text) => dfa.test(text) === true };
  const engine = patternEngine();
  if (engine === undefined) throw new Error(engineMissing(source));
  return engine(source) ?? null;
}

/** How testing `source` grows with the string's length. */
export function patternRisk(source: string): PatternRisk {
  return cachedMatcher(source) === null ? { kind: "exponential" } : { kind: "linear" };
}

/** The worst-case steps of testing a string of `length` characters. */
export function patternCost(risk: PatternRisk, length: number): number {
  switch (risk.kind) {
    case "linear":
      return 0;
    case "exponential":
      return 2 ** Math.min(length, 64);
  }
}

/** The longest string a pattern of this risk can be tested on within the whole budget: for messages. */
export function longestCheckable(risk: PatternRisk): number {
  let n = 1;
  while (n < 1e7 && patternCost(risk, n + 1) <= PATTERN_STEP_BUDGET) n++;
  return n;
}

/**
 * One pattern, tested within a shared budget. `test` answers `undefined` when the test was refused: the string is
 * too long for this pattern with what is left of the budget.
 */
export class GuardedPattern {
  readonly risk: PatternRisk;
  readonly #linear: LinearMatcher | null;
  #regExp: RegExp | undefined;

  constructor(
    readonly source: string,
    /** The budget its tests spend from: the validator's, shared by its patterns and reset per run. */
    public budget: StepBudget,
    /**
     * The build's verdict (validators emitted before the linear matcher carry it). Not trusted: an analysis of a
     * pattern's shape missed some that backtrack, so only RE2's compiling it counts.
     */
    _provenLinear = false,
  ) {
    this.#linear = cachedMatcher(source);
    this.risk = this.#linear === null ? { kind: "exponential" } : { kind: "linear" };
    // An invalid pattern throws here, as it always did, for the caller to report.
    if (this.#linear === null) this.#regExp = new RegExp(source, "u");
  }

  /** The pattern as JavaScript reads it (for messages and callers that need a RegExp's shape). */
  get regExp(): RegExp {
    return (this.#regExp ??= new RegExp(this.source, "u"));
  }

  test(text: string): boolean | undefined {
    if (this.#linear !== null) return this.#linear.test(text);
    if (!this.budget.spend(patternCost(this.risk, text.length))) {
      this.budget.refused.add(text);
      return undefined;
    }
    return this.regExp.test(text);
  }
}
