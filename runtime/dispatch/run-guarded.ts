/**
 * The run stage's continuation: a tool called with what the fast form (run.ts) leaves out — a ToolContext (its
 * signal, metadata, auth, progress), the middleware chain, a streaming tool's generator driven — and a result that
 * must be waited for, raced within the earlier of the tool's own time limit and the run's deadline against the
 * run's signal: whatever settles first wins, and a late result or error is dropped. Then to the answer stage
 * (call-state.ts).
 */
import { type ArgsObject, readArguments, toPositionalArgs } from "../arguments/read/read-arguments";
import type { Settled } from "../arguments/settle";
import { ToolTimeoutError } from "../tool/errors";
import type { ToolContext } from "../tool/options";
import { driveToolStream, isToolStream, progressOf } from "../tool/stream";
import type { CallState } from "./call-state";
import { CallerAbort, type DispatchRun } from "./dispatch-run";
import type { DispatchEnvironment, DispatchTool } from "./environment";
import type { ToolMessage } from "./messages";
import { middlewareOf, runChain } from "./middleware";
import type { ToolCallRequest, ToolMiddleware } from "./options";
import { isThenable, noContext } from "./run";
import type { ToolSettings } from "./settings";
import { validated } from "./validate";

/** Longest delay `setTimeout` honours; longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Valid arguments, their call run (within its limits, through the middleware) and answered. */
export function runGuarded(
  env: DispatchEnvironment,
  run: DispatchRun,
  state: CallState,
  settings: ToolSettings,
  args: ArgsObject,
): ToolMessage | Promise<ToolMessage> {
  const tool = settings.tool;
  let result: unknown;
  let pending: Pending | undefined;
  try {
    if (run.deadline && run.expired) throw new ToolTimeoutError(tool.name, run.deadline.timeoutMs, "dispatch");
    result = runTool(tool, args, state, settings, run, middlewareOf(env.middleware, run.options.wrap));
    // Inside the try: `instanceof` asks a returned Proxy for its prototype, and a trap that throws must fail this
    // call only, not the batch.
    if (result instanceof Pending) pending = result;
  } catch (error) {
    return state.caught(settings, error);
  }
  if (pending !== undefined) {
    return pending.promise.then(
      (value) => state.succeeded(tool, settings, value),
      (error: unknown) => state.caught(settings, error),
    );
  }
  return state.succeeded(tool, settings, result);
}

/** A promise (or any thenable) the fast form's call returned, raced as `runTool` races one (no controller: the tool took no ToolContext). */
export function waitFor(
  result: PromiseLike<unknown>,
  state: CallState,
  settings: ToolSettings,
  run: DispatchRun,
): Promise<ToolMessage> {
  return settleLater(settings.tool, result, state, settings, run);
}

/** A streaming tool's generator the fast form's call returned, driven and raced as `runTool` does; else undefined. */
export function driveStream(
  result: unknown,
  state: CallState,
  settings: ToolSettings,
  run: DispatchRun,
): Promise<ToolMessage> | undefined {
  const tool = settings.tool;
  if (!isToolStream(result, tool.meta.streams)) return undefined;
  const stream = driveToolStream(result, (value, count) => reportYield(state, run, undefined, value, count));
  return settleLater(tool, stream.result, state, settings, run, stream.stop);
}

function settleLater(
  tool: DispatchTool,
  result: PromiseLike<unknown>,
  state: CallState,
  settings: ToolSettings,
  run: DispatchRun,
  onSettled?: () => void,
): Promise<ToolMessage> {
  return race(tool, result, undefined, settings, run, onSettled).then(
    (value) => state.succeeded(tool, settings, value),
    (error: unknown) => state.caught(settings, error),
  );
}

/** A tool's result still to come: what runTool returns when the tool returned a promise (or any thenable). */
export class Pending {
  constructor(readonly promise: Promise<unknown>) {}
}

/**
 * Call the tool with its positional arguments. A plain value comes back as it is (no promise, no timer: nothing can
 * interrupt a synchronous call anyway). A promise is raced, within the earlier of the tool's own time limit and the
 * run's deadline, against the run's signal: whatever settles first wins, and a late result or error is dropped.
 * A synchronous throw propagates.
 */
