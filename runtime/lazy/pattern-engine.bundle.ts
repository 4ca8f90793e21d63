/**
 * `#lazy/pattern-engine` in a bundle: no re2js. It comes in only with what needs it: `tooltype/ajv` and the MCP client
 * (schemas that arrive at run time), and `tooltype/kit`'s `enginePattern`, which the build emits for a compiled
 * pattern its automaton cannot hold; so an app whose patterns the automaton holds ships none of it.
 */
import type { linearMatcher } from "../validation/patterns/linear-pattern";

export function patternEngineNow(): typeof linearMatcher | undefined {
  return undefined;
}
