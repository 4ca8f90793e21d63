/**
 * `ToolRegistry` of the `tooltype/gemini` entry: the registry core (core.ts) and the tools in Gemini's format only, so
 * that an app speaking Gemini bundles no other provider's code (messages of another format still dispatch: their
 * provider is loaded on first need, on-need.ts).
 */
import { type GeminiTool, type GeminiToolsOptions, toGeminiTools } from "../providers/gemini";
import { ToolRegistry as OnNeedToolRegistry } from "./on-need";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in Gemini's format, and run a reply's calls with `dispatch`, one answer per call. The main
 * `tooltype` entry's `ToolRegistry` has the same core and every provider's export methods.
 */
export class ToolRegistry extends OnNeedToolRegistry {
  /**
   * `[{ functionDeclarations }]` for Gemini's `config.tools`, in its OpenAPI schema subset (recursion unrolled to
   * `recursionDepth`), or with `{ jsonSchema: true }` the full JSON Schema. Throws ToolExportError.
   */
  toGeminiTools(options?: GeminiToolsOptions): GeminiTool[] {
    return toGeminiTools(this.list(), options);
  }
}
