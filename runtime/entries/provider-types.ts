// Written by scripts/providers.mjs from the catalogue (runtime/providers/catalog.ts): run it again, do not edit.
/**
 * The public types (and values) of every provider of the catalogue, each its folder's types.ts, for the main entry
 * (index.ts); a provider entry exports its own.
 */
export * from "../providers/openai-responses/types";
export * from "../providers/openai-chat/types";
export * from "../providers/gemini/types";
export * from "../providers/anthropic/types";
