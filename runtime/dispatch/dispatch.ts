/**
 * Answering the calls of one assistant message, as a provider read them (runtime/providers/): exactly one
 * ToolMessage per call, in call order. This is the part every app loads: the common batch answered on the spot, and
 * the door to the full pipeline (full.ts, loaded on first need) for everything else.
 *
 * - A batch with no hooks, middleware, deadline or call that may need approval, within its limits
 *   (`maxCallsPerMessage`, `maxConcurrency`), goes call by call through the fast lane (plain.ts): a call whose
 *   arguments are plain, valid JSON text and whose tool returns text within its size is answered here.
 * - The first call that leaves the lane hands the rest of the batch to the full pipeline (batch.ts `continueBatch`),
 *   in call order, with what came of that call; any other batch goes there whole (batch.ts `answerBatch`, which
 *   documents concurrency, deadlines, the caller's signal, limits and approval).
 * The answers, their order, the hooks and the limits are the same either way; only when the full pipeline is first
 * needed in a bundle does the rest of that batch wait for its chunk.
 */
import type { NormalizedCall } from "./call";
import type { DispatchEnvironment } from "./environment";
import { fullLoaded, withFull } from "#lazy/dispatch-full";
import type * as FullModule from "./full";
import { MAX_CALL_ID_LENGTH, MAX_CALLS_PER_MESSAGE, limitOf } from "./limits";
import { ToolMessage } from "./messages";
import type { DispatchOptions, RegistryOptions, ToolHooks, ToolInput } from "./options";
import { FULL, PENDING, Ran, answerPlain, fastLaneOn, mayNeedApproval } from "./plain";

/** The full pipeline module (full.ts), as `#lazy/dispatch-full` hands it over. */
type Full = typeof FullModule;

