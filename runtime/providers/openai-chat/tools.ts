/**
 * The `tools` of a Chat Completions request: each registered tool as `{ type: "function", function }`, its schema
 * rewritten into OpenAI's strict subset where strict mode is asked for (strict.ts), and the request's limits
 * checked; and a structured answer's `response_format`. Apart from openai-chat.ts so that `tooltype/openai`'s registry exports tools without loading the chat
 * provider's loop and stream accumulator (a bundler would leave those out anyway; Node's `require` would not).
 */
import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { OutputFormatSource, ToolFormatSource } from "../provider";
import { checkToolCount, toStrictSchema } from "../strict";
import type { JsonSchemaResponseFormat, OpenAIFunctionTool } from "./client";

/** `toOpenAITools` options. */
export interface OpenAIToolsOptions {
  /**
   * Strict mode (Structured Outputs) for every tool that does not set its own `strict` option: the schema is rewritten
   * into OpenAI's strict subset (see the README) and `strict: true` is sent. A tool's own option wins.
   */
  strict?: boolean;
  /**
   * Check the limits of one request, such as OpenAI's 128 tools (default `true`). Turn it off to export a large
   * registry once and send a subset per request; each tool's own schema is checked either way.
   */
  checkLimits?: boolean;
}

/** `{ type: "function", function: { name, description, parameters } }`, plus `strict` when the tool or the export sets it. */
export function toOpenAITool(tool: ToolFormatSource, options: OpenAIToolsOptions = {}): OpenAIFunctionTool {
  const strict = tool.options.strict ?? options.strict;
  const fn: ChatCompletionFunctionTool["function"] = { name: tool.name };
  // An empty description is left out rather than sent as "" (the model reads nothing either way).
  if (tool.description !== "") fn.description = tool.description;
  fn.parameters = strict === true ? toStrictSchema(tool.parameters, tool.name) : tool.parameters;
  if (typeof strict === "boolean") fn.strict = strict;
  const entry: ChatCompletionFunctionTool = { type: "function", function: fn };
  return entry;
}

export function toOpenAITools(tools: Iterable<ToolFormatSource>, options: OpenAIToolsOptions = {}): OpenAIFunctionTool[] {
  const list = Array.from(tools);
  if (options.checkLimits !== false) checkToolCount(list.length, "openai");
  return list.map((tool) => toOpenAITool(tool, options));
}

/** OpenAI's `response_format` for a structured answer: the schema rewritten into the strict subset when `strict`. */
export function toResponseFormat(output: OutputFormatSource): JsonSchemaResponseFormat {
  const schema = output.strict ? toStrictSchema(output.schema, output.name) : output.schema;
  const json_schema: JsonSchemaResponseFormat["json_schema"] = { name: output.name, schema, strict: output.strict };
  if (output.description) json_schema.description = output.description;
  return { type: "json_schema", json_schema };
}
