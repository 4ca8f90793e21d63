/**
 * `OpenAIToolRegistry`, the `ToolRegistry` of the `tooltype/openai` entry: the registry core with the export methods
 * of OpenAI Chat Completions (and the legacy functions API) only, so that an app speaking that API bundles no other
 * provider's code. Messages of another format still dispatch: their provider is loaded on first need
 * (CoreToolRegistry).
 */
import type { OpenAIFunctionDefinition, OpenAIToolsOptions } from "../../providers/openai-chat/tools";
import type { OpenAIFunctionTool, OpenAITool } from "../../providers/openai-chat/wire";
import { toOpenAIFunctions, toOpenAITools } from "../../providers/openai-chat/tools";
import { CoreToolRegistry } from "./core";
import type { AnyTools } from "../tool-types";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in the format of OpenAI Chat Completions (and the legacy functions API), and run a reply's
 * calls with `dispatch`, one answer per call. The main `tooltype` entry's `ToolRegistry` has the same core and every
 * provider's export methods.
 */
export class OpenAIToolRegistry<Tools extends object = AnyTools> extends CoreToolRegistry<Tools> {
  /**
   * The `tools` of an OpenAI Chat Completions request, free-form tools as custom tools. `{ strict: true }` rewrites
   * every function tool (that does not set its own `strict` option) into OpenAI's strict subset; OpenAI's limits are
   * checked. Throws ToolExportError.
   */
  toOpenAITools(options: OpenAIToolsOptions & { customTools: true }): OpenAITool[];
  /**
   * The `tools` of an OpenAI Chat Completions request. `{ strict: true }` rewrites every tool (that does not set its
   * own `strict` option) into OpenAI's strict subset; OpenAI's limits are checked. Throws ToolExportError.
   */
  toOpenAITools(options?: OpenAIToolsOptions & { customTools?: false }): OpenAIFunctionTool[];
  /** The `tools` of an OpenAI Chat Completions request, free-form tools as custom tools with `customTools: true`. */
  toOpenAITools(options?: OpenAIToolsOptions): OpenAITool[];
  toOpenAITools(options?: OpenAIToolsOptions): OpenAITool[] {
    return toOpenAITools(this.list(), options);
  }

  /** The `functions` of a legacy Chat Completions request (`{ name, description, parameters }`; no strict mode in that API). */
  toOpenAIFunctions(): OpenAIFunctionDefinition[] {
    return toOpenAIFunctions(this.list());
  }
}
