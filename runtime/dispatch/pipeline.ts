/**
 * The dispatch pipeline: every call of every provider, once the provider has read it into a NormalizedCall, is
 * answered by one composition of named stages, one ToolMessage per call:
 *
 *   find the tool (find.ts) → read the arguments (read.ts) → validate them, dates revived (validate.ts) →
 *   approve (approve.ts) → run the tool (run.ts) → answer (answer.ts)
 *
 * Each stage is written once, as a fast synchronous form and a continuation where it must go further or wait: the
 * full reader, the failure path of arguments, hooks, middleware, a human's decisions, time limits, promises, rich
 * results, the texts of errors. `answerCall` is the stages' fast forms in order; a call one of them cannot take
 * further leaves as a `Later` naming that stage, and continue-call.ts `continueCall` goes on from it with the
 * stages' continuations in the same order (loaded on first need through `#lazy/dispatch-full`, so a bundle that
 * only ever answers plain calls never loads them). Nothing of a call is read, validated or run twice.
 *
 * A stage a call does not use costs it nothing: a plain call (strict JSON of an object, or a parsed object; valid as
 * it came; a tool without a ToolContext in a run without hooks, middleware, decisions or a deadline, `CallRun.plain`;
 * a text result within its size) is answered here from start to end.
 */
import type { NormalizedCall } from "./call";
import type { CallRun, DispatchEnvironment } from "./environment";
import { find } from "./find";
import { Later, UNFOUND } from "./later";
import type { ToolMessage } from "./messages";
import { read } from "./read";
import { runTool } from "./run";
import { validate } from "./validate";

/**
 * The answer to `call` from the stages' fast forms, or the `Later` call for their continuations. Never throws: what
 * throws inside goes on as a failure to answer. (The approve stage has no fast form: a run with decisions is not
 * plain, so its calls reach `run` and go on from there; the run stage hands what the tool returned to the answer
 * stage.) What is rare stays out of the fast forms, in functions of their own: V8 inlines the fast forms into one
 * compiled function whose budget for inlining (920 bytes of bytecode in TurboFan) they share, and a stage left out
 * of it is called instead (docs/performance.md).
 */
export function answerCall(env: DispatchEnvironment, call: NormalizedCall, run: CallRun): ToolMessage | Later {
  const probe = env.probe;
  if (probe !== undefined) probe.began++;
  const settings = find(env, call, run);
  if (settings === undefined) return UNFOUND;
  if (probe?.readAllInFull) return new Later("read", settings, undefined, undefined, false);
  const args = read(settings, call);
  if (args instanceof Later) return args;
  const refused = validate(settings, call, args);
  if (refused !== undefined) return refused;
  return runTool(settings, call, args, run);
}
