/**
 * `#lazy/rust-regex` under Node: the translation of a pattern into Rust's `regex` syntax
 * (validation/patterns/rust-regex.ts), required the first time a free-form tool whose grammar the build did not
 * write is exported as a custom tool.
 */
import type { toRustRegex } from "../validation/patterns/rust-regex";

export function rustRegexNow(): typeof toRustRegex | undefined {
  return (require("../validation/patterns/rust-regex") as typeof import("../validation/patterns/rust-regex"))
    .toRustRegex;
}
