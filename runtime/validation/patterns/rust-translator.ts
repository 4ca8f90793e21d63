/**
 * Where exporting a free-form tool gets the translation of its pattern into Rust's `regex` syntax (rust-regex.ts)
 * when the build did not write it (a schema that arrived at run time): under Node loaded on first need
 * (`#lazy/rust-regex`); in a bundle installed by what brings such schemas (`tooltype/ajv`, the MCP client), so that
 * an app whose tools are all compiled ships none of it.
 */
import { rustRegexNow } from "#lazy/rust-regex";
import type { RustRegex } from "./rust-regex";

type Translate = (pattern: string) => RustRegex;

let translate: Translate | undefined;

/** Called by `tooltype/ajv` (entries/ajv.ts) and the MCP client. */
export function installRustRegex(translator: Translate): void {
  translate = translator;
}

/** `pattern` in Rust's `regex` syntax (or why not), or `undefined` in a bundle that left the translator out. */
export function rustRegexOf(pattern: string): RustRegex | undefined {
  translate ??= rustRegexNow();
  return translate?.(pattern);
}
