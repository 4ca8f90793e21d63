/**
 * Arguments text read as dispatch reads it, and the words for arguments that cannot be read:
 * - `parseArguments`: strict JSON first (read-text.ts), the text `JSON.parse` refuses by the lenient reader
 *   (repair-json.ts), in one synchronous call, for code that needs the answer at once (`parseToolCalls`, structured
 *   output, JSON Patch calls); dispatch reads strictly and loads the rest on first need (settle.ts);
 * - `describeArgumentsProblem`: what the model is told about arguments it must send again.
 */
import type { ArgumentsProblem, ReadOptions, ReadResult } from "./read-arguments";
import { parseText } from "./read-text";
import { kindOf, shortJson, truncate } from "../explain/show";
import { repairJson } from "../repair/repair-json";

/** Parse arguments text, repairing the slips repair-json.ts accepts unless `options.repair` is `false`. */
export function parseArguments(text: string, options: ReadOptions = {}): ReadResult {
  return parseText(text, options, repairJson)!;
}

/** The model-facing sentence(s) for an unreadable arguments value, ending with what to do. */
export function describeArgumentsProblem(toolName: string, failure: ArgumentsProblem): string {
  const again = `Call ${toolName} again with the arguments as one JSON object.`;
  switch (failure.problem) {
    case "json":
      return `invalid JSON in the arguments for ${toolName}: ${failure.detail}\nArguments received: ${truncate(failure.text, 200)}\n${again}`;
    case "not_object":
      return `the arguments for ${toolName} must be a JSON object, got ${kindOf(failure.value)}: ${truncate(failure.text ?? shortJson(failure.value, 200), 200)}\n${again}`;
    case "too_long": {
      const size = failure.bytes === undefined ? "over" : `${failure.bytes} bytes,`;
      return `the arguments for ${toolName} are too large (${size} the limit is ${failure.limit} bytes of JSON).\nCall ${toolName} again with smaller arguments.`;
    }
    case "too_deep":
      return `the arguments for ${toolName} are nested too deeply (more than ${failure.limit} levels of objects and arrays).\nCall ${toolName} again with arguments nested at most ${failure.limit} levels deep.`;
    case "not_finite":
      return `the arguments for ${toolName} hold a number too large for a 64-bit float at ${failure.path || "(root)"} (it would arrive as Infinity).\nCall ${toolName} again with a finite number there.`;
  }
}
