/**
 * Every option a call of a tool is answered under, resolved in one place: the tool's own, then the dispatch's where
 * a dispatch may set it (`coerce`, `repair`, `redact`, the caps of a batch), then the registry's, then the default.
 * A tool's settings are worked out once per registry and tool (kept in the dispatch environment, by the name the
 * model calls it), so every stage of the pipeline reads its options from one object of one shape; a dispatch that
 * overrides some of them gets a copy with those changed. (What the settings hold is environment.ts `ToolSettings`,
 * the shape the environment keeps them in.)
 */
import { MAX_ARGUMENTS_BYTES, MAX_ARGUMENTS_DEPTH } from "../arguments/read/read-arguments";
import { closedDepth } from "../arguments/read/closed-schema";
import type { ArgumentsValidator } from "../validation/validate";
import type { Redact } from "../tool/options";
import type { DispatchEnvironment, DispatchTool, ToolSettings } from "./environment";
import {
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_CALL_ID_LENGTH,
  MAX_CALLS_PER_MESSAGE,
  MAX_RESULT_BYTES,
  countLimit,
  limitOf,
} from "./limits";
import type { DispatchOptions, RegistryOptions } from "./options";

export type { ToolSettings } from "./environment";

/** The settings of the tool a call names, worked out on its first call and kept; undefined for no such tool. */
export function settingsByName(env: DispatchEnvironment, name: string): ToolSettings | undefined {
  const settings = env.tools.get(name);
  if (settings !== undefined) return settings;
  const tool = env.get(name);
  if (tool === undefined) return undefined;
  const made = resolve(tool, env.options, NO_OVERRIDES, env.probe?.walkAlways === true);
  env.tools.set(name, made);
  return made;
}

/** The settings of `tool` under a dispatch's options: the tool's own unless the dispatch overrides one of them. */
export function forDispatch(
  settings: ToolSettings,
  registry: Readonly<RegistryOptions>,
  dispatch: DispatchOptions,
): ToolSettings {
  if (dispatch.coerce === undefined && dispatch.repair === undefined && dispatch.redact === undefined) return settings;
  const changed = resolve(settings.tool, registry, dispatch, settings.walk);
  changed.check = settings.check;
  return changed;
}

/**
 * The settings of `tool.invoke(input)`: the caller's input, not the model's, is coerced only when this call asks
 * for it (`coerce` of the dispatch options, else not at all).
 */
export function forInvoke(
  tool: DispatchTool,
  registry: Readonly<RegistryOptions>,
  dispatch: DispatchOptions,
): ToolSettings {
  return resolve(
    tool,
    registry,
    { coerce: dispatch.coerce ?? false, repair: dispatch.repair, redact: dispatch.redact, strictInput: true },
    false,
  );
}

/** The one place each option's precedence is written. */
function resolve(
  tool: DispatchTool,
  registry: Readonly<RegistryOptions>,
  dispatch: Overrides,
  walkAlways: boolean,
): ToolSettings {
  const own = tool.options;
  const meta = tool.meta;
  const { maxBytes, maxDepth } = argumentLimits(tool, registry);
  const coerce = dispatch.strictInput ? dispatch.coerce! : (own.coerce ?? dispatch.coerce ?? registry.coerce ?? true);
  const timeoutMs = own.timeoutMs ?? registry.timeoutMs;
  const checkResults = checksResults(tool, registry);
  const depth = meta.validator === undefined ? undefined : closedDepth(meta.parameters);
  return {
    tool,
    inject: Boolean(meta.inject),
    revive: meta.dates !== undefined || meta.urls !== undefined,
    maxBytes,
    maxDepth,
    repair: own.repair ?? dispatch.repair ?? registry.repair ?? true,
    coerce,
    unwrapString: coerce,
    timeoutMs:
      timeoutMs === undefined ? DEFAULT_TOOL_TIMEOUT_MS : validTimeout(timeoutMs === false ? undefined : timeoutMs),
    timeoutIsDefault: timeoutMs === undefined,
    maxResultBytes: own.maxResultBytes ?? registry.maxResultBytes ?? MAX_RESULT_BYTES,
    redact: own.redact ?? dispatch.redact ?? registry.redact,
    toolHandler: own.handleToolError ?? registry.handleToolError,
    validationHandler: own.handleValidationError ?? registry.handleValidationError,
    checkResults,
    handsResult: own.responseFormat === "content_and_artifact" || checkResults,
    params: meta.flatten ? undefined : meta.params,
    fn: tool.invoker,
    flatKeys: undefined,
    walk: walkAlways || depth === undefined || depth > maxDepth,
    check: undefined,
  };
}

