/**
 * What dispatch needs of the registry and of each registered tool, and what it keeps of them: the one seam between
 * runtime/registry/ and the dispatch pipeline (shared by the stages' fast forms and their continuations).
 * The registry makes its environment with `dispatchEnvironment`, which gives dispatch the places it keeps what it
 * works out once (each tool's settings, the run of a batch without options). Those are dispatch's alone: the
 * registry never reads them, and dispatch reaches them in one property read per batch instead of a lookup by
 * registry.
 */
import type { ArgumentsValidator } from "../validation/validate";
import type { RegisteredTool, RegistryOptions, ToolMiddleware } from "./options";
import type { ErrorHandler, Redact } from "../tool/options";

/** What the pipeline needs of a registered tool. */
export interface DispatchTool extends RegisteredTool {
  /** The compiled parameter schema (compiled on first use, then kept). */
  validator(): ArgumentsValidator;
  /** Call the function with its `this`. */
  call(args: unknown[]): unknown;
  /** The function called with its own arguments, its `this` bound (the pipeline's way to call without an array). */
  readonly invoker: (...args: unknown[]) => unknown;
}

/** What the registry gives dispatch. */
export interface RegistrySide {
  /**
   * The tool of that name. Once it has returned a tool for a name, it returns the same one for the registry's life
   * (a registry adds tools, never replaces or removes one): dispatch keeps what it works out per tool by name.
   */
  get(name: string): DispatchTool | undefined;
  names(): string[];
  /** Frozen: dispatch works out what they allow once per registry. */
  readonly options: Readonly<RegistryOptions>;
  /** `registry.use` middleware, outermost first. */
  readonly middleware?: readonly ToolMiddleware[];
}

/** What the pipeline needs of the registry, with what dispatch keeps of it (made by `dispatchEnvironment`). */
export interface DispatchEnvironment extends RegistrySide {
  /**
   * Whether some registered tool has `needsApproval`: only then is a batch checked for calls that need approval
   * before it runs (the registry sets it as it registers such a tool; absent means "look").
   */
  approvals?: boolean;
  /** Dispatch's: each tool's settings, by the name the model calls it, worked out on its first call (settings.ts). */
  readonly tools: ToolCache;
  /** Dispatch's: the run of a batch dispatched without options, worked out on the first one (dispatch.ts). */
  noOptionsRun: BatchRun | undefined;
  /** Tests only (testing.ts `probeDispatch`): what the pipeline counts and the switches it obeys; undefined in use. */
  probe: DispatchProbe | undefined;
}

/**
 * What tests inject into one registry's dispatch (testing.ts): counts of the calls the pipeline began and of those
 * that went on to a stage's continuation, and two switches that send calls the long way round, to check that both
 * ways through the pipeline give the same answers.
 */
export interface DispatchProbe {
  /** Calls the pipeline (pipeline.ts `answerCall`) began. */
  began: number;
  /** Calls that went on to a stage's continuation (continue-call.ts `continueCall`). */
  continued: number;
  /** Every call's arguments go to the read stage's continuation, as text the fast form does not read does (read per call). */
  readAllInFull: boolean;
  /** The read stage walks parsed arguments even for closed schemas (tools whose settings are worked out afterwards). */
  readonly walkAlways: boolean;
}

/**
 * The key of a registry's dispatch environment (registry/core.ts): a symbol, so it is neither a public method nor a
 * field; only testing.ts asks for it.
 */
export const ENVIRONMENT: unique symbol = Symbol("tooltype.dispatchEnvironment");

/** The environment of a registry: what it gives, and empty places for what dispatch keeps (one shape for all registries). */
export function dispatchEnvironment(side: RegistrySide, approvals: boolean): DispatchEnvironment {
  return {
    get: side.get,
    names: side.names,
    options: side.options,
    middleware: side.middleware,
    approvals,
    tools: new Map(),
    noOptionsRun: undefined,
    probe: undefined,
  };
}

