/**
 * The Standard Schema V1 and Standard JSON Schema V1 interfaces (standardschema.dev, @standard-schema/spec 1.1) as
 * tooltype implements them. The spec asks implementers to copy its types rather than depend on the package, so
 * tooltype's declarations need nothing installed; a test checks that they stay assignable to the spec's own.
 */

import type { CompiledToolMeta, JsonSchema } from "../../tool/meta";
import type { ToolOptions } from "../../tool/options";

/** A registered tool as `standardSchema` reads it (what `registry.get(name)` gives): name, schema, metadata, options. */
export interface ToolSchemaSource {
  /** The name the model calls it by (used in messages). */
  readonly name: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: JsonSchema;
  /** What the transformer compiled (the validator, the Dates and URLs to revive). */
  readonly meta: CompiledToolMeta;
  /** The tool's options (`repair`, `coerce`, the argument limits). */
  readonly options: Readonly<ToolOptions>;
}

/** A tool's arguments (or a structured output's answer) as a Standard Schema and Standard JSON Schema. */
export interface ToolStandardSchema<Args = Record<string, unknown>> {
  /** The Standard properties: version 1, vendor `"tooltype"`, `validate` and `jsonSchema`. */
  readonly "~standard": ToolStandardProps<Args>;
}

/** The `~standard` properties of a {@link ToolStandardSchema}. */
export interface ToolStandardProps<Args> {
  /** The version of the standard. */
  readonly version: 1;
  /** The library that made the schema: `"tooltype"`. */
  readonly vendor: string;
  /** The types validation takes and gives, for inference only (never set at run time). */
  readonly types?: { readonly input: Args; readonly output: Args } | undefined;
  /**
   * Validates a value as dispatch reads a call's arguments: text is read leniently, a value is copied, coercion and
   * the schema's checks apply, Dates and URLs are revived. Synchronous.
   */
  readonly validate: (value: unknown, options?: StandardValidateOptions | undefined) => StandardResult<Args>;
  /** The JSON Schema of the value, for a target draft. */
  readonly jsonSchema: StandardJsonSchemaConverter;
}

/** Options of `validate` (none of them used by tooltype). */
export interface StandardValidateOptions {
  /** Options particular to one library. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** What `validate` answers: the value, or the issues. */
export type StandardResult<Args> =
  | { readonly value: Args; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** One problem found by `validate`. */
export interface StandardIssue {
  /** What is wrong, in the words dispatch would answer a model with. */
  readonly message: string;
  /** Where: the keys and indexes down to the value (absent for the value as a whole). */
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** `jsonSchema.input` and `jsonSchema.output`: the same schema, since validation gives back the value's own shape. */
export interface StandardJsonSchemaConverter {
  /** The schema of what `validate` takes. */
  readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  /** The schema of what `validate` gives. */
  readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
}

/** Which JSON Schema draft to write: tooltype writes `"draft-2020-12"` and `"draft-07"`, and throws for any other. */
export interface StandardJsonSchemaOptions {
  /** The draft. */
  readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  /** Options particular to one library. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}
