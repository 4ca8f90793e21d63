/**
 * `GeminiToolRegistry`, the `ToolRegistry` of the `tooltype/gemini` entry: the registry core with the export methods
 * of Gemini only, so that an app speaking that API bundles no other provider's code. Messages of another format
 * still dispatch: their provider is loaded on first need (CoreToolRegistry).
 */
import type { GeminiTool, GeminiToolsOptions } from "../../providers/gemini/wire";
import { toGeminiTools } from "../../providers/gemini/tools";
import { CoreToolRegistry } from "./core";
import type { AnyTools } from "../tool-types";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in the format of Gemini, and run a reply's calls with `dispatch`, one answer per call. The main
 * `tooltype` entry's `ToolRegistry` has the same core and every provider's export methods.
 */
export class GeminiToolRegistry<Tools extends object = AnyTools> extends CoreToolRegistry<Tools> {
  /**
   * `[{ functionDeclarations }]` for Gemini's `config.tools`, in its OpenAPI schema subset (recursion unrolled to
   * `recursionDepth`), or with `{ jsonSchema: true }` the full JSON Schema. Throws ToolExportError.
   */
  toGeminiTools(options?: GeminiToolsOptions): GeminiTool[] {
    return toGeminiTools(this.list(), options);
  }
}
