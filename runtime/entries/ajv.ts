/**
 * `tooltype/ajv`: puts ajv, and re2js (the linear-time pattern engine), into a bundle, for tools whose schema is
 * written at run time (`tool.fromSchema`). Importing it is all it takes (package.json lists it under `sideEffects`).
 * Under Node it changes nothing: both are loaded on first need there anyway.
 */
import { createAjv } from "../validation/ajv/engine";
import { installAjv } from "../validation/ajv/ajv";
import { installPatternEngine } from "../validation/patterns/engine";
import { linearMatcher } from "../validation/patterns/linear-pattern";

installAjv(createAjv);
// A schema written at run time may hold any pattern: RE2's automata come with ajv, for those tooltype's cannot hold.
installPatternEngine(linearMatcher);
