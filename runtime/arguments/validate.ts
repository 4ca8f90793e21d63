/**
 * A tool's parameter schema, ready to check arguments: the validator the transformer compiled at build time
 * (`meta.validator`), or for a schema written by hand, ajv's (ajv.ts), compiled when the tool is first
 * called. This file only answers "valid or not", which is all that arguments that are right the first time need;
 * what is wrong with the others, in words, is invalid.ts's (loaded on first need by dispatch).
 */
import type Ajv2020 from "ajv/dist/2020";
import type { ValidateFunction } from "ajv/dist/2020";
import { ajvBudget } from "./step-budget";
import { AJV_MISSING, newAjv } from "./ajv";
import type { KitValidate } from "./validator-kit";
import type { JsonSchema } from "../tool/meta";

let firstOnly: Ajv2020 | undefined;

/** A compiled parameter schema. */
export class ArgumentsValidator {
  readonly root: JsonSchema;
  /** The validator the transformer generated, when there is one. */
  readonly kit: KitValidate | undefined;
  /** Else ajv's validator of the schema, stopping at the first error. */
  readonly first: ValidateFunction | undefined;

  /** `compiled`: the validator built at compile time; without it the schema is compiled with ajv now. */
  constructor(schema: JsonSchema, compiled?: KitValidate) {
    this.root = schema;
    this.kit = compiled;
    if (!compiled) {
      // Loaded on first use: with validators compiled at build time, most programs never need ajv itself.
      firstOnly ??= newAjv(false);
      if (!firstOnly) throw new Error(`tooltype: ${AJV_MISSING}`);
      this.first = firstOnly.compile(schema);
    }
  }

  /** Whether `args` satisfies the schema (one run of the validator; nothing is described). */
  valid(args: unknown): boolean {
    if (this.kit) return this.kit(args);
    ajvBudget.reset();
    return this.first!(args);
  }
}
