/**
 * Build-time analysis of the patterns a validator tests: which run in linear time (the run-time budget can skip
 * them), and which can backtrack exponentially (TT1024: such a tool could freeze the process on one short string,
 * so the build refuses it and says how to rewrite the pattern).
 *
 * The analysis is scslre's (super-linear regex detection on the pattern's syntax tree, the analysis behind
 * eslint-plugin-regexp), loaded only when a tool has a pattern.
 */
import type { PatternJudge } from "./generate";

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
  };
}

function judge(source: string): { linear: boolean; problem?: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
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
