/**
 * `structuredOutput<T>(name?)`: a model's structured answer typed by T alone, like LangChain's
 * `with_structured_output`; the transformer fills in T's schema.
 */
import { describeArgumentsProblem, parseArguments } from "../arguments/read/parse-arguments";
import { conform } from "../arguments/repair/conform";
import { instantiateValidator } from "../validation/compiled-validator";
import { ArgumentsValidator } from "../validation/validate";
import { standardSchemaOf } from "../arguments/standard-schema";
import type { ToolStandardProps, ToolStandardSchema } from "../validation/standard/types";
import type { JsonSchemaResponseFormat } from "../providers/catalog";
import { toResponseFormat } from "../providers/openai-chat/tools";
import { notCompiledHint, type SchemaError } from "../tool/errors";
import { type CompiledOutputMeta, type JsonSchema, META_VERSION, type StrictForms } from "../tool/meta";

export type { JsonSchemaResponseFormat } from "../providers/catalog";

/** Options of `structuredOutput<T>(name?, options?)`. */
export interface StructuredOutputOptions {
  /** Ask OpenAI to follow the schema exactly (default `true`). */
  strict?: boolean;
  /** Replaces the description taken from T's JSDoc. */
  description?: string;
  /** Apply the coercion rules of tool arguments before giving up on an answer (default `true`). */
  coerce?: boolean;
}

/** A structured answer that could not be read or does not match its schema; `issues` has one line per violation. */
export class StructuredOutputError extends Error {
  readonly outputName: string;
  readonly issues: string[];
  readonly errors: SchemaError[];
  /** The text as it arrived. */
  readonly text: string;

  constructor(
    message: string,
    details: { outputName: string; issues: string[]; errors?: SchemaError[]; text: string },
  ) {
    super(message);
    this.name = "StructuredOutputError";
    this.outputName = details.outputName;
    this.issues = details.issues;
    this.errors = details.errors ?? [];
    this.text = details.text;
  }
}

/** What `safeParse` returns: the typed answer, or the error `parse` would throw. */
export type SafeParseResult<T> = { success: true; data: T } | { success: false; error: StructuredOutputError };

/**
 * A model's answer typed `T`, made by `structuredOutput<T>()`: the request field (`responseFormat`), the prompt text
 * for models without one (`formatInstructions()`), and `parse`/`safeParse` to read the answer.
 */
export class StructuredOutput<T> implements ToolStandardSchema<T> {
  readonly name: string;
  readonly description: string | undefined;
  /** T's JSON Schema as the transformer wrote it (answers are validated against this one). */
  readonly schema: JsonSchema;
  readonly strict: boolean;
  /** `schema` in OpenAI's strict subset, as the build wrote it (what `responseFormat` sends when strict). */
  readonly strictForms: StrictForms | undefined;
  readonly #meta: CompiledOutputMeta;
  readonly #coerce: boolean;
  #validator: ArgumentsValidator | undefined;
  #format: JsonSchemaResponseFormat | undefined;
  #standard: ToolStandardProps<T> | undefined;

  constructor(meta: CompiledOutputMeta, name: string | undefined, options: StructuredOutputOptions) {
    this.#meta = meta;
    this.name = name ?? meta.name;
    this.description = options.description ?? meta.description;
    this.schema = meta.schema;
    this.strict = options.strict ?? true;
    this.strictForms = meta.strict;
    this.#coerce = options.coerce ?? true;
  }

  /**
   * The `response_format` of a Chat Completions request, strict by default (the schema in OpenAI's strict subset, as
   * the build wrote it). Throws ToolExportError if strict mode cannot express T.
   */
  get responseFormat(): JsonSchemaResponseFormat {
    this.#format ??= toResponseFormat(this);
    return this.#format;
  }

  /**
   * The answer as T: read leniently (the same repairs as tool arguments), conformed by the same coercion rules (the
   * strict rewrite's nulls undone), validated against T's schema, Dates revived. Throws StructuredOutputError
   * listing every problem.
   */
  parse(text: string): T {
    const read = parseArguments(text);
    if (!read.ok) {
      const problem = describeArgumentsProblem(this.name, read).replace(/^the arguments for /, "the answer for ");
      throw new StructuredOutputError(`The ${this.name} answer could not be read: ${problem}`, {
        outputName: this.name,
        issues: [problem],
        text,
      });
    }
    const conformed = conform(read.args, this.schema, this.#validatorOf(), this.#meta, {
      coerce: this.#coerce,
      maxDepth: 64,
    });
    if (conformed.invalid) {
      const { issues, errors } = conformed.invalid;
      throw new StructuredOutputError(
        `The ${this.name} answer does not match its schema:\n${issues.map((line) => `- ${line}`).join("\n")}`,
        { outputName: this.name, issues, errors, text },
      );
    }
    return read.args as T;
  }

  /**
   * T as a Standard Schema and Standard JSON Schema (vendor `"tooltype"`): `validate` reads and conforms a value (or
   * text) as `parse` does and lists what is wrong as issues with paths; `jsonSchema` writes T's schema. So libraries
   * that take any Standard Schema (the AI SDK's `Output.object({ schema })`, …) take it as it is.
   */
  get "~standard"(): ToolStandardProps<T> {
    this.#standard ??= standardSchemaOf<T>({
      name: this.name,
      schema: this.schema,
      meta: this.#meta,
      read: {},
      coerce: this.#coerce,
    })["~standard"];
    return this.#standard;
  }

  /** Like `parse`, without throwing. */
  safeParse(text: string): SafeParseResult<T> {
    try {
      return { success: true, data: this.parse(text) };
    } catch (error) {
      if (error instanceof StructuredOutputError) return { success: false, error };
      throw error;
    }
  }

  /** Instructions for a prompt, for models that take no response format: the schema and how to answer. */
  formatInstructions(): string {
    const about = this.description ? `${this.description}\n\n` : "";
    return (
      `${about}Answer with one JSON object that matches this JSON Schema, and nothing else: no prose, no markdown code fence.\n` +
      "```json\n" +
      JSON.stringify(this.schema) +
      "\n```"
    );
  }

  #validatorOf(): ArgumentsValidator {
    this.#validator ??= new ArgumentsValidator(
      this.schema,
      this.#meta.validator ? instantiateValidator(this.#meta.validator, this.schema) : undefined,
    );
    return this.#validator;
  }
}

/**
 * `structuredOutput<Joke>()` or `structuredOutput<Joke>("joke", { strict: false })`: the transformer appends T's
 * compiled schema as the last argument. Without it (the plugin not configured) this throws, saying how to add it.
 */
export function structuredOutput<T>(
  name?: string,
  options: StructuredOutputOptions = {},
  meta?: CompiledOutputMeta,
): StructuredOutput<T> {
  if (!meta) {
    throw new Error(
      `structuredOutput${name ? `("${name}")` : "()"} has no compiled schema. Write structuredOutput<YourType>() (without a type argument there is nothing to compile); otherwise ${notCompiledHint()}`,
    );
  }
  if (meta.v !== META_VERSION) {
    throw new Error(
      `structuredOutput "${meta.name}" was compiled with tooltype metadata version ${String(meta.v)}, but this runtime reads version ${META_VERSION}. Rebuild the project with the tooltype it runs with.`,
    );
  }
  return new StructuredOutput<T>(meta, name, options);
}
