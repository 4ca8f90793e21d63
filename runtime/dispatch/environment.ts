/**
 * What dispatch needs of the registry and of each registered tool, and what it keeps of them: the one seam between
 * runtime/registry/ and the dispatch pipeline (shared by its first stages and its later ones, loaded on first need).
 * The registry makes its environment with `dispatchEnvironment`, which gives dispatch the places it keeps what it
 * works out once (each tool's settings, the run of a batch without options). Those are dispatch's alone: the
 * registry never reads them, and dispatch reaches them in one property read per batch instead of a lookup by
 * registry.
 */
import type { ArgumentsValidator } from "../arguments/validate";
import type { RegisteredTool, RegistryOptions, ToolMiddleware } from "./options";

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
  /** Dispatch's: each tool's settings, by the name the model calls it, worked out on its first call (answer.ts). */
  readonly tools: ToolCache;
  /** Dispatch's: the run of a batch dispatched without options, worked out on the first one (dispatch.ts). */
  noOptionsRun: BatchRun | undefined;
}

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
  };
}

/**
 * What the pipeline needs of one tool: the same for every call, so worked out once per tool (answer.ts
 * `settingsOf`), which decides there which of the pipeline's stages its calls may need; and one shape for all
 * tools, so reading it stays as cheap in an app of many tools as in an app of one (each tool's `meta` is an object
 * literal of its own shape).
 */
export interface ToolSettings {
  readonly tool: DispatchTool;
  /** The tool takes a ToolContext (`meta.inject`): the later stages call it. */
  readonly inject: boolean;
  /** Dates or URLs to revive in the arguments (`meta.dates`, `meta.urls`). */
  readonly revive: boolean;
  /** Also the limits of the reader of parsed arguments (these settings are its options: `readArguments`). */
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxResultBytes: number;
  /**
   * Every result goes to the later stages: the tool answers `content_and_artifact` (a pair), or its results are
   * checked against its return type (`checkResults`).
   */
  readonly handsResult: boolean;
  /** The parameters by position (`meta.params`), or undefined for a flattened tool (arguments/args.ts maps those). */
  readonly params: readonly string[] | undefined;
  /** `tool.invoker`, read once. */
  readonly fn: (...args: unknown[]) => unknown;
  /**
   * Whether parsed arguments need `plainJson`'s walk: not when the tool's own compiled validator refuses everything
   * the walk would (closed-schema.ts); a call it refuses goes to the failure path, which reads its text in full.
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

/** What `answerCall` (answer.ts) needs of the run its call is part of (dispatch.ts makes it for a plain batch, batch.ts for any other). */
export interface CallRun {
  /**
   * No hooks, middleware, approval decisions or deadline: a valid call of a tool that takes no ToolContext is made
   * in the first stages. Otherwise the later stages make it (pipeline.ts), where those are.
   */
  readonly plain: boolean;
  /** The run's `maxCallIdLength`, already checked. */
  readonly idLimit: number;
  /** The caller's signal aborted, or the run gave up: the later stages reject with its reason. */
  readonly aborted: boolean;
}

/** A plain run of whole batches (dispatch.ts): at most `calls` calls a batch, `concurrency` at once (a batch over either is not plain). */
export interface BatchRun extends CallRun {
  readonly calls: number;
  readonly concurrency: number;
}
