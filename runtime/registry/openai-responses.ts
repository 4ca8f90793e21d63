/**
 * `ToolRegistry` of the `tooltype/responses` entry: the registry core (core.ts) and the tools in the OpenAI Responses API's format only, so
 * that an app speaking the OpenAI Responses API bundles no other provider's code (messages of another format still dispatch: their
 * provider is loaded on first need, on-need.ts).
 */
import { type ResponsesFunctionTool, type ResponsesToolsOptions, toResponsesTools } from "../providers/openai-responses";
import { ToolRegistry as OnNeedToolRegistry } from "./on-need";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in the OpenAI Responses API's format, and run a reply's calls with `dispatch`, one answer per call. The main
 * `tooltype` entry's `ToolRegistry` has the same core and every provider's export methods.
 */
export class ToolRegistry extends OnNeedToolRegistry {
  /**
   * The function tools of an OpenAI Responses API request. Strict by default, as the Responses API itself is:
   * `{ strict: false }` (or a tool's own `strict: false`) opts out. Throws ToolExportError.
   */
  toResponsesTools(options?: ResponsesToolsOptions): ResponsesFunctionTool[] {
    return toResponsesTools(this.list(), options);
  }
}
