/**
 * Turns a validator the transformer compiled to code (`meta.validator`, ajv standalone output) into a validate
 * function, without generating code at run time.
 *
 * The compiled code asks for ajv's run-time helpers by module id; this file answers from a fixed list of modules it
 * loads itself, so it works the same in CommonJS, ESM and bundles, and an id outside the list is refused.
 */
import type { ValidateFunction } from "ajv/dist/2020";
import type { CompiledValidatorFactory } from "../tool/meta";

/**
 * Each helper is loaded when a validator first asks for it (most ask for one or two), which keeps start-up light.
 * The ids are written out so that bundlers see every module this file may load.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const HELPERS: Record<string, () => unknown> = {
  "ajv-formats/dist/formats": () => require("ajv-formats/dist/formats"),
  "ajv/dist/runtime/equal": () => require("ajv/dist/runtime/equal"),
  "ajv/dist/runtime/ucs2length": () => require("ajv/dist/runtime/ucs2length"),
  "ajv/dist/runtime/uri": () => require("ajv/dist/runtime/uri"),
  "ajv/dist/runtime/validation_error": () => require("ajv/dist/runtime/validation_error"),
};
/* eslint-enable @typescript-eslint/no-require-imports */

function resolveHelper(id: string): unknown {
  const helper = Object.prototype.hasOwnProperty.call(HELPERS, id) ? HELPERS[id]!() : undefined;
  if (helper === undefined) {
    throw new Error(
      `A precompiled tooltype validator needs "${id}", which this tooltype runtime does not provide: the code was compiled by a different tooltype version. Rebuild the project with the tooltype it runs with.`,
    );
  }
  return helper;
}

/** The validate function of a precompiled validator. */
export function instantiateValidator(factory: CompiledValidatorFactory): ValidateFunction {
  const validate = factory(resolveHelper);
  if (typeof validate !== "function") {
    throw new Error("A precompiled tooltype validator did not produce a function; rebuild the project with the tooltype it runs with.");
  }
  return validate as ValidateFunction;
}
