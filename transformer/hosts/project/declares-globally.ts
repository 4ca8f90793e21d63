/**
 * Whether a file can change types in files that do not import it, read from its text alone: a script (no top-level
 * import or export: its declarations are global), `declare global`, `declare module "x"` (an augmentation or an
 * ambient module), or `export as namespace` (a UMD global). Conservative: a file it cannot tell about counts as one,
 * so a cache keyed by each module's imports misses every entry when such a file changes, rather than serve a stale
 * schema.
 */

/** An import or export statement at the start of a line: the file is a module (unless it declares globally). */
const MODULE_SYNTAX = /^[ \t]*(?:import|export)\b(?![ \t]*\()/m;
const GLOBAL_DECLARATION = /\bdeclare\s+(?:global\b|module\s*["'`])|\bexport\s+as\s+namespace\b/;

export function declaresGlobally(text: string): boolean {
  return !MODULE_SYNTAX.test(text) || GLOBAL_DECLARATION.test(text);
}
