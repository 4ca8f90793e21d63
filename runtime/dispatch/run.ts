/**
 * The run stage's fast form: a tool that takes no ToolContext called directly, in a run with no hooks, middleware,
 * approval decisions or deadline. What it returns goes to the answer stage; a promise goes to the run stage's
 * continuation (run-guarded.ts), which waits for it within the call's time limits and the run's signal, and which
 * also calls every tool the fast form does not (a ToolContext, middleware, a deadline).
 */
import { type ArgsObject, toPositionalArgs } from "../arguments/read/read-arguments";
import type { ToolContext } from "../tool/options";
import { answer } from "./answer";
import type { NormalizedCall } from "./call";
import type { CallRun, ToolSettings } from "./environment";
import { Later } from "./later";
import type { ToolMessage } from "./messages";

/**
 * The run stage's fast form: the tool called (`callTool`) in a plain run, and what it returned handed to the answer
 * stage. A run that is not plain, a tool that takes a ToolContext and a promise go to the run stage's continuation
 * (run-guarded.ts); a throw to the answer stage's. Written as one function with the call's own try, so that the
 * composition (pipeline.ts) stays small and looks at no tool's result: a Proxy whose traps throw fails its call.
 */
export function runTool(
  settings: ToolSettings,
  call: NormalizedCall,
  args: ArgsObject,
  run: CallRun,
): ToolMessage | Later {
  if (!run.plain || settings.inject) return new Later("run", settings, args, undefined, false);
  let result: unknown;
  try {
    result = callTool(settings, args);
    if (isThenable(result)) return new Later("run", settings, args, result, false);
  } catch (error) {
    return new Later("answer", settings, args, error, true);
  }
  return answer(settings, call, args, result);
}

/**
 * Calls a tool that takes no ToolContext with each parameter's argument by name, as arguments/read/read-arguments.ts
 * `toPositionalArgs` maps them (which flattened tools take), without looking up its plan. Up to three parameters
 * it passes them one by one, with no array in between; the function sees the same arguments either way (as many
 * as it has parameters, a missing one undefined). Each argument is an own property or undefined (see `own`),
 * tested in line: a call of `own` per argument cost about a tenth of a ten-call message (bench/dispatch.ts).
 * Each of the three is read once, whatever the count, and the rest (a flattened tool, more parameters) is apart in
 * `callWithArray`: this function is inlined, with `runTool`, into pipeline.ts `answerCall` with every other stage's
 * fast form, and V8's budget for that (920 bytes of bytecode in TurboFan, shared by them all) runs out before the
 * last stages when it is bigger (a bigger one cost a one-call dispatch about a tenth of its time, bench/dispatch.ts).
 */
export function callTool(settings: ToolSettings, args: ArgsObject): unknown {
  const params = settings.params;
  if (params === undefined || params.length > 3) return callWithArray(settings, args);
  const count = params.length;
  const first = count > 0 && hasOwn.call(args, params[0]!) ? args[params[0]!] : undefined;
  const second = count > 1 && hasOwn.call(args, params[1]!) ? args[params[1]!] : undefined;
  const third = count > 2 && hasOwn.call(args, params[2]!) ? args[params[2]!] : undefined;
  const fn = settings.fn;
  return count === 3 ? fn(first, second, third) : count === 2 ? fn(first, second) : count === 1 ? fn(first) : fn();
}

/** `callTool` for a flattened tool (its arguments mapped by its plan) or one of more than three parameters. */
function callWithArray(settings: ToolSettings, args: ArgsObject): unknown {
  const params = settings.params;
  if (params === undefined) return settings.tool.call(toPositionalArgs(args, settings.tool.meta, noContext));
  const values: unknown[] = new Array(params.length);
  for (let i = 0; i < params.length; i++) values[i] = own(args, params[i]!);
  return settings.tool.call(values);
}

const hasOwn = Object.prototype.hasOwnProperty;

/** An argument only if the model sent it: never a value every object inherits (a polluted `Object.prototype`). */
function own(args: ArgsObject, name: string): unknown {
  return hasOwn.call(args, name) ? args[name] : undefined;
}

export function noContext(): ToolContext {
  throw new Error("tooltype: a ToolContext was asked for by a tool whose metadata injects none.");
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
