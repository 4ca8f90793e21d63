/**
 * Build-time analysis of the patterns a validator tests: which run in linear time (the run-time budget can skip
 * them), which can backtrack exponentially (TT1024: such a tool could freeze the process on one short string,
 * so the build refuses it and says how to rewrite the pattern), and which tooltype's automaton holds whole (the
 * validator then matches them with no re2js; the others import `enginePattern`, which brings it).
 *
 * The analysis is scslre's (super-linear regex detection on the pattern's syntax tree, the analysis behind
 * eslint-plugin-regexp), loaded only when a tool has a pattern; the automaton is the runtime's own (pattern-dfa.ts),
 * asked the same question the run time asks it again.
 */
import type { PatternJudge } from "./generate";
import { patternDfa } from "../../runtime/validation/patterns/pattern-dfa";

export interface PatternProblem {
  source: string;
  /** Where in the schema, e.g. `properties/code/pattern`. */
  schemaPath: string;
  message: string;
}

type Analyse = typeof import("scslre").analyse;
let analyse: Analyse | undefined;

/** A judge that records exponential patterns in `problems`. */
export function patternJudge(problems: PatternProblem[]): PatternJudge {
  const verdicts = new Map<string, { linear: boolean; problem?: string }>();
  const automata = new Map<string, boolean>();
  return {
    linear(source, schemaPath) {
      let verdict = verdicts.get(source);
      if (!verdict) {
        verdict = judge(source);
        verdicts.set(source, verdict);
      }
      if (verdict.problem) problems.push({ source, schemaPath, message: verdict.problem });
      return verdict.linear;
    },
    automaton(source) {
      let held = automata.get(source);
      if (held === undefined) automata.set(source, (held = heldByAutomaton(source)));
      return held;
    },
  };
}

/**
 * Whether tooltype's automaton holds every state of `source` within its bounds: then it answers every string, and
 * no re2js is needed. A pattern JavaScript refuses is held too, for the run time to report as it always did.
 */
function heldByAutomaton(source: string): boolean {
  try {
    new RegExp(source, "u");
  } catch {
    return true;
  }
  return patternDfa(source)?.complete() === true;
}

function judge(source: string): { linear: boolean; problem?: string } {
  analyse ??= (require("scslre") as typeof import("scslre")).analyse;
  let reports: ReturnType<Analyse>["reports"];
  try {
    reports = analyse({ source, flags: "u" }).reports;
  } catch {
    // Not a valid pattern in unicode mode: no verdict here, the schema checks report it; guard it at run time.
    return { linear: false };
  }
  const exponential = reports.find((report) => report.exponential);
  if (!exponential) return { linear: reports.length === 0 };
  const fixed = exponential.fix();
  const character = JSON.stringify(exponential.character.pick);
  const instead = fixed
    ? `Write /${fixed.source}/ instead: it matches the same strings without the nested repetition.`
    : `Rewrite it so that no repeated group can itself repeat the same characters: e.g. ^(a+)+$ is ^a+$, and ^(\\w+\\s?)+$ is ^\\w+(?:\\s\\w+)*\\s?$.`;
  return {
    linear: false,
    problem: `The pattern /${source}/ can take exponential time: a string of many ${character} that does not match makes the regular expression engine try every way of splitting it, so one short argument could block the process (validation runs before the tool, and no timeout can stop it). ${instead}`,
  };
}
