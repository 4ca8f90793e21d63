/**
 * How the catalogue's providers load for the small entries' registries (`tooltype/core`, `tooltype/openai`, …):
 * the provider of a format other than chat by dynamic `import()` the first time a message in it is met, so that
 * bundlers split each provider into a chunk of its own and an app that speaks one API ships no other. Once loaded
 * a provider is at hand synchronously, so later dispatches take no extra step. The main entry never imports this
 * file: its registry has every provider at hand (catalog.bundle.ts, catalog.node.ts).
 */
import { CHAT_FORMAT, type MessageFormat, chatReader } from "./catalog";
import type { CallReader } from "./provider";

const loaded = new Map<MessageFormat, CallReader>([[CHAT_FORMAT, chatReader]]);

/** The reader of `format`: at hand when it was loaded before, else a promise of it, its provider loading. */
export function readerOnNeed(format: MessageFormat): CallReader | Promise<CallReader> {
  return loaded.get(format) ?? load(format);
}

/** One literal `import()` per provider: bundlers see each one and split it into its own chunk. */
function chunk(format: Exclude<MessageFormat, typeof CHAT_FORMAT>): Promise<{ provider: unknown }> {
  switch (format) {
    case "openai-functions":
      return import("./openai-chat/functions.js");
    case "responses":
      return import("./openai-responses/provider.js");
    case "anthropic":
      return import("./anthropic/provider.js");
    case "gemini":
      return import("./gemini/provider.js");
  }
}

async function load(format: MessageFormat): Promise<CallReader> {
  if (format === CHAT_FORMAT) return chatReader;
  const provider = (await chunk(format)).provider as CallReader;
  loaded.set(format, provider);
  return provider;
}
