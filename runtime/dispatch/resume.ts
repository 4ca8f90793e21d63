/**
 * Resuming a paused batch (registry `resume`, the agent loop): part of the full pipeline, so that the registry core
 * every app loads carries only the call that starts it.
 */
import { type ApprovalDecision, checkApprovalState, rejectionsFor } from "./approval";
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
  const rejections = rejectionsFor(checked, decisions);
  return answerBatch(env, checked.calls.map((call) => ({ ...call })), options, rejections);
}
