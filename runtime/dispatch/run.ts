/**
 * The run stage's fast form: a tool that takes no ToolContext called directly, in a run with no hooks, middleware,
 * approval decisions or deadline. What it returns goes to the answer stage; a promise goes to the run stage's
 * continuation (run-guarded.ts), which waits for it within the call's time limits and the run's signal, and which
 * also calls every tool the fast form does not (a ToolContext, middleware, a deadline).
 */
import { type ArgsObject, toPositionalArgs } from "../arguments/read/read-arguments";
import type { ToolContext } from "../tool/options";
import type { ToolSettings } from "./settings";

/**
 * Calls a tool that takes no ToolContext with each parameter's argument by name, as arguments/read/read-arguments.ts
 * `toPositionalArgs` maps them (which flattened tools take), without looking up its plan. Up to three parameters
 * it passes them one by one, with no array in between; the function sees the same arguments either way (as many
 * as it has parameters, a missing one undefined). Each argument is an own property or undefined (see `own`),
 * tested in line: a call of `own` per argument cost about a tenth of a ten-call message (bench/dispatch.ts). A
 * fourth arm would take this function past the bytecode size V8 inlines (460 bytes in TurboFan), and every call
 * would then pay for a call of it.
 */
export function callTool(settings: ToolSettings, args: ArgsObject): unknown {
  const params = settings.params;
  if (params === undefined) return settings.tool.call(toPositionalArgs(args, settings.tool.meta, noContext));
  const fn = settings.fn;
  switch (params.length) {
    case 0:
      return fn();
    case 1:
      return fn(hasOwn.call(args, params[0]!) ? args[params[0]!] : undefined);
    case 2:
      return fn(hasOwn.call(args, params[0]!) ? args[params[0]!] : undefined, hasOwn.call(args, params[1]!) ? args[params[1]!] : undefined);
    case 3:
      return fn(
        hasOwn.call(args, params[0]!) ? args[params[0]!] : undefined,
        hasOwn.call(args, params[1]!) ? args[params[1]!] : undefined,
        hasOwn.call(args, params[2]!) ? args[params[2]!] : undefined,
      );
  }
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
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}
