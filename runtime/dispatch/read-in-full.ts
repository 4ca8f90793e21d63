/**
 * The read stage's continuation, the full reader: arguments text measured, trimmed, `__proto__` dropped, read
 * leniently where strict JSON fails (arguments/read/read-text.ts, then the failure path); a parsed value copied; a
 * free-form tool's raw text taken as its one string parameter; a call the provider marked invalid explained. What it reads goes through the validate stage (validate.ts `validated`).
 */
import { type ReadResult, modelParams, readArguments } from "../arguments/read/read-arguments";
import { parseText } from "../arguments/read/read-text";
import type { Settled } from "../arguments/settle";
import { ToolValidationError } from "../tool/errors";
import { freeformArguments } from "../tool/freeform";
import type { NormalizedCall } from "./call";
import type { DispatchTool } from "./environment";
import type { ToolSettings } from "./settings";
import { validated } from "./validate";

/** The arguments of `call` read in full and validated. A promise only when the failure path is still to be loaded. */
export function readInFull(settings: ToolSettings, call: NormalizedCall): Settled | Promise<Settled> {
  const tool = settings.tool;
  switch (call.kind) {
    case "args":
      // A string where the arguments object belongs is arguments text (some gateways pass it on unparsed).
      return typeof call.args === "string"
        ? readText(settings, call.args)
        : validated(settings, readArguments(call.args, settings));
    case "text":
      return readText(settings, call.text);
    case "input": {
      // A free-form tool's raw text: the value of its one string parameter, never parsed, validated as that.
      const args = freeformArguments(tool.name, tool.meta.parameters, call.input);
      if (typeof args !== "string") return validated(settings, readArguments(args, settings));
      return {
        ok: false,
        repairs: [],
        coercions: [],
        error: new ToolValidationError(args, { reason: "malformed_arguments", toolName: tool.name }),
      };
    }
    case "invalid": {
      // The provider rejected the call, so it is not run. Prefer the strict parser's words when the text is the
      // problem; otherwise pass on why the call was rejected.
      const read =
        call.text === undefined
          ? undefined
          : parseText(call.text, {
              maxBytes: settings.maxBytes,
              maxDepth: settings.maxDepth,
              unwrapString: settings.unwrapString,
              repair: false,
            });
      if (read && !read.ok) return validated(settings, read);
      const reason = call.error ?? "the provider marked it as invalid";
      return {
        ok: false,
        repairs: [],
        coercions: [],
        error: new ToolValidationError(
          `the call to ${tool.name} could not be used: ${reason}\nCall ${tool.name} again with the arguments as one JSON object.`,
          { reason: "malformed_arguments", toolName: tool.name },
        ),
      };
    }
  }
}

/** Arguments text: strict JSON here; text `JSON.parse` refuses is read leniently on the failure path. */
function readText(settings: ToolSettings, text: string): Settled | Promise<Settled> {
  return validated(settings, parseText(text, settings) ?? text);
}

/** `invoke(name, "text")`: a bare string is the argument of a tool's one parameter. */
export function bareStringArguments(tool: DispatchTool, input: string, settings: ToolSettings): ReadResult {
  const params = modelParams(tool.meta);
  if (params.length === 1) return readArguments({ [params[0]!]: input }, settings);
  const takes = params.length === 0 ? "takes no arguments" : `takes ${params.length} arguments (${params.join(", ")})`;
  throw new ToolValidationError(
    `${tool.name} ${takes}, so it cannot be invoked with a bare string; pass the arguments as an object.`,
    { reason: "malformed_arguments", toolName: tool.name },
  );
}
