/**
 * `tooltype/responses`: the smallest way in for an app on the OpenAI Responses API: the core (`tooltype/core`) and
 * a `ToolRegistry` whose export method is `toResponsesTools` only. A bundle of it carries no other provider.
 *
 * @module tooltype/responses
 */
export * from "./core";
export { ResponsesToolRegistry as ToolRegistry } from "../registry/presets/openai-responses";
export * from "../providers/openai-responses/types";
