/**
 * `CompiledToolMeta`, the only seam between compile time and run time: the transformer writes one as an object
 * literal into every `@tool` decorator and `tool()` call, and the runtime reads it back.
 */

/** A JSON Schema (draft 2020-12) as plain data. */
export type JsonSchema = { [keyword: string]: JsonValue };
/** A value JSON can hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * The version of {@link CompiledToolMeta} this runtime understands. Bump it whenever the shape changes, so an old
 * runtime refuses metadata it would misread instead of dispatching with a wrong schema; optional fields may be added
 * within a version (a runtime that does not know one ignores it safely), anything else needs a new version.
 */
export const META_VERSION = 1;

/**
 * What the transformer compiles for one tool, the seam between build time and run time: plain JSON-like data (plus
 * the compiled validator), versioned by `v`.
 */
export interface CompiledToolMeta {
  /** Shape version; the runtime refuses versions it does not know. */
  v: 1;
  /** Tool name as the model sees it: method name, function name, else the variable's name. */
  name: string;
  /** JSDoc summary and body (plus the `@example` blocks that are not JSON arguments, such as code samples). */
  description: string;
  /**
   * Example arguments: the `@example` blocks that are one JSON object, each checked against `parameters` at build
   * time. Anthropic takes them as `input_examples`, the AI SDK as `inputExamples`; other formats get them appended to
   * the description (runtime/tool/examples.ts).
   */
  examples?: { [key: string]: JsonValue }[];
  /** `{ type: "object", properties, required, additionalProperties: false, $defs? }` */
  parameters: JsonSchema;
  /**
   * `parameters` in each model API's strict subset, rewritten at build time (runtime/strict/), so that exporting the
   * tool in strict mode rewrites nothing at run time. Absent from metadata of an older build: the export rewrites then.
   */
  strict?: StrictForms;
  /** Parameter names in positional order: how an args object maps onto the call. */
  params: string[];
  /** The function takes one destructured object: pass the args object whole. */
  flatten?: true;
  /** Positions of `ToolContext` parameters, injected by dispatch. */
  inject?: number[];
  /** Schema of the awaited return type, where it can be written (a streaming tool's: what its generator returns). */
  returns?: JsonSchema;
  /** The tool is an async generator function (`async function*`): it yields progress and returns its result. */
  streams?: true;
  /** A streaming tool's schema of the values it yields (its progress), where it can be written. */
  yields?: JsonSchema;
  /** JSON pointers of `Date` values to revive before the call (`*` stands for every item of an array or map). */
  dates?: string[];
  /** JSON pointers of `URL` values to revive before the call, as for `dates`. */
  urls?: string[];
  /** From JSDoc `@deprecated`: its text, or `true` when it has none. */
  deprecated?: string | true;
  /** From JSDoc `@title`: a human-readable name for MCP clients. */
  title?: string;
  /** From the JSDoc tags `@readOnlyHint`, `@destructiveHint`, `@idempotentHint`, `@openWorldHint`. */
  annotations?: ToolAnnotations;
  /** From JSDoc `@icon <url> [mime type] [sizes…] [light|dark]`, one tag per icon: what MCP clients may show. */
  icons?: ToolIcon[];
  /** From JSDoc `@deferred`: the tool's definition is sent only once a tool search found it (docs/large-toolsets.md). */
  deferred?: true;
  /**
   * From JSDoc `@freeform`: the tool's one string parameter is the model's raw text (OpenAI custom tools; an ordinary
   * function tool elsewhere). The transformer checks that the tool has exactly one string parameter and that its
   * pattern, if any, can be OpenAI's `regex` grammar.
   */
  freeform?: true;
  /**
   * The pattern of the tool's one required string parameter (the text of a free-form tool) in Rust's `regex` syntax,
   * the `regex` grammar OpenAI holds a custom tool's input to, written at build time for any tool of that shape; or
   * why the pattern cannot be written so. Absent when there is no such pattern (or from an older build: the export
   * translates it then).
   */
  grammar?: string | { refused: string };
  /**
   * The `parameters` validator compiled to code at build time (tooltype's generator, transformer/validator/). It is
   * called once with a resolver that answers `"tooltype/validator@3"` with the run-time kit, and returns the validate
   * function; no code is generated at run time. What only some schemas need (formats, patterns, `uniqueItems`) it
   * reads from `tooltype/kit`, which the transformer imports into the file (see VALIDATOR_IMPORTS).
   */
  validator?: CompiledValidatorFactory;
  /**
   * The `returns` validator compiled to code at build time, as `validator` is for `parameters`: emitted where results
   * may be checked (a tool with `checkResults: true`, a build under `NODE_ENV=test`, or the plugin's
   * `resultValidators`), so `checkResults` needs no ajv. Without it, ajv compiles `returns` on the first check.
   */
  resultValidator?: CompiledValidatorFactory;
}

