/**
 * The rest of a call's composition (pipeline.ts): a call a stage's fast form could not take further goes on from
 * that stage, through the stages' continuations in the same order — find (unfound.ts), read (read-in-full.ts),
 * validate (validate.ts `validated`, then arguments/settle.ts), approve (approve.ts), run (run-guarded.ts), answer
 * (call-state.ts) — under the settings of its dispatch (settings.ts `forDispatch`). What the fast forms did is not
 * done again. Hooks see the call from here on: a call begins (`onToolStart`) once its arguments are settled.
 */
import type { ArgsObject, ReadResult } from "../arguments/read/read-arguments";
import type { Settled } from "../arguments/settle";
import type { NormalizedCall } from "./call";
import { CallState } from "./call-state";
import type { DispatchRun } from "./dispatch-run";
import type { DispatchEnvironment } from "./environment";
import { edited, refused, rejected } from "./approve";
import { failureText } from "./error-text";
import { callHooks } from "./hooks";
import { Later } from "./later";
import type { ToolMessage } from "./messages";
import { answerCall } from "./pipeline";
import { readInFull } from "./read-in-full";
import { unfound } from "./unfound";
import { driveStream, runGuarded, waitFor } from "./run-guarded";
import { type ToolSettings, forDispatch } from "./settings";
import { NONE_COERCED, NONE_REPAIRED, settle } from "./validate";

/**
 * The answer to one call of `run`, the whole composition: the fast forms (pipeline.ts), then, if the call needs
 * them, the continuations. A ToolMessage right away when the tool returns a plain value, a promise of one when it
 * returns a promise. Throws (or rejects) only when a handler says `false` (or throws) or the run is aborted.
 */
export function answerInRun(
  env: DispatchEnvironment,
  call: NormalizedCall,
  run: DispatchRun,
  index: number,
): ToolMessage | Promise<ToolMessage> {
  const answered = answerCall(env, call, run);
  return answered instanceof Later ? continueCall(env, call, run, index, answered) : answered;
}

/** A call handed on by pipeline.ts `answerCall`, answered from the stage it reached. */
export function continueCall(
  env: DispatchEnvironment,
  call: NormalizedCall,
  run: DispatchRun,
  index: number,
  later: Later,
): ToolMessage | Promise<ToolMessage> {
  if (env.probe !== undefined) env.probe.continued++;
  if (later.stage === "find") return unfound(env, call, run);
  const settings = forDispatch(later.settings!, env.options, run.options);
  const state = new CallState(call, settings.tool, run, callHooks(env.options, run.options));
  state.args = later.args;
  if (later.stage === "answer") return answer(state, settings, run, later);
  if (later.stage === "run" && later.value !== undefined)
    return waitFor(later.value as PromiseLike<unknown>, state, settings, run);
  let settled: Settled | Promise<Settled>;
  try {
    if (later.stage === "read") settled = readInFull(settings, call);
    else if (later.stage === "validate") settled = settle(settings, later.value as ReadResult);
    else settled = { ok: true, args: later.args!, repairs: NONE_REPAIRED, coercions: NONE_COERCED };
  } catch (error) {
    return failed(state, settings, error);
  }
  // A promise only while a bundle loads the failure path for arguments (the first call whose arguments are not right).
  if (settled instanceof Promise) {
    return settled.then(
      (ready) => approveAndRun(env, call, run, index, state, settings, ready),
      (error: unknown) => failed(state, settings, error),
    );
  }
  return approveAndRun(env, call, run, index, state, settings, settled);
}

/** Settled arguments: the approve stage, then the run stage's continuation, then the answer. */
function approveAndRun(
  env: DispatchEnvironment,
  call: NormalizedCall,
  run: DispatchRun,
  index: number,
  state: CallState,
  settings: ToolSettings,
  settled: Settled,
): ToolMessage | Promise<ToolMessage> {
  if (settled.args) state.args = settled.args;
  state.begin(settled.repairs, settled.coercions);
  if (!settled.ok) return refused(state, settings, run, index, settled.error);
  const rejection = rejected(state, settings, call, run, index);
  if (rejection !== undefined) return rejection;
  const args: ArgsObject = settled.args;
  return edited(run, index, args, runGuarded(env, run, state, settings, args));
}

/**
 * The answer stage's continuation for a call of a plain run (no hooks: nothing was missed) whose tool the fast forms
 * ran: what it threw, or what it returned beyond a text within its size. Also a failure before the tool ran (reading
 * or validating threw), in any run: the tool failing.
 */
function answer(
  state: CallState,
  settings: ToolSettings,
  run: DispatchRun,
  later: Later,
): ToolMessage | Promise<ToolMessage> {
  if (later.threw) return failed(state, settings, later.value);
  return driveStream(later.value, state, settings, run) ?? state.succeeded(settings.tool, settings, later.value);
}

/** A call that failed for a reason not the model's (a tool that threw, a parameter schema ajv cannot compile). */
function failed(state: CallState, settings: ToolSettings, error: unknown): ToolMessage {
  state.begin();
  return state.failure("tool", settings.toolHandler, error, (e) => failureText(e, settings.redact));
}
