// Written by scripts/providers.mjs from the catalogue (runtime/providers/catalog.ts): run it again, do not edit.
/**
 * `AnthropicToolRegistry`, the `ToolRegistry` of the `tooltype/anthropic` entry: the registry core with the export
 * methods of Anthropic Messages only, so that an app speaking that API bundles no other provider's code. Messages of
 * another format still dispatch: their provider is loaded on first need (CoreToolRegistry).
 */
import type { AnthropicTool } from "../../providers/anthropic/wire";
import { toAnthropicTools } from "../../providers/anthropic/tools";
import { CoreToolRegistry } from "./core";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in the format of Anthropic Messages, and run a reply's calls with `dispatch`, one answer per
 * call. The main `tooltype` entry's `ToolRegistry` has the same core and every provider's export methods.
 */
export class AnthropicToolRegistry extends CoreToolRegistry {
  /** The `tools` of an Anthropic Messages request (`{ name, description, input_schema }`). */
  toAnthropicTools(): AnthropicTool[] {
    return toAnthropicTools(this.list());
  }
}
