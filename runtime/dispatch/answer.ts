/**
 * The answer stage's fast form: a tool's text result within its size is the call's ToolMessage, as it is. Any other
 * result (content parts, JSON, `[content, artifact]`, a result checked against the return type, text that must be
 * measured), and every failure, go to its continuation: call-state.ts, which makes the message (result-message.ts),
 * checks it, writes a failure for the model through the handlers, and tells the hooks.
 */
import type { ArgsObject } from "../arguments/read/read-arguments";
import type { NormalizedCall } from "./call";
import { Later } from "./later";
import { ToolMessage } from "./messages";
import type { ToolSettings } from "./settings";

/** The answer to `call` from what its tool returned, or the answer stage's continuation to make it. */
export function answer(
  settings: ToolSettings,
  call: NormalizedCall,
  args: ArgsObject,
  result: unknown,
): ToolMessage | Later {
  // Text, the most common result, is its own content; within a third of the limit its UTF-8 needs no counting.
  if (typeof result !== "string" || settings.handsResult || result.length * 3 > settings.maxResultBytes)
    return new Later("answer", settings, args, result, false);
  return new ToolMessage({ tool_call_id: call.id, name: settings.tool.name, content: result, status: "success" });
}
