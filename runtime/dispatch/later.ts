/**
 * A call that a stage's fast form could not take further: the stage whose continuation takes it on
 * (continue-call.ts), and what the call has by then. Nothing of a call is read, validated or run twice: each
 * continuation goes on from what its stage's fast form did.
 */
import type { ArgsObject } from "../arguments/read/read-arguments";
import type { ToolSettings } from "./settings";

/**
 * The stages of a call, in order (the approve stage has no fast form: only a resumed batch has decisions to apply).
 * - find: the run was aborted, the tool is unknown or the call id over the limit;
 * - read: the arguments need the full reader (text to measure, trim, repair or copy; a call the provider marked
 * invalid);
 * - validate: read, but not as the tool takes them (`value`: the ReadResult, a problem or arguments that failed
 * validation);
 * - run: valid, dates revived, and the run (hooks, middleware, approval decisions, a deadline) or the tool (a
 *   ToolContext) needs the full run; or, with `value`, the tool returned a promise (or any thenable) to wait for;
 * - answer: the tool returned `value`, more than a text result within its size; or, with `threw`, `value` was
 *   thrown (by the tool, by a getter of the arguments, by making or running the validator).
 */
export type Stage = "find" | "read" | "validate" | "run" | "answer";

export class Later {
  constructor(
    readonly stage: Stage,
    readonly settings: ToolSettings | undefined,
    readonly args: ArgsObject | undefined,
    readonly value: unknown,
    readonly threw: boolean,
  ) {}
}

/** Every call the find stage cannot go on with: its continuation (unfound.ts) needs nothing more, so one serves all. */
export const UNFOUND: Later = Object.freeze(new Later("find", undefined, undefined, undefined, false));
