/**
 * Answering the calls of one assistant message, as a provider read them (runtime/providers/): exactly one
 * ToolMessage per call, in call order, each call through the one pipeline (pipeline.ts `answerCall`, the stages'
 * fast forms, then, for a call that needs them, their continuations, continue-call.ts, loaded on first need).
 *
 * - A batch with no hooks, middleware, deadline or call that may need approval, within its limits
 *   (`maxCallsPerMessage`, `maxConcurrency`), is a plain run: its calls go through the pipeline here, one by one.
 * - The first call that goes on to a stage's continuation hands the rest of the batch on (batch.ts
 *   `continueBatch`), in call order, with the stage it reached; any other batch goes there whole (batch.ts
 *   `answerBatch`, which documents concurrency, deadlines, the caller's signal, limits and approval, and runs each
 *   call through the same pipeline). Only when the continuations are first needed in a bundle does the rest of that
 *   batch wait for their chunk.
 */
import type { NormalizedCall } from "./call";
import type { BatchRun, DispatchEnvironment } from "./environment";
import { fullLoaded, withFull } from "#lazy/dispatch-full";
import type * as Continuations from "./continuations";
import { mayNeedApproval } from "./find";
import { Later } from "./later";
import type { ToolMessage } from "./messages";
import type { DispatchOptions, RegistryOptions, ToolHooks, ToolInput } from "./options";
import { answerCall } from "./pipeline";
import { callIdLimit, callsLimit, concurrencyLimit } from "./settings";
import { activeTracing } from "../telemetry/tracing";
import { withToolSpans } from "./traced";

/** The continuations' module (continuations.ts), as `#lazy/dispatch-full` hands it over. */
type Full = typeof Continuations;

export type { DispatchEnvironment, DispatchTool } from "./environment";
export { ENVIRONMENT, dispatchEnvironment } from "./environment";
export type { ToolInput } from "./options";
export { argumentLimits, callsCap } from "./settings";
export { mayNeedApproval } from "./find";

/** The options of a dispatch given none: shared, since nothing writes to a run's options. */
const NO_OPTIONS: DispatchOptions = Object.freeze({});

/**
 * One ToolMessage per call, in call order. Not an async function on purpose: when every tool returns a plain value
 * the answers are ready at once and resolve in one step, which is most of the cost of a simple call.
 */
export function dispatchCalls(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions = NO_OPTIONS,
  rejections?: readonly (string | undefined)[],
): Promise<ToolMessage[]> {
  const answers = answerCalls(env, calls, options, rejections);
  return answers instanceof Promise ? answers : Promise.resolve(answers);
}

/**
 * `dispatchCalls` for a caller that turns the answers into another format: the answers themselves when the pipeline
 * answered every call at once (a format's answer is then made in the same step, with no promise in between), else
 * their promise. Never throws: a failure is a rejected promise.
 */
