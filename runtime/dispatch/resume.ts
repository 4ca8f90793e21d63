/**
 * Resuming a paused batch (registry `resume`, the agent loop): part of the full pipeline, so that the registry core
 * every app loads carries only the call that starts it.
 */
import { type ApprovalDecision, checkApprovalState, rejectionsFor, verifyApprovalState } from "./approval";
import { ResumedStates } from "./approval-seal";
import { answerBatch } from "./batch";
import type { DispatchEnvironment } from "./environment";
import type { ToolMessage } from "./messages";
import type { DispatchOptions } from "./options";

/**
 * Every call of a paused batch answered, in call order, a rejected one with its rejection. In this order, and
 * nothing run before the last check: the state is checked, `before` is given its format (the registry refuses an
 * unknown one and gets its provider ready), and the decisions must decide every pending call exactly once (else a
 * TypeError).
 */
export async function resumeBatch(
  env: DispatchEnvironment,
  state: unknown,
  decisions: readonly ApprovalDecision[],
  options: DispatchOptions,
  before?: (format: string) => Promise<void>,
): Promise<ToolMessage[]> {
  const checked = checkApprovalState(state);
  if (before) await before(checked.provider);
  await verifyApprovalState(env, checked);
  const rejections = rejectionsFor(checked, decisions);
  // Last, once the decisions are known to be complete: a state runs once.
  if (!resumedBy(env).claim(checked.nonce)) throw new TypeError("resume: refused, this state was resumed before; nothing was run.");
  // Under the pause's options: the calls that run, their cap and their coercion are the ones the human was shown.
  return answerBatch(env, checked.calls.map((call) => ({ ...call })), { ...options, ...checked.options }, rejections);
}

/** Dispatch's own record of the states each registry resumed. */
const resumed = new WeakMap<DispatchEnvironment, ResumedStates>();

function resumedBy(env: DispatchEnvironment): ResumedStates {
  let states = resumed.get(env);
  if (!states) resumed.set(env, (states = new ResumedStates()));
  return states;
}
