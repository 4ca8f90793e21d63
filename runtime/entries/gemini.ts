/**
 * `tooltype/gemini`: the smallest way in for an app on Gemini: the core (`tooltype/core`), the API's types and a
 * `ToolRegistry` whose export method is `toGeminiTools` only. A bundle of it carries no other provider; a message of
 * another format still dispatches (its provider is loaded on first need).
 *
 * @module tooltype/gemini
 */
export * from "./core";
export { GeminiToolRegistry as ToolRegistry } from "../registry/presets/gemini";
export * from "../providers/gemini/index";
