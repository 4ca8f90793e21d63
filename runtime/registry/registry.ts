/**
 * `ToolRegistry` of the main `tooltype` entry: the registry core (core.ts: register, read, dispatch, approval,
 * middleware) and the tools in every provider's format (`toOpenAITools`, `toResponsesTools`, `toAnthropicTools`,
 * `toGeminiTools`, `toMCPTools`, …), written by the providers, every provider at hand through the provider list
 * (under Node each is required on its first use). The provider entries (`tooltype/openai`, …) each add only their own export methods to the same
 * core and load the other providers on need (on-need.ts), so that a bundle carries one provider.
 */
import {
  type AnthropicTool,
  type GeminiTool,
  type GeminiToolsOptions,
  type OpenAIFunctionDefinition,
  type OpenAIFunctionTool,
  type OpenAIToolsOptions,
  type ResponsesFunctionTool,
  type ResponsesToolsOptions,
  anthropic,
  gemini,
  openAIResponses,
  providerNamed,
  toMCPTools,
  toOpenAIFunctions,
  toOpenAITools,
} from "../providers";
import type { CallReader, MessageFormat } from "../providers/readers";
import type { MCPTool } from "../providers/mcp";
import { BaseToolRegistry } from "./core";

export type { RegisteredTool } from "../dispatch/options";
export { BaseToolRegistry } from "./core";

/**
 * The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static
 * ones), export them in each provider's format (`toOpenAITools()`, …), and run a reply's calls with `dispatch`, one
 * answer per call.
 */
export class ToolRegistry extends BaseToolRegistry {
  /** Every provider is loaded with this entry: answered at once. @internal */
  protected providerFor(format: Exclude<MessageFormat, "openai">): CallReader {
    return providerNamed(format);
  }

  /**
   * The `tools` of an OpenAI Chat Completions request. `{ strict: true }` rewrites every tool (that does not set its
   * own `strict` option) into OpenAI's strict subset; OpenAI's limits are checked. Throws ToolExportError.
   */
  toOpenAITools(options?: OpenAIToolsOptions): OpenAIFunctionTool[] {
    return toOpenAITools(this.list(), options);
  }

  /** The `functions` of a legacy Chat Completions request (`{ name, description, parameters }`). */
  toOpenAIFunctions(): OpenAIFunctionDefinition[] {
    return toOpenAIFunctions(this.list());
  }

  /**
   * The function tools of an OpenAI Responses API request. Strict by default, as the Responses API itself is:
   * `{ strict: false }` (or a tool's own `strict: false`) opts out. Throws ToolExportError.
   */
  toResponsesTools(options?: ResponsesToolsOptions): ResponsesFunctionTool[] {
    return openAIResponses.exportTools(this.list(), options);
  }

  /** The `tools` of an Anthropic Messages request (`{ name, description, input_schema }`). */
  toAnthropicTools(): AnthropicTool[] {
    return anthropic.exportTools(this.list());
  }

  /**
   * `[{ functionDeclarations }]` for Gemini's `config.tools`, in its OpenAPI schema subset (recursion unrolled to
   * `recursionDepth`), or with `{ jsonSchema: true }` the full JSON Schema. Throws ToolExportError.
   */
  toGeminiTools(options?: GeminiToolsOptions): GeminiTool[] {
    return gemini.exportTools(this.list(), options);
  }

  /** MCP tool descriptors for `tools/list`: `inputSchema`, and `outputSchema` from an object return type. */
  toMCPTools(): MCPTool[] {
    return toMCPTools(this.list());
  }
}
