/**
 * What the registry core (registry/core.ts) knows of providers without loading any: the `CallReader` it needs of
 * one (name, reading a message's calls, answering them), the Chat Completions reader (always at hand: chat is the
 * most common format and `invoke(call)`'s), and which names are formats. Which provider answers another format is
 * each registry class's choice: the main entry's has them all loaded (providers/index.ts); the small entries'
 * load one on first need (providers/load.ts).
 */
import type { ToolProvider } from "./provider";
import type { MessageFormat } from "./sniff";
import { readChatCalls } from "./openai-chat/read";

export { readToolCall } from "./openai-chat/read";
export type { OpenAIToolCall } from "./openai-chat/read";
export type { MessageFormat } from "./sniff";

/** What dispatch needs of a provider: its name, reading a message's calls, answering them. */
export type CallReader = Pick<ToolProvider, "name" | "readCalls" | "answer">;

/** Chat Completions and LangChain: their answers are the ToolMessages themselves. */
export const chatReader: CallReader = {
  name: "openai",
  readCalls: readChatCalls as CallReader["readCalls"],
  answer: (_message, results) => [...results],
};

/** Whether `name` is the name of a provider (a format), e.g. in an approval state read back from JSON. */
export function isMessageFormat(name: unknown): name is MessageFormat {
  return name === "openai" || name === "openai-functions" || name === "responses" || name === "anthropic" || name === "gemini";
}
