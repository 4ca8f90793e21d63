/**
 * The providers on first need: the registry core (registry/core.ts) reads chat messages itself and loads the
 * provider of any other format the first time it meets one, by dynamic `import()`, so that bundlers split each
 * provider into a chunk of its own and an app that speaks one API ships no other. After the first load a provider
 * is at hand synchronously (`readerOf`), so later dispatches take no extra step.
 */
import { readChatCalls, readToolCall } from "./openai-chat/read";
import type { ToolProvider } from "./provider";
import type { MessageFormat } from "./sniff";

// Chat's reading of one call, for `invoke(call)`.
export { readToolCall };
export type { OpenAIToolCall } from "./openai-chat/read";

/** What dispatch needs of a provider: its name, reading a message's calls, answering them. */
export type CallReader = Pick<ToolProvider, "name" | "readCalls" | "answer">;

/** Chat Completions and LangChain, always at hand: their answers are the ToolMessages themselves. */
const chatReader: CallReader = { name: "openai", readCalls: readChatCalls as CallReader["readCalls"], answer: (_message, results) => [...results] };

const loaded: Partial<Record<MessageFormat, CallReader>> = { openai: chatReader };

/** The reader of `format` if it is at hand (chat always, the others once loaded), else `undefined`. */
export function readerOf(format: MessageFormat): CallReader | undefined {
  return loaded[format];
}

/** Whether `name` is the name of a provider (a format). */
export function isMessageFormat(name: unknown): name is MessageFormat {
  return name === "openai" || name === "openai-functions" || name === "responses" || name === "anthropic" || name === "gemini";
}

/** The reader of `format`, its provider loaded on first need. */
export async function loadReader(format: MessageFormat): Promise<CallReader> {
  const ready = loaded[format];
  if (ready) return ready;
  // One literal import() per provider: bundlers see each one and split it into its own chunk.
  let provider: CallReader;
  switch (format) {
    case "openai":
      return chatReader;
    case "openai-functions":
      provider = (await import("./openai-chat/functions.js")).openAIFunctions as CallReader;
      break;
    case "responses":
      provider = (await import("./openai-responses.js")).openAIResponses as CallReader;
      break;
    case "anthropic":
      provider = (await import("./anthropic.js")).anthropic as CallReader;
      break;
    case "gemini":
      provider = (await import("./gemini.js")).gemini as CallReader;
      break;
  }
  loaded[format] = provider;
  return provider;
}
