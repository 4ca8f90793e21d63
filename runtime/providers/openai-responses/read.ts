/** Reading the calls of a Response (or a list of items): its `function_call` and `custom_tool_call` items. */
import type { NormalizedCall } from "../../dispatch/call";
import type { ResponsesInput } from "./wire";

/**
 * Every `function_call` and `custom_tool_call` item, keyed by `call_id` (other items, such as messages and
 * reasoning, carry no call). A custom tool call's input is raw text, read as it is.
 */
export function readResponsesCalls(message: ResponsesInput): NormalizedCall[] {
  const items = itemsOf(message);
  const calls: NormalizedCall[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const record = item as Record<string, unknown>;
    const custom = record.type === "custom_tool_call";
    if (record.type !== "function_call" && !custom) continue;
    const id = typeof record.call_id === "string" ? record.call_id : "";
    const name = typeof record.name === "string" ? record.name : "";
    if (custom) {
      const input = record.input;
      calls.push(
        typeof input === "string"
          ? { kind: "input", id, name, input }
          : { kind: "invalid", id, name, error: "the custom tool call's input is not text" },
      );
      continue;
    }
    const args = record.arguments;
    if (typeof args === "string") calls.push({ kind: "text", id, name, text: args });
    else if (args === undefined || args === null) calls.push({ kind: "text", id, name, text: "" });
    else calls.push({ kind: "args", id, name, args });
  }
  return calls;
}

/**
 * The `call_id`s of a message's `custom_tool_call` items, whose answers are `custom_tool_call_output` items; none
 * without a message (`resume` answers from the results alone, so a resumed custom call is answered with a
 * `function_call_output` item).
 */
export function customCallIds(message: ResponsesInput | undefined): ReadonlySet<string> | undefined {
  if (message === undefined) return undefined;
  let ids: Set<string> | undefined;
  for (const item of itemsOf(message)) {
    const record = item as { type?: unknown; call_id?: unknown } | null;
    if (record?.type === "custom_tool_call" && typeof record.call_id === "string")
      (ids ??= new Set()).add(record.call_id);
  }
  return ids;
}

function itemsOf(message: ResponsesInput): readonly unknown[] {
  if (Array.isArray(message)) return message;
  const output = (message as { output?: unknown }).output;
  return Array.isArray(output) ? output : [];
}
