/** A call's arguments as text, for the loop's records and its own tools: as sent, or written as JSON. */
import type { NormalizedCall } from "../dispatch/call";

/** The arguments as the model sent them: the text (a free-form tool's raw text), or the object as JSON ("" for one JSON cannot write: a cycle, a BigInt, a getter that throws). */
export function argumentsText(call: NormalizedCall): string {
  if (call.kind === "text") return call.text;
  if (call.kind === "input") return call.input;
  if (call.kind === "invalid") return call.text ?? "";
  try {
    return JSON.stringify(call.args) ?? "";
  } catch {
    return "";
  }
}