/**
 * The id generated validators ask their resolver for: the run-time kit (runtime/validation/kit.ts). A new
 * contract between generated code and kit gets a new id, so mismatched builds fail with a message to rebuild.
 */
export const VALIDATOR_KIT_ID = "tooltype/validator@3";

/**
 * The module generated validators import their format checks, guarded patterns and `uniqueItems` from, and the
 * name of that import in the file (`import * as __tooltype_kit from "tooltype/kit"`, added by the transformer to a
 * file whose validators use any of them; a file that already has the name gets `__tooltype_kit1`, ...). A
 * namespace import keeps its name in every module format tsc emits, and bundlers keep only the names read from it.
 */
export const VALIDATOR_IMPORTS = { module: "tooltype/kit", name: "__tooltype_kit" } as const;

/** The export of `tooltype/kit` that checks format `name`: the name in camel case (`date-time` → `dateTime`). */
export function kitFormatExport(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * MCP's behaviour hints for a tool (clients may show them or ask before a destructive call; they are hints, not a
 * security boundary). Absent fields keep MCP's defaults: not read-only, destructive, not idempotent, open world.
 */
export interface ToolAnnotations {
  /** The tool changes nothing in its environment. */
  readOnlyHint?: boolean;
  /** A tool that changes things may destroy data (meaningful when not read-only). */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect (meaningful when not read-only). */
  idempotentHint?: boolean;
  /** It reaches an open world of outside entities (the web), rather than a closed one (a local store). */
  openWorldHint?: boolean;
}

/** An icon MCP clients may show for a tool (SEP-973): an `https:` or `data:` URL, with its type and sizes if known. */
export interface ToolIcon {
  src: string;
  mimeType?: string;
  /** `"48x48"`, `"any"` (scalable), … */
  sizes?: string[];
  /** The background it is drawn for. */
  theme?: "light" | "dark";
}

/**
 * A schema in the strict subsets of model APIs (OpenAI strict mode, Anthropic strict tool use; each named by the
 * `ToolExportError.format` of its refusals), as the build wrote it: per subset the rewritten schema where it differs
 * from the original (absent: the original as it is), or why the subset cannot express the original, which exporting
 * in strict mode then throws as a ToolExportError.
 */
export interface StrictForms {
  "openai-strict"?: JsonSchema;
  "anthropic-strict"?: JsonSchema;
  refused?: { "openai-strict"?: StrictRefusal; "anthropic-strict"?: StrictRefusal };
}

/** Why a strict subset cannot express a schema: the error's text after `Tool "<name>" `, and where, if one place is. */
export interface StrictRefusal {
  reason: string;
  path?: string;
}

/** What the transformer emits for `validator`: `function (require) { var k = require("tooltype/validator@3"); ...; return k.v(v); }`. */
export type CompiledValidatorFactory = (require: (id: string) => unknown) => unknown;

/** True when `value` looks like metadata the transformer emitted (any version). */
export function isCompiledToolMeta(value: unknown): value is { v: unknown } {
  return typeof value === "object" && value !== null && "v" in value && "parameters" in value && "params" in value;
}

/** What the transformer emits into `structuredOutput<T>(name?, options?, meta)`: T's schema and how to read it back. */
export interface CompiledOutputMeta {
  v: 1;
  /** The response format's name: the explicit one, else T's name in snake_case. */
  name: string;
  /** JSDoc of T. */
  description?: string;
  /** JSON Schema of T: a closed object, with `$defs` for shared and recursive types. */
  schema: JsonSchema;
  /** `schema` in OpenAI's strict subset, rewritten at build time; see {@link CompiledToolMeta.strict}. */
  strict?: StrictForms;
  /** JSON pointers of `Date` values to revive after parsing. */
  dates?: string[];
  /** JSON pointers of `URL` values to revive after parsing. */
  urls?: string[];
  /** `schema` compiled to code at build time; see {@link CompiledToolMeta.validator}. */
  validator?: CompiledValidatorFactory;
}
