/**
 * Responses API tools: flat function tools (`{ type: "function", name, description, parameters, strict }`).
 *
 * Strict by default: the Responses API treats a function tool as strict unless it says `strict: false`, so
 * `toResponsesTools()` writes the strict form (the strict rewrite) and `strict: true` for every tool that does not
 * opt out (`@tool({ strict: false })`, or `toResponsesTools({ strict: false })` for the whole export). It always
 * writes `strict` explicitly, so what the model is held to is visible in the request.
 */
import type { FunctionTool } from "openai/resources/responses/responses";
import { toStrictSchema } from "#lazy/strict";
import { checkToolCount } from "../openai-limits";
import type { ToolFormatSource } from "../provider";
import type { ResponsesFunctionTool, ResponsesToolsOptions } from "./wire";
import { describeWithExamples } from "../../tool/examples";

/** One function tool. */
export function toResponsesTool(tool: ToolFormatSource, options: ResponsesToolsOptions = {}): ResponsesFunctionTool {
  const strict = tool.options.strict ?? options.strict ?? true;
  const entry: FunctionTool = {
    type: "function",
    name: tool.name,
    parameters: strict ? toStrictSchema(tool.parameters, tool.name) : tool.parameters,
    strict,
  };
  const description = describeWithExamples(tool);
  if (description !== "") entry.description = description;
  return entry;
}

/** The function tools of a request; OpenAI's limits are checked unless `checkLimits: false`. */
export function toResponsesTools(tools: Iterable<ToolFormatSource>, options: ResponsesToolsOptions = {}): ResponsesFunctionTool[] {
  const list = Array.from(tools);
  if (options.checkLimits !== false) checkToolCount(list.length, "responses");
  return list.map((tool) => toResponsesTool(tool, options));
}
