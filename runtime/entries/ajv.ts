/**
 * `tooltype/ajv`: puts ajv, re2js (the linear-time pattern engine), the strict rewrites and the translation of a
 * pattern into Rust's regex syntax into a bundle, for tools whose schema is written at run time (`tool.fromSchema`).
 * Importing it is all it takes (package.json lists it under `sideEffects`). Under Node it changes nothing: each is
 * loaded on first need there anyway.
 */
import { createAjv } from "../validation/ajv/engine";
import { installAjv } from "../validation/ajv/ajv";
import { installPatternEngine } from "../validation/patterns/engine";
import { linearMatcher } from "../validation/patterns/linear-pattern";
import { toRustRegex } from "../validation/patterns/rust-regex";
import { installRustRegex } from "../validation/patterns/rust-translator";
import { STRICT_REWRITES } from "../strict/rewrites";
import { installStrictRewrites } from "../strict/schema-of";

installAjv(createAjv);
// A schema written at run time may hold any pattern: RE2's automata come with ajv, for those tooltype's cannot hold.
installPatternEngine(linearMatcher);
// Nor did the build write its strict forms or its grammar: a strict export rewrites it then, a custom tool's export
// translates its pattern.
installStrictRewrites(STRICT_REWRITES);
installRustRegex(toRustRegex);
