/**
 * `tooltype/anthropic`: the smallest way in for an app on Anthropic Messages: the core (`tooltype/core`), the API's
 * types and a `ToolRegistry` whose export method is `toAnthropicTools` only. A bundle of it carries no other
 * provider; a message of another format still dispatches (its provider is loaded on first need).
 *
 * @module tooltype/anthropic
 */
export * from "./core";
export { AnthropicToolRegistry as ToolRegistry } from "../registry/presets/anthropic";
export * from "../providers/anthropic/index";