export function answerCalls(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions = NO_OPTIONS,
  rejections?: readonly (string | undefined)[],
): ToolMessage[] | Promise<ToolMessage[]> {
  // Traced (a tracer provider is registered): every call gets its span, through the hooks of the whole pipeline.
  const tracing = activeTracing();
  if (tracing !== undefined) return answerInFull(env, calls, withToolSpans(options, tracing), rejections);
  const run = rejections === undefined ? plainRun(env, calls, options) : undefined;
  if (run === undefined) return answerInFull(env, calls, options, rejections);
  const count = calls.length;
  try {
    if (count === 1) {
      // The most common message, one call, answered in an array literal: a loop over an array made by length cost
      // a one-call dispatch about a fourteenth of its time (bench/dispatch.ts).
      const one = answerCall(env, calls[0]!, run);
      return one instanceof Later ? handOn(env, calls, options, run, 0, new Array<ToolMessage>(1), one) : [one];
    }
    const answers: ToolMessage[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const one = answerCall(env, calls[i]!, run);
      if (one instanceof Later) return handOn(env, calls, options, run, i, answers, one);
      answers[i] = one;
    }
    return answers;
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The whole batch to batch.ts. Apart from `answerCalls` so that the closure it makes is made only here: a closure
 * there would cost every batch a context for the variables it captures.
 */
function answerInFull(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions,
  rejections: readonly (string | undefined)[] | undefined,
): Promise<ToolMessage[]> {
  return viaFull((full) => full.answerBatch(env, calls, options, rejections));
}

/**
 * The run of a batch whose calls may go through the pipeline here, else undefined: no approval decisions to apply
 * (checked by the caller), no call that may need approval, no hooks, middleware or deadline, and limits that are
 * valid and let every call run at once (a batch over one, or with an invalid one, is batch.ts's to answer or refuse).
 * Without options only the registry's count, worked out on its first batch and kept in its environment.
 */
function plainRun(
  env: DispatchEnvironment,
  calls: readonly NormalizedCall[],
  options: DispatchOptions,
): BatchRun | undefined {
  if (options !== NO_OPTIONS || (env.middleware !== undefined && env.middleware.length > 0))
    return optionsRun(env, calls, options);
  const count = calls.length;
  const run = env.noOptionsRun ?? registryRun(env);
  return count <= run.calls && count <= run.concurrency && (env.approvals === false || !mayNeedApproval(env, calls))
    ? run
    : undefined;
}

/**
 * `plainRun` of a batch dispatched with options, or of a registry with middleware. Apart from it, as everything rare
 * on the way to the pipeline is: V8 inlines `plainRun` into `answerCalls`, whose budget for inlining the stages share.
 */
function optionsRun(
  env: DispatchEnvironment,
  calls: readonly NormalizedCall[],
  options: DispatchOptions,
): BatchRun | undefined {
  if (env.middleware !== undefined && env.middleware.length > 0) return undefined;
  const count = calls.length;
  const registry = env.options;
  if (options.timeoutMs !== undefined || options.wrap !== undefined) return undefined;
  if (observed(registry) || observed(options) || options.signal?.aborted) return undefined;
  if (!(count <= callsLimit(registry, options))) return undefined;
  if (!(count <= concurrencyLimit(registry, options))) return undefined;
  if (mayNeedApproval(env, calls)) return undefined;
  const idLimit = callIdLimit(registry, options) || 0;
  return idLimit === 0 ? undefined : new PlainRun(idLimit, count, count, options.signal);
}

/**
 * The run of a plain batch: no hooks, middleware, approval decisions or deadline, at most `calls` calls and
 * `concurrency` at once (a batch over either is not plain), the caller's signal if any.
 */
class PlainRun implements BatchRun {
  readonly plain = true;
  constructor(
    readonly idLimit: number,
    readonly calls: number,
    readonly concurrency: number,
    readonly signal: AbortSignal | undefined,
  ) {}

  get aborted(): boolean {
    return this.signal?.aborted === true;
  }
}

/** The run of a registry's batches dispatched without options: its options are frozen when it is made (registry/core.ts). */
function registryRun(env: DispatchEnvironment): BatchRun {
  const registry: Readonly<RegistryOptions> = env.options;
  const idLimit = callIdLimit(registry, NO_OPTIONS) || 0;
  const run =
    observed(registry) || idLimit === 0
      ? new PlainRun(0, -1, -1, undefined)
      : new PlainRun(idLimit, callsLimit(registry, NO_OPTIONS), concurrencyLimit(registry, NO_OPTIONS), undefined);
  env.noOptionsRun = run;
  return run;
}

function observed(hooks: ToolHooks): boolean {
  return hooks.onToolStart !== undefined || hooks.onToolEnd !== undefined || hooks.onToolError !== undefined;
}

/** The rest of the batch, from call `from` on (gone on to a stage's continuation), to batch.ts. */
function handOn(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions,
  run: BatchRun,
  from: number,
  answers: ToolMessage[],
  first: Later,
): Promise<ToolMessage[]> {
  // A tool's promise may settle before the chunk arrives: handled now, so a rejection is not reported as unhandled
  // (the run stage's continuation still reads it).
  if (first.stage === "run" && first.value !== undefined && !fullLoaded()) Promise.resolve(first.value).catch(ignore);
  return viaFull((full) => full.continueBatch(env, calls, options, run.idLimit, from, answers, first));
}

function ignore(): void {}

/** `use(continuations.ts)` as one promise, whether the continuations are at hand or still to load. */
export function viaFull<T>(use: (full: Full) => T | Promise<T>): Promise<T> {
  try {
    const done = withFull(use);
    // A promise `use` returned is passed on as it is (no extra step); `then` flattens one made after loading.
    return (done instanceof Promise ? done : Promise.resolve(done)) as Promise<T>;
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `invoke(name, input)`: the tool's own return value (see invoke.ts `invokeRaw`). */
export function invokeRaw(
  env: DispatchEnvironment,
  name: string,
  input: ToolInput | undefined,
  options?: DispatchOptions,
): Promise<unknown> {
  return viaFull((full) => full.invokeRaw(env, name, input, options));
}

/** `tool.invoke(input)`: see invoke.ts `invokeTool`. */
export function invokeTool(...args: Parameters<Full["invokeTool"]>): Promise<unknown> {
  return viaFull((full) => full.invokeTool(...args));
}

/** See batch.ts `refuseBeyondCap`. */
export function refuseBeyondCap(...args: Parameters<Full["refuseBeyondCap"]>): Promise<ToolMessage[]> {
  return viaFull((full) => full.refuseBeyondCap(...args));
}
