/**
 * `#lazy/rust-regex` in a bundle: no translator. A compiled tool carries its grammar from the build; the translator
 * comes in only with what makes schemas at run time (`tooltype/ajv`, the MCP client), which installs it
 * (validation/patterns/rust-translator.ts).
 */
import type { toRustRegex } from "../validation/patterns/rust-regex";

export function rustRegexNow(): typeof toRustRegex | undefined {
  return undefined;
}