/**
 * What every stage needs of one tool, worked out once per registry and tool by settings.ts (the one place each
 * option's precedence is written); one shape for all tools (so reading it stays as cheap in an app of many tools
 * as in an app of one). It is also the options of the arguments reader (`ReadOptions`: repair, unwrapString and the
 * two limits) and of coercion (`ConformSettings`: coerce, maxDepth).
 */
export interface ToolSettings {
  readonly tool: DispatchTool;
  /** The tool takes a ToolContext (`meta.inject`): its call goes to the run stage's continuation. */
  readonly inject: boolean;
  /** Dates or URLs to revive in the arguments (`meta.dates`, `meta.urls`). */
  readonly revive: boolean;
  readonly maxBytes: number;
  readonly maxDepth: number;
  /** Lenient repair of arguments text (`repair`). */
  readonly repair: boolean;
  /** Coercion to the schema (`coerce`); a JSON string where the arguments object belongs is unwrapped with it. */
  readonly coerce: boolean;
  readonly unwrapString: boolean;
  /** The time limit of one call; undefined for none. */
  readonly timeoutMs: number | undefined;
  /** The limit is DEFAULT_TOOL_TIMEOUT_MS, set by no one (its error names the option). */
  readonly timeoutIsDefault: boolean;
  readonly maxResultBytes: number;
  readonly redact: Redact | undefined;
  readonly toolHandler: ErrorHandler | undefined;
  readonly validationHandler: ErrorHandler | undefined;
  /** Results are checked against the declared return type (see `checksResults`). */
  readonly checkResults: boolean;
  /**
   * Every result goes to the answer stage's continuation: the tool answers `content_and_artifact` (a pair), or its
   * results are checked against its return type.
   */
  readonly handsResult: boolean;
  /** The parameters by position (`meta.params`), or undefined for a flattened tool (arguments/read/read-arguments.ts maps those). */
  readonly params: readonly string[] | undefined;
  /** `tool.invoker`, read once. */
  readonly fn: (...args: unknown[]) => unknown;
  /**
   * The parameters schema's top-level property names when a flat object of them can be read without `JSON.parse`
   * (arguments/read/flat-keys.ts), null when none can; worked out by dispatch/read-flat.ts on the first text.
   */
  flatKeys: readonly string[] | null | undefined;
  /**
   * Whether parsed arguments need the read stage's walk (read.ts `plainJson`): not when the tool's own compiled
   * validator refuses everything the walk would (closed-schema.ts).
   */
  readonly walk: boolean;
  /**
   * The tool's "valid or not" check once its validator is made: the compiled one itself, without the two calls in
   * between (`tool.validator().valid`). Undefined until the first call makes it (making it may throw).
   */
  check: ((args: unknown) => boolean) | undefined;
}

/**
 * A registry's tools with their settings, by the name the model calls them. Looking a call's tool up here takes one
 * lookup where asking the registry and then a cache by tool took two. A name names the same tool for the registry's
 * life once it names one (`get`), and a tool's options are frozen when it is registered, as the registry's are.
 */
export type ToolCache = Map<string, ToolSettings>;

/** What `answerCall` (pipeline.ts) needs of the run its call is part of (dispatch.ts makes it for a plain batch, batch.ts for any other). */
export interface CallRun {
  /**
   * No hooks, middleware, approval decisions or deadline: a valid call of a tool that takes no ToolContext is made
   * by the run stage's fast form. Otherwise by its continuation (run-guarded.ts), where those are.
   */
  readonly plain: boolean;
  /** The run's `maxCallIdLength`, already checked. */
  readonly idLimit: number;
  /** The caller's signal aborted, or the run gave up: the find stage's continuation rejects with its reason. */
  readonly aborted: boolean;
}

/** A plain run of whole batches (dispatch.ts): at most `calls` calls a batch, `concurrency` at once (a batch over either is not plain). */
export interface BatchRun extends CallRun {
  readonly calls: number;
  readonly concurrency: number;
}
