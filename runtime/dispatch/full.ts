/**
 * The dispatch pipeline's later stages as one module (reached through `#lazy/dispatch-full`): everything a call needs
 * beyond the first stages every call goes through (answer.ts) — the full reader, hooks, middleware, approval,
 * deadlines and time limits, the texts of errors and their redaction, rich results, result JSON, the failure path of
 * arguments — the batches that are not plain runs, and what only async entry points use (`invoke`, approval, the
 * agent loop's refusals). Under Node it is required on the spot; in a bundle it is a chunk of its own that an app
 * which only ever answers plain calls never loads.
 */
export { answerBatch, continueBatch, refuseBeyondCap } from "./batch";
export { invokeRaw, invokeTool } from "./pipeline";
export { approvalState, checkApprovalState, decisionsFor, findPending } from "./approval";
export { resumeBatch } from "./resume";
