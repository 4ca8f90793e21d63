/**
 * Tests only, never imported by the runtime: a probe put into one registry's dispatch environment, which counts the
 * calls the pipeline began and those that went on to a stage's continuation, and can send every call the long way
 * round, to check that both ways through the pipeline give the same answers.
 */
import { type DispatchEnvironment, type DispatchProbe, ENVIRONMENT } from "./environment";

export type { DispatchProbe } from "./environment";

/**
 * The probe of `registry`'s dispatch, put in now (before its first call: the read stage's walk is decided once per
 * tool, when its settings are worked out). `readAllInFull`: every call's arguments go to the read stage's
 * continuation. `walkAlways`: the read stage walks parsed arguments even for closed schemas.
 */
export function probeDispatch(
  registry: object,
  switches: { readAllInFull?: boolean; walkAlways?: boolean } = {},
): DispatchProbe {
  const environment = (registry as { [ENVIRONMENT]?: () => DispatchEnvironment })[ENVIRONMENT];
  if (typeof environment !== "function") throw new TypeError("probeDispatch: not a ToolRegistry");
  const env = environment.call(registry);
  if (env.tools.size > 0) throw new Error("probeDispatch: put the probe in before the registry's first call");
  const probe: DispatchProbe = {
    began: 0,
    continued: 0,
    readAllInFull: switches.readAllInFull ?? false,
    walkAlways: switches.walkAlways ?? false,
  };
  env.probe = probe;
  return probe;
}
