// Written by scripts/providers.mjs from the catalogue (runtime/providers/catalog.ts): run it again, do not edit.
/**
 * The providers of the small entries' registries (`tooltype/core`, `tooltype/openai`, …), in every build: the
 * provider of a format other than chat by `import()` the first time a message in it is met, so that bundlers split
 * each provider into a chunk of its own and an app that speaks one API ships no other (under Node the `import()` is
 * a `require` one step later). Once loaded a provider is at hand synchronously. The main entry never imports this
 * file: its registry has every provider at hand (`#lazy/providers`).
 */
import { CHAT_FORMAT, type MessageFormat, chatReader } from "../providers/catalog";
import type { CallReader } from "../providers/provider";

const loaded = new Map<MessageFormat, CallReader>([[CHAT_FORMAT, chatReader]]);

/** The reader of `format`: at hand when it was loaded before, else a promise of it, its provider loading. */
export function readerOnNeed(format: MessageFormat): CallReader | Promise<CallReader> {
  return loaded.get(format) ?? load(format);
}

/** One literal `import()` per provider: bundlers see each one and split it into its own chunk. */
function chunk(format: Exclude<MessageFormat, typeof CHAT_FORMAT>): Promise<{ provider: unknown }> {
  switch (format) {
    case "responses":
      return import("../providers/openai-responses/provider.js");
    case "openai-functions":
      return import("../providers/openai-chat/functions.js");
    case "gemini":
      return import("../providers/gemini/provider.js");
    case "anthropic":
      return import("../providers/anthropic/provider.js");
  }
}

async function load(format: MessageFormat): Promise<CallReader> {
  if (format === CHAT_FORMAT) return chatReader;
  const provider = (await chunk(format)).provider as CallReader;
  loaded.set(format, provider);
  return provider;
}