/** What a dispatch may override of a tool's settings; `strictInput`: invoke's rule for `coerce` (see `forInvoke`). */
interface Overrides {
  readonly coerce?: boolean;
  readonly repair?: boolean;
  readonly redact?: Redact;
  readonly strictInput?: boolean;
}

const NO_OVERRIDES: Overrides = Object.freeze({});

/** A tool's limits on its arguments: its own, else the registry's, else the defaults. */
export function argumentLimits(
  tool: DispatchTool | undefined,
  registry: Readonly<RegistryOptions>,
): { maxBytes: number; maxDepth: number } {
  const own = tool?.options;
  return {
    maxBytes: own?.maxArgumentsBytes ?? registry.maxArgumentsBytes ?? MAX_ARGUMENTS_BYTES,
    maxDepth: own?.maxArgumentsDepth ?? registry.maxArgumentsDepth ?? MAX_ARGUMENTS_DEPTH,
  };
}

/**
 * Whether the results of `tool` are checked against its declared return type: its `checkResults` option, else the
 * registry's, else on where `NODE_ENV` is `"test"` (Jest and Vitest set it); never for a tool without a return schema.
 */
export function checksResults(tool: DispatchTool, registry: Readonly<RegistryOptions>): boolean {
  if (tool.meta.returns === undefined) return false;
  return (
    tool.options.checkResults ??
    registry.checkResults ??
    (typeof process !== "undefined" && process.env?.NODE_ENV === "test")
  );
}

/** The validator's check as the read and validate stages call it: the compiled one itself; ajv's through `valid`. */
export function checkOf(validator: ArgumentsValidator): (args: unknown) => boolean {
  return validator.kit ?? ((args) => validator.valid(args));
}

/** A usable time limit: finite and not negative (Infinity means none); anything else is no limit. */
export function validTimeout(ms: number | undefined): number | undefined {
  return typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

// The limits of a batch: the dispatch's, else the registry's, else the default. dispatch.ts reads them with
// `limitOf` (NaN for a value that is refused) to decide whether a batch is plain; the stages that run a batch with
// `countLimit`, which throws the error that rejects it.

/** `maxCallsPerMessage`: how many calls of one reply run; NaN when the value is refused. */
export function callsLimit(registry: Readonly<RegistryOptions>, options: DispatchOptions): number {
  return limitOf(options.maxCallsPerMessage ?? registry.maxCallsPerMessage, MAX_CALLS_PER_MESSAGE);
}

/** `maxConcurrency`: how many calls of a batch run at once (default all); NaN when the value is refused. */
export function concurrencyLimit(registry: Readonly<RegistryOptions>, options: DispatchOptions): number {
  return limitOf(options.maxConcurrency ?? registry.maxConcurrency, Infinity);
}

/** `maxCallIdLength`: the longest call id a batch accepts; NaN when the value is refused. */
export function callIdLimit(registry: Readonly<RegistryOptions>, options: DispatchOptions): number {
  return limitOf(options.maxCallIdLength ?? registry.maxCallIdLength, MAX_CALL_ID_LENGTH);
}

/** How many calls of one reply run; throws a RangeError for a value that is refused. */
export function callsCap(env: DispatchEnvironment, options: DispatchOptions): number {
  return countLimit(
    "maxCallsPerMessage",
    options.maxCallsPerMessage ?? env.options.maxCallsPerMessage,
    MAX_CALLS_PER_MESSAGE,
  );
}

/** The longest call id a batch accepts; throws a RangeError for a value that is refused. */
export function callIdCap(env: DispatchEnvironment, options: DispatchOptions): number {
  return countLimit("maxCallIdLength", options.maxCallIdLength ?? env.options.maxCallIdLength, MAX_CALL_ID_LENGTH);
}

/** How many calls of a batch run at once; throws a RangeError for a value that is refused. */
export function concurrencyCap(env: DispatchEnvironment, options: DispatchOptions): number {
  const value = options.maxConcurrency ?? env.options.maxConcurrency;
  if (value === undefined || value === Infinity) return Infinity;
  if (Number.isInteger(value) && value >= 1) return value;
  throw new RangeError(`maxConcurrency must be a positive integer (or Infinity); got ${String(value)}.`);
}
