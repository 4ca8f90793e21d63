/**
 * The approve stage: a human's decisions on the calls of a resumed batch (approval.ts turns them into the run's
 * `rejections` and `edits`, by call index). A rejected call is answered with its rejection and never runs; a call
 * approved with edited arguments runs with them once they pass validation, and its answer says so; an edit that
 * does not fit runs nothing and says why. A run with decisions is never plain, so this stage has no fast form.
 */
import type { ArgsObject } from "../arguments/read/read-arguments";
import type { CallState } from "./call-state";
import type { NormalizedCall } from "./call";
import type { DispatchRun } from "./dispatch-run";
import { validationText } from "./error-text";
import { ToolMessage } from "./messages";
import type { ToolSettings } from "./settings";

/** The answer to a call whose arguments are not valid: the validation's text, or, for a human's edit, what the human did too. */
export function refused(
  state: CallState,
  settings: ToolSettings,
  run: DispatchRun,
  index: number,
  error: unknown,
): ToolMessage {
  const name = settings.tool.name;
  const text = run.edits?.[index] === undefined ? validationText : (e: unknown) => editRefusedText(name, e);
  return state.failure("validation", settings.validationHandler, error, text);
}

/** The answer to a call a human rejected, or undefined when it runs. */
export function rejected(
  state: CallState,
  settings: ToolSettings,
  call: NormalizedCall,
  run: DispatchRun,
  index: number,
): ToolMessage | undefined {
  const rejection = run.rejections?.[index];
  if (rejection === undefined) return undefined;
  return state.end(
    new ToolMessage({
      tool_call_id: call.id,
      name: settings.tool.name,
      content: rejection,
      status: "error",
      errorKind: "rejected",
    }),
  );
}

/** The answer of a call that ran, with the note of a human's edit where there was one. */
export function edited(
  run: DispatchRun,
  index: number,
  args: ArgsObject,
  answered: ToolMessage | Promise<ToolMessage>,
): ToolMessage | Promise<ToolMessage> {
  if (run.edits?.[index] === undefined) return answered;
  // The note shows the arguments as the tool received them (after the pause's coercion).
  const note = editNote(args);
  return answered instanceof Promise
    ? answered.then((message) => withEditNote(message, note))
    : withEditNote(answered, note);
}

/** What the model reads for an edit that does not fit: what the human did, and the validation's own text. */
function editRefusedText(name: string, error: unknown): string {
  return `The user approved this call of ${name} with edited arguments, but the edit does not fit the tool's parameters, so it was not run. ${validationText(error)}`;
}

/** Longest text of edited arguments shown to the model in the note. */
const EDIT_NOTE_MAX = 2000;

/** What the model reads of a human's edit: that there was one, and the arguments the call ran with. */
function editNote(args: ArgsObject): string {
  let shown = JSON.stringify(args);
  if (shown.length > EDIT_NOTE_MAX) shown = `${shown.slice(0, EDIT_NOTE_MAX)}…`;
  return `[The user edited the arguments of this call before approving it; it ran with ${shown}.]`;
}

/** The answer of a call that ran with a human's edit, beginning with the note (a text part too, where it has parts). */
function withEditNote(message: ToolMessage, note: string): ToolMessage {
  message.content = message.content === "" ? note : `${note}\n${message.content}`;
  if (message.parts) message.parts = [{ type: "text", text: note }, ...message.parts];
  return message;
}
