/**
 * Resuming a paused batch (registry `resume`, the agent loop): loaded with the stages' continuations
 * (continuations.ts), so that the registry core every app loads carries only the call that starts it.
 */
import { type ApprovalDecision, checkApprovalState, decisionsFor, verifyApprovalState } from "./approval";
import { ResumedStates } from "./approval-seal";
import { answerBatch } from "./batch";
import type { NormalizedCall } from "./call";
import type { DispatchEnvironment } from "./environment";
import type { ToolMessage } from "./messages";
import type { DispatchOptions } from "./options";
import { activeTracing } from "../telemetry/tracing";
import { withToolSpans } from "./traced";

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
  const { rejections, edits } = decisionsFor(checked, decisions);
  // Last, once the decisions are known to be complete: a state runs once.
  if (!resumedBy(env).claim(checked.nonce))
    throw new TypeError("resume: refused, this state was resumed before; nothing was run.");
  // A call the human edited runs with the edit, which the pipeline reads and validates as it would the model's
  // arguments; the state itself (what was shown, sealed) is never changed.
  const calls = checked.calls.map((call, index): NormalizedCall => {
    const edit = edits[index];
    return edit === undefined ? { ...call } : { kind: "args", id: call.id, name: call.name, args: edit };
  });
  // Under the pause's options: the calls that run, their cap and their coercion are the ones the human was shown.
  const resumeOptions: DispatchOptions = { ...options, ...checked.options };
  const tracing = activeTracing();
  return answerBatch(
    env,
    calls,
    tracing === undefined ? resumeOptions : withToolSpans(resumeOptions, tracing),
    rejections,
    edits.some((edit) => edit !== undefined) ? edits : undefined,
  );
}

/** Whether the state of `nonce` was resumed before by this registry: checked before anything else of a resume is read. */
export function resumedBefore(env: DispatchEnvironment, nonce: string): boolean {
  return resumedBy(env).has(nonce);
}

/** Dispatch's own record of the states each registry resumed. */
const resumed = new WeakMap<DispatchEnvironment, ResumedStates>();

function resumedBy(env: DispatchEnvironment): ResumedStates {
  let states = resumed.get(env);
  if (!states) resumed.set(env, (states = new ResumedStates()));
  return states;
}
