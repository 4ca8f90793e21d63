/**
 * The find stage: the tool a call names, with its settings (settings.ts), in one lookup. Its fast form finds it;
 * a call it cannot go on with (the run aborted, no tool of that name, a call id over the limit) goes to its
 * continuation (unfound.ts), which answers it. Also the look-up every batch makes before anything runs: whether
 * any call names a tool that may need approval.
 */
import type { NormalizedCall } from "./call";
import type { CallRun, DispatchEnvironment } from "./environment";
import { type ToolSettings, settingsByName } from "./settings";

/**
 * The settings of the tool `call` names, or undefined when the find stage's continuation must answer it. Its fast
 * form is one lookup of settings already worked out; a tool's first call is `findFurther`'s.
 */
export function find(env: DispatchEnvironment, call: NormalizedCall, run: CallRun): ToolSettings | undefined {
  const settings = env.tools.get(call.name);
  return settings === undefined || run.aborted || call.id.length > run.idLimit ? findFurther(env, call, run) : settings;
}

/** A tool's first call (its settings worked out), and every call the find stage's continuation answers. */
function findFurther(env: DispatchEnvironment, call: NormalizedCall, run: CallRun): ToolSettings | undefined {
  if (run.aborted) return undefined;
  const settings = settingsByName(env, call.name);
  return settings === undefined || call.id.length > run.idLimit ? undefined : settings;
}

/** Whether any call names a tool that may need approval (cheap: no arguments are read). */
export function mayNeedApproval(env: DispatchEnvironment, calls: readonly NormalizedCall[]): boolean {
  if (env.approvals === false) return false;
  for (let i = 0; i < calls.length; i++) {
    const flag = env.get(calls[i]!.name)?.options.needsApproval;
    if (flag !== undefined && flag !== false) return true;
  }
  return false;
}
