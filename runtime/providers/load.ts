/**
 * The providers on first need, for the small entries' registries (`tooltype/core`, `tooltype/openai`, …): the
 * provider of a format other than chat is loaded by dynamic `import()` the first time a message in it is met, so
 * that bundlers split each provider into a chunk of its own and an app that speaks one API ships no other. Once
 * loaded a provider is at hand synchronously, so later dispatches take no extra step. The main entry never imports
 * this file: its registry has every provider at hand through the provider list (index.ts).
 */
import { type CallReader, chatReader } from "./readers";
import type { MessageFormat } from "./sniff";

const loaded: Partial<Record<MessageFormat, CallReader>> = { openai: chatReader };

/** The reader of `format`: at hand when it was loaded before, else a promise of it, its provider loading. */
export function readerOnNeed(format: MessageFormat): CallReader | Promise<CallReader> {
  return loaded[format] ?? load(format);
}

async function load(format: MessageFormat): Promise<CallReader> {
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
