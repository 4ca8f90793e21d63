/**
 * `ResponsesToolRegistry`, the `ToolRegistry` of the `tooltype/responses` entry: the registry core with the export
 * methods of the OpenAI Responses API only, so that an app speaking that API bundles no other provider's code.
 * Messages of another format still dispatch: their provider is loaded on first need (CoreToolRegistry).
 */
import type {
  ResponsesCustomTool,
  ResponsesFunctionTool,
  ResponsesTool,
  ResponsesToolsOptions,
} from "../../providers/openai-responses/wire";
import { toResponsesTools } from "../../providers/openai-responses/tools";
import { CoreToolRegistry } from "./core";
import type { AnyTools } from "../tool-types";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in the format of the OpenAI Responses API, and run a reply's calls with `dispatch`, one answer
 * per call. The main `tooltype` entry's `ToolRegistry` has the same core and every provider's export methods.
 */
export class ResponsesToolRegistry<Tools extends object = AnyTools> extends CoreToolRegistry<Tools> {
  /**
   * The tools of an OpenAI Responses API request with a tool search: deferred tools with `defer_loading`, the tools
   * of a namespace in one `namespace` tool, and `tool_search` at the end when a tool is deferred (with `customTools`,
   * free-form tools as custom tools). Strict by default (`{ strict: false }` or a tool's own `strict: false` opts out);
   * OpenAI's limits are checked on the tools loaded up front unless `checkLimits: false`. Throws ToolExportError.
   */
  toResponsesTools(options: ResponsesToolsOptions & { toolSearch: true }): ResponsesTool[];
  /**
   * The tools of an OpenAI Responses API request, each whole, free-form tools as custom tools. Strict by default, as
   * the Responses API itself is: `{ strict: false }` (or a tool's own `strict: false`) opts out. OpenAI's limits are
   * checked unless `checkLimits: false`. Throws ToolExportError.
   */
  toResponsesTools(
    options: ResponsesToolsOptions & { toolSearch?: false; customTools: true },
  ): (ResponsesFunctionTool | ResponsesCustomTool)[];
  /**
   * The function tools of an OpenAI Responses API request, each whole. Strict by default, as the Responses API itself
   * is: `{ strict: false }` (or a tool's own `strict: false`) opts out. OpenAI's limits are checked unless
   * `checkLimits: false`. Throws ToolExportError.
   */
  toResponsesTools(
    options?: ResponsesToolsOptions & { toolSearch?: false; customTools?: false },
  ): ResponsesFunctionTool[];
  /** The tools of an OpenAI Responses API request, with a tool search when `toolSearch` is true (see the overloads). */
  toResponsesTools(options?: ResponsesToolsOptions): ResponsesTool[];
  toResponsesTools(options?: ResponsesToolsOptions): ResponsesTool[] {
    return toResponsesTools(this.list(), options);
  }
}
