/**
 * The error a plain dispatch rejects with when a batch has calls that need a human's approval, and the shape of such
 * a call. Apart from approval.ts (part of the full pipeline, loaded on first need) because it is public API: an app
 * that imports it to test `instanceof` should not carry the rest of approval with it.
 */

/** A call waiting for a human's decision. */
export interface PendingApproval {
  /** What a decision names: the call's id, or `#<index>` when the batch's ids are missing or not unique (Gemini without ids). */
  readonly id: string;
  /** Its position in the batch. */
  readonly index: number;
  readonly name: string;
  /** The validated arguments, as JSON (what the tool would receive, dates as their text). */
  readonly args: Record<string, unknown>;
}

/** A plain `dispatch` (or `runCalls`, `invoke`) met calls that need approval; nothing of the batch ran. */
export class ApprovalRequiredError extends Error {
  readonly pending: readonly PendingApproval[];
  constructor(pending: readonly PendingApproval[]) {
    const names = [...new Set(pending.map((call) => call.name))].join(", ");
    super(
      `${names} need${pending.length === 1 ? "s" : ""} a human's approval (needsApproval), so this batch was not run: a plain dispatch never runs such a call. Use registry.dispatchWithApproval(message) and registry.resume(state, decisions), or runTools, which pauses for approval (result.paused).`,
    );
    this.name = "ApprovalRequiredError";
    this.pending = pending;
  }
}
