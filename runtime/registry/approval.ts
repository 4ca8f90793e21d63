/**
 * The public types of human approval at the registry: what `dispatchWithApproval` and `resume` resolve to, and the
 * paused batch's state, typed by the message it came from (the type is a compile-time tag only: the state itself is
 * plain JSON, see runtime/dispatch/approval.ts).
 */
import type { ApprovalStateData, PendingApproval } from "../dispatch/approval";
import type { ToolMessage } from "../dispatch/messages";
import type { DispatchResult, ToolCallMessage } from "../providers/catalog";

declare const answersMessage: unique symbol;

/**
 * The state of a batch paused for approval: plain JSON (store it with `JSON.stringify`, read it back with
 * `JSON.parse`, possibly in another process with a new registry holding the same tools). `M` is the type of the
 * model message it came from, so that `resume` answers in that message's format.
 */
export interface ApprovalState<M = ToolCallMessage> extends ApprovalStateData {
  /** Never present at run time: ties the state to the answer's type. */
  readonly [answersMessage]?: M;
}

/** Every call of the batch answered: `answer` in the message's own format (as `dispatch` returns it), `results` as ToolMessages. */
export interface ApprovalDone<M> {
  readonly status: "done";
  readonly answer: DispatchResult<M>;
  readonly results: ToolMessage[];
}

/** Nothing of the batch ran: `pending` waits for a human; pass `state` and the decisions to `registry.resume`. */
export interface ApprovalPaused<M> {
  readonly status: "paused";
  readonly pending: readonly PendingApproval[];
  readonly state: ApprovalState<M>;
}

/** What an approval round gives: every call answered, or paused with the calls awaiting a decision. */
export type ApprovalResult<M> = ApprovalDone<M> | ApprovalPaused<M>;
