/**
 * `tooltype/responses`: the smallest way in for an app on the OpenAI Responses API: the core (`tooltype/core`), the
 * API's types and a `ToolRegistry` whose export method is `toResponsesTools` only. A bundle of it carries no other
 * provider; a message of another format still dispatches (its provider is loaded on first need).
 *
 * @module tooltype/responses
 */
export * from "./core";
export { ResponsesToolRegistry as ToolRegistry } from "../registry/presets/openai-responses";
export * from "../providers/openai-responses/index";
