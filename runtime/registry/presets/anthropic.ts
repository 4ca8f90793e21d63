/**
 * `AnthropicToolRegistry`, the `ToolRegistry` of the `tooltype/anthropic` entry: the registry core with the export
 * methods of Anthropic Messages only, so that an app speaking that API bundles no other provider's code. Messages of
 * another format still dispatch: their provider is loaded on first need (CoreToolRegistry).
 */
import type {
  AnthropicRequestTool,
  AnthropicTool,
  AnthropicToolSearchMatch,
  AnthropicToolsOptions,
} from "../../providers/anthropic/wire";
import { toAnthropicTools } from "../../providers/anthropic/tools";
import { CoreToolRegistry } from "./core";
import type { AnyTools } from "../tool-types";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in the format of Anthropic Messages, and run a reply's calls with `dispatch`, one answer per
 * call. The main `tooltype` entry's `ToolRegistry` has the same core and every provider's export methods.
 */
export class AnthropicToolRegistry<Tools extends object = AnyTools> extends CoreToolRegistry<Tools> {
  /**
   * The `tools` of an Anthropic Messages request with a tool search: deferred tools with `defer_loading`, and the
   * tool search tool at the end when a tool is deferred (`true` or `"bm25"`: the BM25 one; `"regex"`: the regex one).
   */
  toAnthropicTools(
    options: AnthropicToolsOptions & { toolSearch: true | AnthropicToolSearchMatch },
  ): AnthropicRequestTool[];
  /** The `tools` of an Anthropic Messages request (`{ name, description, input_schema }`), each whole. */
  toAnthropicTools(options?: AnthropicToolsOptions & { toolSearch?: false }): AnthropicTool[];
  /** The `tools` of an Anthropic Messages request, with a tool search when `toolSearch` says so (see the overloads). */
  toAnthropicTools(options?: AnthropicToolsOptions): AnthropicRequestTool[];
  toAnthropicTools(options?: AnthropicToolsOptions): AnthropicRequestTool[] {
    return toAnthropicTools(this.list(), options);
  }
}
