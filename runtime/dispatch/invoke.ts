/**
 * One call made by the program rather than the model: `invoke(name, input)` and `tool.invoke(input)` return the
 * tool's own value and throw instead of answering (unknown tools and bad arguments throw ToolValidationError); and
 * the arguments of a call as the tool would receive them, for deciding on approval. The same stages as a model's
 * call: the read stage's continuation, validate, the run stage's continuation.
 */
import { type ArgsObject, readArguments } from "../arguments/read/read-arguments";
import type { Settled } from "../arguments/settle";
import type { NormalizedCall } from "./call";
import { CallState } from "./call-state";
import { createRun, isCallerAbort } from "./dispatch-run";
import type { DispatchEnvironment, DispatchTool } from "./environment";
import type { DispatchOptions, RegistryOptions, ToolInput } from "./options";
import { bareStringArguments, readInFull } from "./read-in-full";
import { Pending, runTool } from "./run-guarded";
import { forDispatch, forInvoke, settingsByName } from "./settings";
import { unknownToolError } from "./unfound";
import { validated } from "./validate";

/** `invoke(name, input)`: the tool's own return value; unknown tools and bad arguments throw ToolValidationError. */
export async function invokeRaw(
  env: DispatchEnvironment,
  name: string,
  input: ToolInput | undefined,
  options: DispatchOptions = {},
): Promise<unknown> {
  const tool = env.get(name);
  if (!tool) throw unknownToolError(name, env.names());
  return invokeTool(tool, input, env.options, options);
}

/** `invoke` on one tool, without the registry lookup. Arguments are validated strictly unless `options.coerce`. */
export async function invokeTool(
  tool: DispatchTool,
  input: ToolInput | undefined,
  registryOptions: Readonly<RegistryOptions>,
  options: DispatchOptions = {},
): Promise<unknown> {
  const settings = forInvoke(tool, registryOptions, options);
  const read = typeof input === "string" ? bareStringArguments(tool, input, settings) : readArguments(input, settings);
  const checked = validated(settings, read);
  const prepared = checked instanceof Promise ? await checked : checked;
  if (!prepared.ok) throw prepared.error;
  const run = createRun(options);
  const state = new CallState({ kind: "args", id: "", name: tool.name, args: prepared.args }, tool, run, undefined);
  state.args = prepared.args;
  try {
    const result = runTool(tool, prepared.args, state, settings, run);
    return await (result instanceof Pending ? result.promise : result);
  } catch (error) {
    throw isCallerAbort(error) ? error.reason : error;
  } finally {
    run.close();
  }
}

/** The validated arguments of `call` as the tool would receive them, or `undefined` when they are not usable. */
export function validArguments(
  env: DispatchEnvironment,
  tool: DispatchTool,
  call: NormalizedCall,
  options: DispatchOptions,
): ArgsObject | undefined | Promise<ArgsObject | undefined> {
  const usable = (prepared: Settled): ArgsObject | undefined => (prepared.ok ? prepared.args : undefined);
  try {
    const prepared = readInFull(
      forDispatch(settingsByName(env, call.name) ?? forInvoke(tool, env.options, {}), env.options, options),
      call,
    );
    return prepared instanceof Promise ? prepared.then(usable, () => undefined) : usable(prepared);
  } catch {
    return undefined;
  }
}
