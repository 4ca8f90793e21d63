/**
 * Turns a validator the transformer compiled to code (`meta.validator`, ajv standalone output) into a validate
 * function, without generating code at run time.
 *
 * The compiled code asks for ajv's run-time helpers by module id; this file answers from a fixed list of modules it
 * imports itself, so it works the same in CommonJS, ESM and bundles, and an id outside the list is refused.
 */
import type { ValidateFunction } from "ajv/dist/2020";
import * as formats from "ajv-formats/dist/formats";
import * as equal from "ajv/dist/runtime/equal";
import * as ucs2length from "ajv/dist/runtime/ucs2length";
import * as uri from "ajv/dist/runtime/uri";
import * as validationError from "ajv/dist/runtime/validation_error";
import type { CompiledValidatorFactory } from "./meta";

const HELPERS: Record<string, unknown> = {
  "ajv-formats/dist/formats": formats,
  "ajv/dist/runtime/equal": equal,
  "ajv/dist/runtime/ucs2length": ucs2length,
  "ajv/dist/runtime/uri": uri,
  "ajv/dist/runtime/validation_error": validationError,
};

function resolveHelper(id: string): unknown {
  const helper = HELPERS[id];
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
