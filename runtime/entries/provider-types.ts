/**
 * The public types (and values) of every provider of the catalogue, each its folder's index.ts, for the main entry
 * (index.ts); a provider entry exports its own.
 */
export * from "../providers/openai-responses/index";
export * from "../providers/openai-chat/index";
export * from "../providers/gemini/index";
export * from "../providers/anthropic/index";
