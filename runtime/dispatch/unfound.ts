/**
 * The find stage's continuation: a call whose run was aborted rejects with the run's reason; a call naming no tool,
 * or whose id is over the limit, is answered with a validation failure, nothing read.
 */
import { ToolValidationError } from "../tool/errors";
import type { NormalizedCall } from "./call";
import { CallState } from "./call-state";
import type { DispatchRun } from "./dispatch-run";
import type { DispatchEnvironment } from "./environment";
import { validationText } from "./error-text";
import { callHooks } from "./hooks";
import { callIdTooLongError } from "./limit-errors";
import type { ToolMessage } from "./messages";

export function unfound(env: DispatchEnvironment, call: NormalizedCall, run: DispatchRun): ToolMessage {
  if (run.aborted) throw run.reason;
  const tool = env.get(call.name);
  const state = new CallState(call, tool, run, callHooks(env.options, run.options));
  state.begin();
  if (call.id.length > run.idLimit) {
    const handler = tool?.options.handleValidationError ?? env.options.handleValidationError;
    return state.failure(
      "validation",
      handler,
      callIdTooLongError(tool?.name ?? call.name, call.id.length, run.idLimit),
      validationText,
    );
  }
  return state.failure(
    "validation",
    env.options.handleValidationError,
    unknownToolError(call.name, env.names()),
    validationText,
  );
}

export function unknownToolError(name: string, valid: string[]): ToolValidationError {
  const what = name === "" ? "The call names no tool." : `${JSON.stringify(truncateName(name))} is not a valid tool.`;
  const list = valid.length > 0 ? `Valid tools: ${valid.join(", ")}.` : "No tools are registered.";
  return new ToolValidationError(`${what} ${list}`, { reason: "unknown_tool", toolName: name });
}

function truncateName(name: string): string {
  return name.length <= 100 ? name : `${name.slice(0, 100)}…`;
}
