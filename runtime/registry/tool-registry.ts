/**
 * `ToolRegistry`, the main `tooltype` entry's: the registry core (register, read, dispatch, approval, middleware)
 * with every provider at hand (under Node each is required on its first use), and the tools in every format: one
 * export method per format of the catalogue, its TSDoc and overloads those of the function of its name in the
 * provider's tools.ts (test/architecture/catalog.test.ts checks that each is here), and `toMCPTools`. The provider
 * entries (`tooltype/openai`, …) each have a preset (presets/) with their own export methods only.
 */
import type {
  AnthropicRequestTool,
  AnthropicTool,
  AnthropicToolSearchMatch,
  AnthropicToolsOptions,
  CHAT_FORMAT,
  GeminiTool,
  GeminiToolsOptions,
  MCPTool,
  MessageFormat,
  OpenAIFunctionDefinition,
  OpenAIFunctionTool,
  OpenAITool,
  OpenAIToolsOptions,
  ResponsesCustomTool,
  ResponsesFunctionTool,
  ResponsesTool,
  ResponsesToolsOptions,
} from "../providers/catalog";
import { exportAs, providerNamed, toMCPTools } from "../providers/at-hand";
import type { CallReader } from "../providers/provider";
import { BaseToolRegistry } from "./core";
import type { AnyTools } from "./tool-types";

export type { RegisteredTool } from "../dispatch/options";
export { BaseToolRegistry } from "./core";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in each provider's format (`toOpenAITools()`, …), and run a reply's calls with `dispatch`, one
 * answer per call.
 */
export class ToolRegistry<Tools extends object = AnyTools> extends BaseToolRegistry<Tools> {
  /** Every provider is loaded with this entry: answered at once. @internal */
  protected providerFor(format: Exclude<MessageFormat, typeof CHAT_FORMAT>): CallReader {
    return providerNamed(format);
  }

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
    return exportAs("toResponsesTools", this.list(), options) as ResponsesTool[];
  }

  /** The `functions` of a legacy Chat Completions request (`{ name, description, parameters }`; no strict mode in that API). */
  toOpenAIFunctions(): OpenAIFunctionDefinition[] {
    return exportAs("toOpenAIFunctions", this.list()) as OpenAIFunctionDefinition[];
  }

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
    return exportAs("toOpenAITools", this.list(), options) as OpenAITool[];
  }

  /**
   * `[{ functionDeclarations }]` for Gemini's `config.tools`, in its OpenAPI schema subset (recursion unrolled to
   * `recursionDepth`), or with `{ jsonSchema: true }` the full JSON Schema. Throws ToolExportError.
   */
  toGeminiTools(options?: GeminiToolsOptions): GeminiTool[] {
    return exportAs("toGeminiTools", this.list(), options) as GeminiTool[];
  }

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
    return exportAs("toAnthropicTools", this.list(), options) as AnthropicRequestTool[];
  }

  /** MCP tool descriptors for `tools/list`: `inputSchema`, and `outputSchema` from an object return type. */
  toMCPTools(): MCPTool[] {
    return toMCPTools(this.list());
  }
}
