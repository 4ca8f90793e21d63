/** Reading the calls of a Response (or a list of items): its `function_call` items. */
import type { NormalizedCall } from "../../dispatch/call";
import type { ResponsesInput } from "./wire";

/** Every `function_call` item, keyed by `call_id` (other items, such as messages and reasoning, carry no call). */
export function readResponsesCalls(message: ResponsesInput): NormalizedCall[] {
  const items: readonly unknown[] = Array.isArray(message)
    ? message
    : (message as { output: readonly unknown[] }).output;
  const calls: NormalizedCall[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const record = item as Record<string, unknown>;
    if (record.type !== "function_call") continue;
    const id = typeof record.call_id === "string" ? record.call_id : "";
    const name = typeof record.name === "string" ? record.name : "";
    const args = record.arguments;
    if (typeof args === "string") calls.push({ kind: "text", id, name, text: args });
    else if (args === undefined || args === null) calls.push({ kind: "text", id, name, text: "" });
    else calls.push({ kind: "args", id, name, args });
  }
  return calls;
}
