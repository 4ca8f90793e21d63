/**
 * Where the pattern guard gets RE2's automata (re2js, about 150 KB minified), which it needs only for a pattern
 * tooltype's own automaton (pattern-dfa.ts) cannot hold whole: under Node loaded on first need
 * (`#lazy/pattern-engine`); in a bundle installed by what brings such patterns (schemas that arrive at run time
 * through `tooltype/ajv` or the MCP client; a compiled one through `tooltype/kit`'s `enginePattern`).
 */
import { patternEngineNow } from "#lazy/pattern-engine";
import type { LinearMatcher } from "./linear-pattern";

/** A linear-time matcher of a pattern, or `undefined` when RE2 cannot express it (or it is no valid pattern). */
export type PatternEngine = (source: string) => LinearMatcher | undefined;

let engine: PatternEngine | undefined;

/** Called by `tooltype/ajv` (entries/ajv.ts), the MCP client and `enginePattern` (engine-pattern.ts). */
export function installPatternEngine(linear: PatternEngine): void {
  engine = linear;
}

/** The engine, or `undefined` in a bundle that left it out. */
export function patternEngine(): PatternEngine | undefined {
  return (engine ??= patternEngineNow());
}

/** What the error says when a pattern needs the engine and the bundle left it out. */
export function engineMissing(source: string): string {
  return `the pattern /${source}/ needs tooltype's linear-time pattern engine (re2js), which this bundle left out: build the tool with this version of the tooltype transformer (its validator then brings the engine with it), or add \`import "tooltype/ajv";\` once to your app, which bundles the engine with ajv.`;
}
