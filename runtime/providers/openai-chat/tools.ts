/**
 * The tool lists of a Chat Completions request: `tools`, each registered tool as `{ type: "function", function }` (a
 * free-form tool as `{ type: "custom", custom }`, openai-custom.ts),
 * its schema in OpenAI's strict subset where strict mode is asked for (the form the build wrote; a schema made at run
 * time rewritten then, strict/schema-of.ts); the legacy `functions` list; and a structured answer's
 * `response_format`. Apart from the providers (provider.ts, functions.ts) so that a small entry's registry exports
 * tools without loading either.
 */
import type { ChatCompletionCreateParams, ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import { checkToolCount } from "../../strict/openai-limits";
import { customToolFormat, isCustomTool } from "../openai-custom";
import { type OutputFormatSource, type ToolFormatSource, strictOutputSchema, strictParameters } from "../provider";
import type { JsonSchemaResponseFormat, OpenAICustomTool, OpenAIFunctionTool, OpenAITool } from "./wire";
import { describeWithExamples } from "../../tool/examples";

/** `toOpenAITools` options. */
export interface OpenAIToolsOptions {
  /**
   * Strict mode (Structured Outputs) for every tool that does not set its own `strict` option: the schema is rewritten
   * into OpenAI's strict subset (docs/providers.md#openai-chat-completions-strict-mode) and `strict: true` is sent. A
   * tool's own option wins.
   */
  strict?: boolean;
  /**
   * Check the limits of one request, such as OpenAI's 128 tools (default `true`). Turn it off to export a large
   * registry once and send a subset per request; each tool's own schema is checked either way.
   */
  checkLimits?: boolean;
  /**
   * Write free-form tools (JSDoc `@freeform`, `freeform: true`) as custom tools (`{ type: "custom", custom }`), whose
   * input the model sends as raw text, held to the tool's pattern as a `regex` grammar. Default `false`: every tool is
   * a function tool (a free-form one with its one string parameter), as the return type `OpenAIFunctionTool[]` says.
   * `runTools` always writes them as custom tools.
   */
  customTools?: boolean;
}

/** `{ type: "function", function: { name, description, parameters } }`, plus `strict` when the tool or the export sets it. */
export function toOpenAITool(tool: ToolFormatSource, options: OpenAIToolsOptions = {}): OpenAIFunctionTool {
  const strict = tool.options.strict ?? options.strict;
  const fn: ChatCompletionFunctionTool["function"] = { name: tool.name };
  // An empty description is left out rather than sent as "" (the model reads nothing either way).
  const description = describeWithExamples(tool);
  if (description !== "") fn.description = description;
  fn.parameters = strict === true ? strictParameters(tool, "openai-strict") : tool.parameters;
  if (typeof strict === "boolean") fn.strict = strict;
  const entry: ChatCompletionFunctionTool = { type: "function", function: fn };
  return entry;
}

/**
 * `{ type: "custom", custom: { name, description, format? } }` for a free-form tool: its input is raw text, held to
 * its pattern as a `regex` grammar where it has one. Throws ToolExportError when the tool takes no one string or its
 * pattern cannot be a grammar.
 */
export function toOpenAICustomTool(tool: ToolFormatSource): OpenAICustomTool {
  const { grammar } = customToolFormat(tool, "openai");
  const custom: OpenAICustomTool["custom"] = { name: tool.name };
  const description = describeWithExamples(tool);
  if (description !== "") custom.description = description;
  if (grammar !== undefined) custom.format = { type: "grammar", grammar: { syntax: "regex", definition: grammar } };
  return { type: "custom", custom };
}

/**
 * The `tools` of an OpenAI Chat Completions request, free-form tools as custom tools. `{ strict: true }` rewrites
 * every function tool (that does not set its own `strict` option) into OpenAI's strict subset; OpenAI's limits are
 * checked. Throws ToolExportError.
 */
export function toOpenAITools(
  tools: Iterable<ToolFormatSource>,
  options: OpenAIToolsOptions & { customTools: true },
): OpenAITool[];
/**
 * The `tools` of an OpenAI Chat Completions request. `{ strict: true }` rewrites every tool (that does not set its
 * own `strict` option) into OpenAI's strict subset; OpenAI's limits are checked. Throws ToolExportError.
 */
export function toOpenAITools(
  tools: Iterable<ToolFormatSource>,
  options?: OpenAIToolsOptions & { customTools?: false },
): OpenAIFunctionTool[];
/** The `tools` of an OpenAI Chat Completions request, free-form tools as custom tools with `customTools: true`. */
export function toOpenAITools(tools: Iterable<ToolFormatSource>, options?: OpenAIToolsOptions): OpenAITool[];
export function toOpenAITools(tools: Iterable<ToolFormatSource>, options: OpenAIToolsOptions = {}): OpenAITool[] {
  const list = Array.from(tools);
  if (options.checkLimits !== false) checkToolCount(list.length, "openai");
  return list.map((tool) =>
    options.customTools === true && isCustomTool(tool) ? toOpenAICustomTool(tool) : toOpenAITool(tool, options),
  );
}

/** One entry of the legacy `functions` list (the SDK's `ChatCompletionCreateParams.Function`). */
export interface OpenAIFunctionDefinition {
  name: string;
  description?: string;
  parameters?: { [key: string]: unknown };
}

/** The `functions` of a legacy Chat Completions request (`{ name, description, parameters }`; no strict mode in that API). */
export function toOpenAIFunctions(tools: Iterable<ToolFormatSource>): OpenAIFunctionDefinition[] {
  const list = Array.from(tools);
  checkToolCount(list.length, "openai-functions");
  return list.map((tool) => {
    const fn: ChatCompletionCreateParams.Function = { name: tool.name };
    const description = describeWithExamples(tool);
    if (description !== "") fn.description = description;
    fn.parameters = tool.parameters;
    return fn;
  });
}

/** OpenAI's `response_format` for a structured answer: the schema rewritten into the strict subset when `strict`. */
export function toResponseFormat(output: OutputFormatSource): JsonSchemaResponseFormat {
  const schema = output.strict ? strictOutputSchema(output) : output.schema;
  const json_schema: JsonSchemaResponseFormat["json_schema"] = { name: output.name, schema, strict: output.strict };
  if (output.description) json_schema.description = output.description;
  return { type: "json_schema", json_schema };
}
