/**
 * A tool's parameter schema, ready to check arguments: the validator the transformer compiled at build time
 * (`meta.validator`), or for a schema written by hand, ajv's (ajv.ts), compiled when the tool is first
 * called. This file only answers "valid or not", which is all that arguments that are right the first time need;
 * what is wrong with the others, in words, is invalid.ts's (loaded on first need by dispatch).
 */
import type Ajv2020 from "ajv/dist/2020";
import type { ValidateFunction } from "ajv/dist/2020";
import { ajvBudget } from "./patterns/step-budget";
import { AJV_MISSING, newAjv } from "./ajv/ajv";
import type { KitValidate } from "./kit";
import type { JsonSchema } from "../tool/meta";

let firstOnly: Ajv2020 | undefined;

/**
 * ajv made ready before a first call needs it: required, and the meta-schema every schema is checked against
 * compiled (together about 150 ms on the bench machine, once per process). The registry calls it when it registers
 * a tool without a compiled validator, so that cost falls on start-up instead of blocking the event loop on the
 * first request of such a tool. Nothing to do once done, or in a bundle that left ajv out.
 */
export function prepareAjv(): void {
  if (firstOnly !== undefined) return;
  firstOnly = newAjv(false);
  try {
    firstOnly?.validateSchema({});
  } catch (error) {
    // Code generation forbidden (a CSP without unsafe-eval): the tool's first call says so, in its answer.
    if (!(error instanceof EvalError)) throw error;
  }
}

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
      // A `$schema` marker is not obeyed: every schema is read as 2020-12 (an imported draft-07 one too, whose marker
      // ajv 2020 would refuse as an unknown meta-schema).
      const { $schema: dialect, ...body } = schema;
      this.first = firstOnly.compile(dialect === undefined ? schema : body);
    }
  }

  /** Whether `args` satisfies the schema (one run of the validator; nothing is described). */
  valid(args: unknown): boolean {
    if (this.kit) return this.kit(args);
    ajvBudget.reset();
    return this.first!(args);
  }
}
