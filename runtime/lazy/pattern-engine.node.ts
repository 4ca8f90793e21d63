/**
 * `#lazy/pattern-engine` under Node: RE2's automata (validation/patterns/linear-pattern.ts, re2js), required on the
 * spot the first time a pattern that tooltype's own automaton cannot hold whole is compiled.
 */
import type { linearMatcher } from "../validation/patterns/linear-pattern";

export function patternEngineNow(): typeof linearMatcher | undefined {
  return (require("../validation/patterns/linear-pattern") as typeof import("../validation/patterns/linear-pattern"))
    .linearMatcher;
}
