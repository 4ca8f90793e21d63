/**
 * The settings of dispatch itself: a registry's defaults for every tool (`new ToolRegistry(sources, options)`) and
 * the per-dispatch options (`dispatch(message, options)`, `invoke`). A tool's own options (runtime/tool/options.ts)
 * win over both; the dispatch's win over the registry's.
 *
 * Both carry hooks, which observe every call: their events show the `RegisteredTool`, whose `invoke` takes these
 * options. Those types refer to each other, so they live together here; hooks.ts calls the hooks.
 */
import type { Coercion } from "../arguments/repair/coercion";
import type { RepairKind } from "../arguments/repair/repair-json";
import type { ToolCall } from "../tool/call";
import type { CompiledToolMeta, JsonSchema } from "../tool/meta";
import type { ErrorHandler, Redact, ToolOptions } from "../tool/options";
import type { ToolProgress } from "../tool/stream";
import type { ToolMessage, ToolMessageStatus } from "./messages";

/** An args object for `invoke(name, input)`, or a bare string for a tool with exactly one parameter. */
export type ToolInput = Record<string, unknown> | string;

/** A registered tool, as the registry shows it. Options given to `@tool` / `tool()` already override the metadata. */
export interface RegisteredTool {
  /** The name the model calls it by. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: JsonSchema;
  /** What the transformer compiled. */
  readonly meta: CompiledToolMeta;
  readonly options: Readonly<ToolOptions>;
  /** Where it came from, e.g. `method Weather.getWeather`, `static method Weather.lookup`, `function search_products`. */
  readonly source: string;
  /** Validate and call it directly; see `ToolRegistry.invoke`. Returns the tool's own value. */
  invoke(input?: ToolInput, options?: DispatchOptions): Promise<unknown>;
}

/** What every dispatch hook receives about one call. */
export interface ToolEvent {
  /** The call as the tool receives it: name, id, and the arguments after repair and coercion (`{}` if unreadable). */
  readonly call: ToolCall;
  /** The registered tool, or `undefined` when the model named a tool that is not registered. */
  readonly tool: RegisteredTool | undefined;
  /** The tool's `tags` option (`[]` without). */
  readonly tags: readonly string[];
  /** The tool's `metadata` option overlaid with the dispatch's `metadata`, as in `ToolContext`. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** JSON slips repaired in the arguments text (`[]` when it was strict JSON). */
  readonly repairs: readonly RepairKind[];
  /** Values converted to the schema's types (`[]` when none were). */
  readonly coercions: readonly Coercion[];
}

/** `onToolEnd`: the call was answered. */
export interface ToolEndEvent extends ToolEvent {
  /** Milliseconds from the call's start (after any wait for a concurrency slot) to its message. */
  readonly durationMs: number;
  readonly status: ToolMessageStatus;
  /** The answer sent back to the model. */
  readonly message: ToolMessage;
}

/** `onToolError`: the call failed, before its answer. */
export interface ToolErrorEvent extends ToolEvent {
  readonly durationMs: number;
  /**
   * `"validation"`: the model's call could not be used (unknown tool, unreadable or invalid arguments);
   * `"tool"`: the tool failed (threw, timed out, returned what cannot be sent); `"aborted"`: the caller aborted.
   */
  readonly kind: "validation" | "tool" | "aborted";
  /** The ToolValidationError, the tool's own error, a ToolTimeoutError or ToolResultError, or the abort reason. */
  readonly error: unknown;
}

/** Observers of dispatch, on the registry and per dispatch (the registry's run first); they never steer. */
export interface ToolHooks {
  /** A call starts (after any wait for a concurrency slot). */
  onToolStart?: (event: ToolEvent) => void;
  /** A call was answered: its message, status and duration. */
  onToolEnd?: (event: ToolEndEvent) => void;
  /** A call failed: `kind` says whether the arguments, the tool or the caller's abort. */
  onToolError?: (event: ToolErrorEvent) => void;
}

/** The call a middleware wraps. */
export interface ToolCallRequest {
  /** The tool's name and the call's id. */
  readonly name: string;
  readonly id: string;
  /** The arguments as the tool will receive them (validated, coerced, dates revived), by parameter name. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly tool: RegisteredTool;
  /** The tool's `metadata` overlaid with the dispatch's, as in `ToolContext`. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Aborted when the call times out or the caller aborts. */
  readonly signal: AbortSignal;
}

/**
 * Runs the rest of the chain and then the tool; resolves to the tool's return value (or rejects with its error).
 * `args`, when given, replace the call's arguments for the rest of the chain.
 */
export type ToolNext = (args?: Record<string, unknown>) => Promise<unknown>;

/** `(call, next) => result`: the result is what the tool would have returned (a value, content parts, …). */
export type ToolMiddleware = (call: ToolCallRequest, next: ToolNext) => unknown;

