/**
 * What dispatch reaches through `#lazy/dispatch-full`: the stages' continuations (continue-call.ts and the files it
 * composes) with what only they use — batches that are not plain runs, `invoke`, approval, resuming — as one
 * module. Under Node it is required on the spot; in a bundle it is a chunk of its own that an app which only ever
 * answers plain calls never loads.
 */
export { answerBatch, continueBatch, refuseBeyondCap } from "./batch";
export { invokeRaw, invokeTool } from "./invoke";
export { approvalState, checkApprovalState, decisionsFor, findPending } from "./approval";
export { resumeBatch, resumedBefore } from "./resume";
