/** Reading the calls of an Anthropic message: its `tool_use` content blocks. */
import type { NormalizedCall } from "../../dispatch/call";
import { argsCall } from "../provider";
import { unreadableInput } from "./unreadable";
import type { AnthropicAssistantMessage } from "./wire";

/** Every `tool_use` block of the message's `content` list (`input` is an object already). */
export function readAnthropicCalls(message: AnthropicAssistantMessage): NormalizedCall[] {
  const calls: NormalizedCall[] = [];
  if (!Array.isArray(message.content)) return calls;
  for (const block of message.content as readonly unknown[]) {
    if (typeof block !== "object" || block === null) continue;
    const record = block as Record<string, unknown>;
    if (record.type !== "tool_use") continue;
    // A streamed input that did not parse (accumulateToolCalls): dispatch reads the text, and answers the parse error.
    const text = unreadableInput(block);
    calls.push(
      text === undefined
        ? argsCall(record, record.input)
        : {
            kind: "text",
            id: typeof record.id === "string" ? record.id : "",
            name: typeof record.name === "string" ? record.name : "",
            text,
          },
    );
  }
  return calls;
}
