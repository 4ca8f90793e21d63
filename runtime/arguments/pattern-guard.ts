/**
 * Bounded-cost `pattern` checks. JavaScript's regular expressions backtrack: `^(a+)+$` on 28 `a`s and a `!` takes a
 * second, doubling per character, and a plain `a*a*b` is quadratic on a long string. A model controls the strings,
 * so every pattern test is charged against a budget of backtracking steps per validation run:
 *
 * - a pattern is classified once from its source: linear (at most one repeated part, anchored with `^`), polynomial
 *   of some degree (several repeated parts, or an unanchored one), or exponential (a repeated group that itself
 *   repeats or alternates: star height above one);
 * - a test's worst case is estimated from the string's length (n, n^degree, 2^n) and refused when it would overrun
 *   what is left of the budget. A refused test fails the value with its own message (the string is too long to be
 *   checked against that pattern), never by running.
 *
 * Patterns the transformer proved linear at build time (see transformer/validator/patterns.ts) skip the estimate.
 * The budget itself is step-budget.ts.
 */
import { PATTERN_STEP_BUDGET, StepBudget } from "./step-budget";

export type PatternRisk = { kind: "linear" } | { kind: "polynomial"; degree: number } | { kind: "exponential" };

interface Frame {
  /** A quantifier that repeats (`*`, `+`, `{2,}`, `{1,5}`) occurs inside this group. */
  repeats: boolean;
  /** The group has a top-level `|`. */
  alternates: boolean;
}

/** The worst-case growth of `source` (ECMA-262 syntax, `u` flag) against the length of the tested string. */
export function patternRisk(source: string): PatternRisk {
  const frames: Frame[] = [{ repeats: false, alternates: false }];
  let repeated = 0;
  let exponential = false;
  // What the next quantifier applies to: a group just closed (its frame), or a single atom.
  let last: Frame | "atom" | undefined;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      const next = source[i + 1];
      // \u{...}, \p{...}, \P{...}, \k<...>: their braces are no quantifier.
      if ((next === "u" || next === "p" || next === "P") && source[i + 2] === "{") i = Math.max(source.indexOf("}", i), i + 1);
      else if (next === "k" && source[i + 2] === "<") i = Math.max(source.indexOf(">", i), i + 1);
      else i++;
      last = "atom";
    } else if (c === "[") {
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
      last = "atom";
    } else if (c === "(") {
      frames.push({ repeats: false, alternates: false });
      if (source[i + 1] === "?") {
        // (?: (?= (?!, (?<= (?<!, and (?<name>: none of their characters is a quantifier.
        const lookbehind = source[i + 2] === "<" && (source[i + 3] === "=" || source[i + 3] === "!");
        i = source[i + 2] === "<" && !lookbehind ? Math.max(source.indexOf(">", i), i + 2) : i + (lookbehind ? 3 : 2);
      }
      last = undefined;
    } else if (c === ")") {
      const closed = frames.length > 1 ? frames.pop()! : frames[0]!;
      if (closed.repeats) frames[frames.length - 1]!.repeats = true;
      last = closed;
    } else if (c === "|") {
      frames[frames.length - 1]!.alternates = true;
      last = undefined;
    } else if (c === "*" || c === "+" || c === "?" || (c === "{" && /^\{\d+(,\d*)?\}/.test(source.slice(i, i + 24)))) {
      let repeats = c !== "?";
      if (c === "{") {
        const [, low, comma, high] = /^\{(\d+)(,)?(\d*)\}/.exec(source.slice(i, i + 24))!;
        repeats = comma !== undefined ? high === "" || Number(high) > 1 : false;
        // `(a+){3}`: a fixed count multiplies the inner repetitions (a higher degree), it does not nest them.
        if (!repeats && Number(low) > 1 && typeof last === "object" && last.repeats) repeated += Number(low) - 1;
        i = source.indexOf("}", i);
      }
      if (source[i + 1] === "?") i++;
      if (repeats) {
        if (typeof last === "object" && (last.repeats || last.alternates)) exponential = true;
        repeated++;
        frames[frames.length - 1]!.repeats = true;
      }
      last = undefined;
    } else {
      last = "atom";
    }
  }
  if (exponential) return { kind: "exponential" };
  // An unanchored pattern is tried from every position: one more factor of n.
  const anchored = source.startsWith("^") && !frames[0]!.alternates;
  const degree = repeated + (anchored || repeated === 0 ? 0 : 1);
  return degree <= 1 ? { kind: "linear" } : { kind: "polynomial", degree };
}

/** The worst-case steps of testing a string of `length` characters. */
export function patternCost(risk: PatternRisk, length: number): number {
  switch (risk.kind) {
    case "linear":
      return 0;
    case "polynomial":
      return length ** risk.degree;
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
  readonly regExp: RegExp;

  constructor(
    readonly source: string,
    /** The budget its tests spend from: the validator's, shared by its patterns and reset per run. */
    public budget: StepBudget,
    provenLinear = false,
  ) {
    this.regExp = new RegExp(source, "u");
    this.risk = provenLinear ? { kind: "linear" } : patternRisk(source);
  }

  test(text: string): boolean | undefined {
    const cost = patternCost(this.risk, text.length);
    if (cost > 0 && !this.budget.spend(cost)) {
      this.budget.refused.add(text);
      return undefined;
    }
    return this.regExp.test(text);
  }
}