/** Defaults for every tool of a registry (a tool's own options win), and hooks that see every call. */
export interface RegistryOptions extends ToolHooks {
  /**
   * A secret (at least 32 bytes of it) that seals the state of a batch paused for approval: `resume` then refuses a
   * state it did not sign, one changed in any way, and one older than `approvalTtlMs`. Give it whenever the state
   * leaves your server (a client, a browser, a queue anyone else can write). Without it the state is only checked
   * for consistency, so store it where only your server can change it. `undefined` is the same as leaving it out
   * (`process.env.APPROVAL_SECRET` where it may be unset).
   */
  approvalSecret?: string | Uint8Array | undefined;
  /** How long a sealed approval state may be resumed after its pause. Default 24 hours. */
  approvalTtlMs?: number;
  /** How a tool's failure (a throw, a timeout, an unsendable result) is answered. Default `true`. */
  handleToolError?: ErrorHandler;
  /**
   * How a call the model got wrong is answered: unknown tool, unreadable or invalid arguments. Default `true`.
   * An unknown tool has no options of its own, so only this registry-level setting applies to it.
   */
  handleValidationError?: ErrorHandler;
  /**
   * Give up on a call after this many milliseconds unless the tool sets its own `timeoutMs`. Default 60,000;
   * `false` or `Infinity` for no limit.
   */
  timeoutMs?: number | false;
  /** Default for {@link ToolOptions.repair}. */
  repair?: boolean;
  /** Default for {@link ToolOptions.coerce}. */
  coerce?: boolean;
  /** Default for {@link ToolOptions.maxArgumentsBytes}. */
  maxArgumentsBytes?: number;
  /** Default for {@link ToolOptions.maxArgumentsDepth}. */
  maxArgumentsDepth?: number;
  /** Default for {@link DispatchOptions.maxConcurrency}. */
  maxConcurrency?: number;
  /** Default for {@link DispatchOptions.maxCallsPerMessage} (64). */
  maxCallsPerMessage?: number;
  /** Default for {@link DispatchOptions.maxCallIdLength} (256). */
  maxCallIdLength?: number;
  /** Default for {@link ToolOptions.maxResultBytes} (1 MiB). */
  maxResultBytes?: number;
  /** Default for {@link ToolOptions.checkResults} (on where `NODE_ENV` is `"test"`, else off). */
  checkResults?: boolean;
  /** Default for {@link ToolOptions.redact} (`true`: the built-in patterns). */
  redact?: Redact;
}

/** Per-call settings of `dispatch` and `invoke`; its hooks run after the registry's. */
export interface DispatchOptions extends ToolHooks {
  /** Aborting it aborts every running tool's `ToolContext.signal` and rejects dispatch with the signal's reason. */
  signal?: AbortSignal;
  /** Values for `ToolContext.metadata`, laid over each tool's own `metadata`. */
  metadata?: Record<string, unknown>;
  /**
   * A time limit for the whole dispatch, in milliseconds: a call still running (or still waiting for a
   * `maxConcurrency` slot) when it runs out is answered with a timeout error and its signal is aborted. Each tool's
   * own `timeoutMs` still applies within it.
   */
  timeoutMs?: number;
  /** Run at most this many calls at once (a positive integer; default: all at once). Answers keep call order. */
  maxConcurrency?: number;
  /** Overrides the registry's `repair` for tools that do not set their own. */
  repair?: boolean;
  /** Overrides the registry's `coerce` for tools that do not set their own. */
  coerce?: boolean;
  /**
   * Run at most this many calls of one reply (a positive integer or Infinity; default 64); each call past it is
   * answered with an error naming the limit, and not run.
   */
  maxCallsPerMessage?: number;
  /** Refuse to run a call whose id is longer than this many characters (default 256); it is answered with an error. */
  maxCallIdLength?: number;
  /** Overrides the registry's `redact` for tools that do not set their own. */
  redact?: Redact;
  /** Middleware around each call of this dispatch, inside the registry's (`registry.use`); see middleware.ts. */
  wrap?: ToolMiddleware | readonly ToolMiddleware[];
  /** Who is calling, passed to every tool as `ToolContext.auth` (the MCP HTTP server sets its `authenticate` result). */
  auth?: unknown;
  /**
   * Receives each tool's progress reports, with the call that made them: `ToolContext.progress(...)`, and each value
   * a streaming tool (`async function*`) yields, as a report (see `progressOf`) and as the value itself (`yielded`).
   */
  onProgress?: (update: ToolProgress, call: ToolCall, yielded?: ToolYield) => void;
}

export type { ToolProgress };

/** The value a streaming tool yielded, for `onProgress` (absent for a `ToolContext.progress` report). */
export interface ToolYield {
  readonly value: unknown;
}
