/**
 * The runtime's errors: a tool's own (`ToolError`), registration's, and those of a call that could not run or be sent.
 * Dispatch answers a call's error in a ToolMessage; rethrown (`handleToolError: false`), it carries what callers need.
 */

/**
 * Throw this from a tool when the model should read the message as is (no `Error:` prefix is added), e.g.
 * `throw new ToolError("No city named Atlantis. Ask the user which city they mean.")`.
 */
export class ToolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolError";
  }
}

/**
 * Why metadata is missing and how to get it, for the errors that find none. tsx, ts-node, Node's type stripping and
 * bundlers without tooltype's plugin run TypeScript without running transformers, so a configured plugin alone
 * does not help: the step that compiles the file must be tooltype-aware.
 */
export const NOT_COMPILED_HINT =
  'the file that declares it was not compiled by a tooltype-aware step (tsx, ts-node, Bun, Node\'s own type stripping (`node src/main.ts` on Node 22.18 and later) and bundlers without tooltype\'s plugin only strip types, and a plain `tsc` ignores compilerOptions.plugins, TypeScript 7\'s `tsc` included, even when tsconfig.json lists the plugin). Compile it with one of: `npx tooltype build` instead of `tsc` (any TypeScript from 5.5, 7 included); the bundler plugin (tooltype/vite, also in vitest.config, tooltype/rollup, tooltype/esbuild, tooltype/webpack, tooltype/rspack, tooltype/bun); `tspc` (ts-patch) with { "transform": "tooltype/transformer" } in compilerOptions.plugins, on TypeScript 5.5 to 6.0 (ts-patch cannot patch TypeScript 7); or run it with `node --import tooltype/register src/main.ts` (with tsx: `node --import tsx --import tooltype/register src/main.ts`; with Bun: `bun --preload tooltype/bun-register src/main.ts`, which on TypeScript 7 needs `npm i -D @typescript/typescript6` next to it).';

/**
 * `NOT_COMPILED_HINT`, and where the process says itself what runs it (the variable Vitest sets in its workers, the
 * one Jest sets, Bun's version), the set-up for that runner: read only when an error is being written.
 */
export function notCompiledHint(): string {
  const env = typeof process === "undefined" ? undefined : process.env;
  if (env?.VITEST)
    return `${NOT_COMPILED_HINT} This process runs under Vitest (VITEST is set): add tooltype() from "tooltype/vite" to the plugins of vitest.config.ts (docs/building.md#testing-with-vitest).`;
  if (env?.JEST_WORKER_ID)
    return `${NOT_COMPILED_HINT} This process runs under Jest (JEST_WORKER_ID is set): give ts-jest tooltype/ts-jest in astTransformers (docs/building.md#testing-with-jest-ts-jest).`;
  if (typeof process !== "undefined" && process.versions?.bun)
    return `${NOT_COMPILED_HINT} This process runs under Bun: start it with \`bun --preload tooltype/bun-register\`, or preload it in bunfig.toml.`;
  return NOT_COMPILED_HINT;
}

/** A tool cannot be registered: no compiled metadata, an unknown metadata version, a bad or duplicate name. */
export class ToolRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolRegistrationError";
  }
}

/** Why the model's call could not be run. */
export type ToolValidationReason =
  /** No registered tool has the name the model used. */
  | "unknown_tool"
  /** The arguments are not readable: malformed JSON (beyond what repair accepts), not an object, too large or too deep. */
  | "malformed_arguments"
  /** The arguments are a JSON object but do not match the tool's parameter schema. */
  | "invalid_arguments"
  /** The reply made more calls than `maxCallsPerMessage`; this one was not run. */
  | "too_many_calls"
  /** The call's id is longer than `maxCallIdLength`; the call was not run. */
  | "call_id_too_long";

/** One schema violation, as ajv reports it (without the verbose copies of data and schema). */
export interface SchemaError {
  keyword: string;
  /** JSON pointer into the arguments object; `""` is the object itself. */
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * The model's call could not be run as sent. The message is the text the model receives (after `Error: `): what was
 * wrong, where, what was expected and what arrived, and that it should call again.
 */
export class ToolValidationError extends Error {
  readonly reason: ToolValidationReason;
  /** The tool name the model used. */
  readonly toolName: string;
  /** Schema violations (empty unless `reason` is `"invalid_arguments"`). */
  readonly errors: readonly SchemaError[];
  /** The violations as the lines of the message, e.g. `/unit: must be one of "celsius", "fahrenheit"; got "kelvin"`. */
  readonly issues: readonly string[];

