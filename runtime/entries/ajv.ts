/**
 * `tooltype/ajv`: puts ajv into a bundle, for tools whose schema is written at run time (`tool.fromSchema`).
 * Importing it is all it takes (package.json lists it under `sideEffects`). Under Node it changes nothing: ajv is
 * loaded on first need there anyway.
 */
import { createAjv } from "../validation/ajv/engine";
import { installAjv } from "../validation/ajv/ajv";

installAjv(createAjv);

export {};