export function runTool(
  tool: DispatchTool,
  args: ArgsObject,
  state: CallState,
  settings: ToolSettings,
  run: DispatchRun,
  chain: readonly ToolMiddleware[] = [],
): unknown {
  if (run.aborted) throw new CallerAbort(run.reason);
  // Only a tool that takes a ToolContext, or middleware, can observe the signal; the others need no controller.
  const controller = tool.meta.inject || chain.length > 0 ? new AbortController() : undefined;
  const context = controller ? () => contextFor(tool, state, controller, run) : noContext;
  // A streaming tool's generator is driven here, so that middleware sees its result, not the generator.
  let stream: ReturnType<typeof driveToolStream> | undefined;
  const call = (callArgs: ArgsObject): unknown => {
    const result = tool.call(toPositionalArgs(callArgs, tool.meta, context));
    if (!isToolStream(result, tool.meta.streams)) return result;
    stream = driveToolStream(result, (value, count) => reportYield(state, run, controller?.signal, value, count));
    return stream.result;
  };
  // However the call is answered (its result, an error, its time limit, an abort), its generator stops there.
  const stop = (): void => stream?.stop();
  if (chain.length === 0) {
    const result = call(args);
    return isThenable(result) ? new Pending(race(tool, result, controller, settings, run, stop)) : result;
  }
  // Once the call is answered (a result, an error, its time limit, an abort), a middleware's late `next()` starts
  // nothing: the model was already told what came of the call.
  let answered = false;
  const closed = (): boolean => answered || controller!.signal.aborted;
  const chained = runChain(
    chain,
    middlewareRequest(tool, state, args, controller!.signal, run),
    (changed) => recheckArguments(tool, changed, settings),
    call,
    closed,
  );
  return new Pending(
    race(tool, chained, controller, settings, run, () => {
      answered = true;
      stop();
    }),
  );
}

/**
 * A value a streaming tool yielded, reported as `ToolContext.progress` reports are (to `onProgress`, with the value
 * itself). Dropped once the call was aborted or timed out; a listener that throws loses its report, not the call.
 */
function reportYield(
  state: CallState,
  run: DispatchRun,
  signal: AbortSignal | undefined,
  value: unknown,
  count: number,
): void {
  const onProgress = run.options.onProgress;
  if (!onProgress || signal?.aborted || run.aborted) return;
  try {
    onProgress(progressOf(value, count), state.toolCall, { value });
  } catch {
    // Progress is advisory.
  }
}

function middlewareRequest(
  tool: DispatchTool,
  state: CallState,
  args: ArgsObject,
  signal: AbortSignal,
  run: DispatchRun,
): ToolCallRequest {
  return {
    name: tool.name,
    id: state.call.id,
    args,
    tool,
    metadata: { ...tool.options.metadata, ...run.options.metadata },
    signal,
  };
}

/**
 * Arguments a middleware passed to `next`, read and validated as the model's would be (through their JSON form, so
 * revived dates are dates again after); a mismatch is the middleware's bug and fails the call as a tool error.
 */
function recheckArguments(
  tool: DispatchTool,
  changed: Record<string, unknown>,
  settings: ToolSettings,
): ArgsObject | Promise<ArgsObject> {
  const fitting = (prepared: Settled): ArgsObject => {
    if (!prepared.ok)
      throw new Error(
        `a middleware passed arguments to ${tool.name} that do not fit its schema. ${prepared.error.message}`,
      );
    return prepared.args;
  };
  const prepared = validated(settings, readArguments(JSON.parse(JSON.stringify(changed)) as unknown, settings));
  return prepared instanceof Promise ? prepared.then(fitting) : fitting(prepared);
}

function contextFor(tool: DispatchTool, state: CallState, controller: AbortController, run: DispatchRun): ToolContext {
  const { auth, onProgress } = run.options;
  const toolCall = state.toolCall;
  return {
    toolCall,
    signal: controller.signal,
    metadata: { ...tool.options.metadata, ...run.options.metadata },
    auth,
    progress: (progress, total, message) => {
      // A report after the call was aborted or timed out, or a malformed one, is dropped: progress is advisory.
      if (!onProgress || controller.signal.aborted || typeof progress !== "number" || !Number.isFinite(progress))
        return;
      onProgress(
        {
          progress,
          ...(typeof total === "number" && Number.isFinite(total) ? { total } : {}),
          ...(typeof message === "string" ? { message } : {}),
        },
        toolCall,
      );
    },
  };
}

function race(
  tool: DispatchTool,
  pending: PromiseLike<unknown>,
  controller: AbortController | undefined,
  settings: ToolSettings,
  run: DispatchRun,
  onSettled?: () => void,
): Promise<unknown> {
  let limitMs = settings.timeoutMs;
  let timeout = (): ToolTimeoutError =>
    new ToolTimeoutError(tool.name, settings.timeoutMs!, "tool", settings.timeoutIsDefault);
  const deadline = run.deadline;
  if (deadline) {
    const left = Math.max(0, deadline.at - performance.now());
    if (limitMs === undefined || left < limitMs) {
      limitMs = left;
      timeout = () => {
        run.expire();
        return new ToolTimeoutError(tool.name, deadline.timeoutMs, "dispatch");
      };
    }
  }

  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe();
      onSettled?.();
      return true;
    };
    const unsubscribe = run.onAbort(() => {
      if (!settle()) return;
      controller?.abort(run.reason);
      reject(new CallerAbort(run.reason));
    });
    if (limitMs !== undefined) {
      timer = setTimeout(
        () => {
          if (!settle()) return;
          const error = timeout();
          controller?.abort(error);
          reject(error);
        },
        Math.min(limitMs, MAX_TIMER_MS),
      );
    }
    Promise.resolve(pending).then(
      (value) => {
        if (settle()) resolve(value);
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
}