  constructor(
    message: string,
    details: {
      reason: ToolValidationReason;
      toolName: string;
      errors?: readonly SchemaError[];
      issues?: readonly string[];
    },
  ) {
    super(message);
    this.name = "ToolValidationError";
    this.reason = details.reason;
    this.toolName = details.toolName;
    this.errors = details.errors ?? [];
    this.issues = details.issues ?? [];
  }
}

/** A call ran out of time; its signal was aborted and a late result is discarded. */
export class ToolTimeoutError extends Error {
  readonly toolName: string;
  /** The limit that ran out. */
  readonly timeoutMs: number;
  /** `"tool"`: the tool's (or registry's) `timeoutMs`; `"dispatch"`: the time limit of the whole dispatch. */
  readonly scope: "tool" | "dispatch";

  /** `isDefault`: the limit is the default one (no `timeoutMs` was set), so the message names the option. */
  constructor(toolName: string, timeoutMs: number, scope: "tool" | "dispatch" = "tool", isDefault = false) {
    super(
      scope === "tool"
        ? `${toolName} timed out after ${timeoutMs}ms${isDefault ? " (the default timeoutMs)" : ""}.`
        : `${toolName} timed out: the time limit of ${timeoutMs}ms for this round of tool calls ran out.`,
    );
    this.name = "ToolTimeoutError";
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
    this.scope = scope;
  }
}

/** A tool ran but what it returned cannot be sent: not JSON-serialisable, or not `[content, artifact]` when it must be. */
export class ToolResultError extends Error {
  readonly toolName: string;

  constructor(toolName: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolResultError";
    this.toolName = toolName;
  }
}

/**
 * Tools cannot be written in a provider's format: a construct the format cannot express (a tuple or a `Record` in
 * OpenAI strict mode, a recursion Gemini cannot unroll), a provider limit exceeded (128 tools, nesting depth, …), or
 * a name the provider refuses. The message names the tool, the JSON pointer into its parameter schema and what to
 * change; the same facts are fields for code.
 */
export class ToolExportError extends Error {
  /** The tool that cannot be exported; `undefined` for a limit of the whole export, such as the number of tools. */
  readonly toolName: string | undefined;
  /** JSON pointer into the tool's parameter schema (`""` is the schema itself), when a place is to blame. */
  readonly path: string | undefined;
  /** The format being written: `"openai"`, `"openai-strict"`, `"responses"`, `"gemini"`, … */
  readonly format: string;

  constructor(message: string, details: { format: string; toolName?: string; path?: string }) {
    super(message);
    this.name = "ToolExportError";
    this.format = details.format;
    this.toolName = details.toolName;
    this.path = details.path;
  }
}

/**
 * What kind of failure an error is, which decides whether its text may be shown to whoever is on the other side:
 * - `"tool_error"`: a `ToolError`, written for the model on purpose;
 * - `"validation"`: the model's call could not be used (`ToolValidationError`: unknown tool, bad arguments, a limit
 *   on calls or ids); the text describes only what the model sent;
 * - `"timeout"`: a `ToolTimeoutError`; `"result"`: a `ToolResultError` (the result cannot be sent, or is too large);
 *   both texts are tooltype's own;
 * - `"exception"`: anything else the tool threw, whose text may carry what the tool saw (paths, hosts, secrets);
 * - `"rejected"` (on a ToolMessage only): a human rejected the call (approval); the text is the host's.
 */
export type ToolErrorKind = "tool_error" | "validation" | "timeout" | "result" | "exception" | "rejected";

/**
 * The kind of a thrown value (see {@link ToolErrorKind}). Never throws, whatever was thrown (a revoked Proxy, an
 * object whose getters throw). Errors are recognised by class or, across duplicated copies of this package, by name.
 */
export function toolErrorKind(error: unknown): ToolErrorKind {
  try {
    if (!(error instanceof Error)) return "exception";
    const name = error.name;
    if (error instanceof ToolError || name === "ToolError") return "tool_error";
    if (error instanceof ToolValidationError || name === "ToolValidationError") return "validation";
    if (error instanceof ToolTimeoutError || name === "ToolTimeoutError") return "timeout";
    if (error instanceof ToolResultError || name === "ToolResultError") return "result";
  } catch {
    // A value that cannot even be inspected is nothing tooltype made.
  }
  return "exception";
}
