/**
 * `tooltype/openai`: the smallest way in for an app on OpenAI Chat Completions (and the legacy functions API): the
 * core (`tooltype/core`), the API's types and a `ToolRegistry` whose export methods are `toOpenAITools` and
 * `toOpenAIFunctions` only. A bundle of it carries no other provider; a message of another format still dispatches
 * (its provider is loaded on first need).
 *
 * @module tooltype/openai
 */
export * from "./core";
export { OpenAIToolRegistry as ToolRegistry } from "../registry/presets/openai-chat";
export * from "../providers/openai-chat/index";