export type { DispatchEnvironment, DispatchTool } from "./environment";
export type { ToolInput } from "./options";
export { callsCap } from "./limits";
export { mayNeedApproval } from "./plain";

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
 * `dispatchCalls` for a caller that turns the answers into another format: the answers themselves when the fast
 * lane answered every call at once (a format's answer is then made in the same step, with no promise in between),
 * else their promise. Never throws: a failure is a rejected promise.
 */
export function answerCalls(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions = NO_OPTIONS,
  rejections?: readonly (string | undefined)[],
): ToolMessage[] | Promise<ToolMessage[]> {
  const idLimit = rejections === undefined ? plainBatch(env, calls, options) : 0;
  if (idLimit === 0) return answerInFull(env, calls, options, rejections);
  const count = calls.length;
  const answers: ToolMessage[] = new Array(count);
  const signal = options.signal;
  try {
    for (let i = 0; i < count; i++) {
      // A signal a tool aborted on the spot: the full pipeline rejects with its reason, as it would have.
      const one = signal !== undefined && signal.aborted ? FULL : answerPlain(env, calls[i]!, idLimit);
      if (!(one instanceof ToolMessage)) return handOn(env, calls, options, i, answers, one);
      answers[i] = one;
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return answers;
}

/**
 * The whole batch in the full pipeline. Apart from `dispatchCalls` so that the closure it makes is made only here:
 * a closure in `dispatchCalls` would cost every batch a context for the variables it captures.
 */
function answerInFull(env: DispatchEnvironment, calls: NormalizedCall[], options: DispatchOptions, rejections: readonly (string | undefined)[] | undefined): Promise<ToolMessage[]> {
  return viaFull((full) => full.answerBatch(env, calls, options, rejections));
}

/**
 * The `maxCallIdLength` of a batch that may take the fast lane, else 0: no approval decisions to apply (checked by
 * the caller), no call that may need approval, no hooks, middleware or deadline, and limits that are valid and let
 * every call run at once (a batch over one, or with an invalid one, is the full pipeline's to answer or refuse).
 */
function plainBatch(env: DispatchEnvironment, calls: readonly NormalizedCall[], options: DispatchOptions): number {
  if (options === NO_OPTIONS) return mayNeedApproval(env, calls) ? 0 : plainLimit(env, calls.length);
  if (laneClosed(env)) return 0;
  const count = calls.length;
  const registry = env.options;
  if (options.timeoutMs !== undefined || options.wrap !== undefined) return 0;
  if (observed(registry) || observed(options) || options.signal?.aborted) return 0;
  if (!(count <= limitOf(options.maxCallsPerMessage ?? registry.maxCallsPerMessage, MAX_CALLS_PER_MESSAGE))) return 0;
  if (!(count <= limitOf(options.maxConcurrency ?? registry.maxConcurrency, Infinity))) return 0;
  if (mayNeedApproval(env, calls)) return 0;
  return limitOf(options.maxCallIdLength ?? registry.maxCallIdLength, MAX_CALL_ID_LENGTH) || 0;
}

/**
 * The `maxCallIdLength` of a batch of `count` calls that `dispatch(message)` without options may answer in the
 * fast lane, else 0: only the registry's options count, and they were read once. The caller checks that no call
 * may need approval (`mayNeedApproval`; never when `env.approvals` is false).
 */
export function plainLimit(env: DispatchEnvironment, count: number): number {
  if (laneClosed(env)) return 0;
  const lane = (env.lane as RegistryLane | undefined) ?? (env.lane = registryLane(env.options));
  return count <= lane.calls && count <= lane.concurrency ? lane.idLimit : 0;
}

/**
 * For a provider's own fast lane (providers/openai-chat/lane.ts) over a `dispatch(message)` without options: the
 * rest of the batch from call `from` on, in the full pipeline, as `dispatchCalls` hands it on.
 */
export function continuePlain(env: DispatchEnvironment, calls: NormalizedCall[], from: number, answers: ToolMessage[], first: Ran | typeof FULL): Promise<ToolMessage[]> {
  return handOn(env, calls, NO_OPTIONS, from, answers, first);
}

/** Whether no batch of this registry may take the fast lane: switched off (tests), or middleware to run around calls. */
function laneClosed(env: DispatchEnvironment): boolean {
  return !fastLaneOn() || (env.middleware !== undefined && env.middleware.length > 0);
}

/** What a registry's options let the fast lane take: batches of up to `calls` calls (none with hooks), ids up to `idLimit`. */
interface RegistryLane {
  readonly calls: number;
  readonly concurrency: number;
  readonly idLimit: number;
}

/** Worked out once per registry: its options are frozen when it is made (registry/core.ts). */
function registryLane(registry: Readonly<RegistryOptions>): RegistryLane {
  if (observed(registry)) return { calls: 0, concurrency: 0, idLimit: 0 };
  return {
    calls: limitOf(registry.maxCallsPerMessage, MAX_CALLS_PER_MESSAGE),
    concurrency: limitOf(registry.maxConcurrency, Infinity),
    idLimit: limitOf(registry.maxCallIdLength, MAX_CALL_ID_LENGTH) || 0,
  };
}

function observed(hooks: ToolHooks): boolean {
  return hooks.onToolStart !== undefined || hooks.onToolEnd !== undefined || hooks.onToolError !== undefined;
}

/** The rest of the batch, from call `from` on, in the full pipeline. */
function handOn(env: DispatchEnvironment, calls: NormalizedCall[], options: DispatchOptions, from: number, answers: ToolMessage[], first: Ran | typeof FULL): Promise<ToolMessage[]> {
  // A tool's promise may settle before the chunk arrives: handled now, so a rejection is not reported as unhandled
  // (the full pipeline still reads it).
  if (first instanceof Ran && first.outcome === PENDING && !fullLoaded()) Promise.resolve(first.value).catch(ignore);
  return viaFull((full) => full.continueBatch(env, calls, options, from, answers, first));
}

function ignore(): void {}

/** `use(full.ts)` as one promise, whether the full pipeline is at hand or still to load. */
export function viaFull<T>(use: (full: Full) => T | Promise<T>): Promise<T> {
  try {
    const done = withFull(use);
    // A promise `use` returned is passed on as it is (no extra step); `then` flattens one made after loading.
    return (done instanceof Promise ? done : Promise.resolve(done)) as Promise<T>;
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `invoke(name, input)`: the tool's own return value (see pipeline.ts `invokeRaw`). */
export function invokeRaw(env: DispatchEnvironment, name: string, input: ToolInput | undefined, options?: DispatchOptions): Promise<unknown> {
  return viaFull((full) => full.invokeRaw(env, name, input, options));
}

/** `tool.invoke(input)`: see pipeline.ts `invokeTool`. */
export function invokeTool(...args: Parameters<Full["invokeTool"]>): Promise<unknown> {
  return viaFull((full) => full.invokeTool(...args));
}

/** See batch.ts `refuseBeyondCap`. */
export function refuseBeyondCap(...args: Parameters<Full["refuseBeyondCap"]>): Promise<ToolMessage[]> {
  return viaFull((full) => full.refuseBeyondCap(...args));
}
