/**
 * Responses API tools: flat function tools (`{ type: "function", name, description, parameters, strict }`), and,
 * with `toolSearch`, the hosted `tool_search`.
 *
 * Strict by default: the Responses API treats a function tool as strict unless it says `strict: false`, so
 * `toResponsesTools()` writes the strict form (the strict rewrite) and `strict: true` for every tool that does not
 * opt out (`@tool({ strict: false })`, or `toResponsesTools({ strict: false })` for the whole export). It always
 * writes `strict` explicitly, so what the model is held to is visible in the request.
 *
 * With `toolSearch: true`, deferred tools (docs/large-toolsets.md) carry `defer_loading: true`: the model sees
 * their names and descriptions, and loads a definition through the tool search, which the API runs itself.
 * Without it they are written whole: a request without `tool_search` may not defer tools.
 */
import type { FunctionTool } from "openai/resources/responses/responses";
import { toStrictSchema } from "#lazy/strict";
import { checkToolCount } from "../openai-limits";
import { type ToolFormatSource, isDeferred } from "../provider";
import type { ResponsesFunctionTool, ResponsesTool, ResponsesToolsOptions } from "./wire";

/** One function tool (deferred with `toolSearch: true`, when the tool is). */
export function toResponsesTool(tool: ToolFormatSource, options: ResponsesToolsOptions = {}): ResponsesFunctionTool {
  const strict = tool.options.strict ?? options.strict ?? true;
  const entry: FunctionTool = {
    type: "function",
    name: tool.name,
    parameters: strict ? toStrictSchema(tool.parameters, tool.name) : tool.parameters,
    strict,
  };
  if (tool.description !== "") entry.description = tool.description;
  if (options.toolSearch === true && isDeferred(tool)) entry.defer_loading = true;
  return entry;
}

/**
 * The tools of a request: one function tool each, then, with `toolSearch: true` and a deferred tool, `tool_search`.
 * OpenAI's limits are checked, on the tools loaded up front, unless `checkLimits: false`.
 */
export function toResponsesTools(tools: Iterable<ToolFormatSource>, options: ResponsesToolsOptions & { toolSearch: true }): ResponsesTool[];
/** The function tools of a request, each whole. */
export function toResponsesTools(tools: Iterable<ToolFormatSource>, options?: ResponsesToolsOptions & { toolSearch?: false }): ResponsesFunctionTool[];
/** The tools of a request (with `tool_search` when `toolSearch` is true and a tool is deferred). */
export function toResponsesTools(tools: Iterable<ToolFormatSource>, options?: ResponsesToolsOptions): ResponsesTool[];
export function toResponsesTools(tools: Iterable<ToolFormatSource>, options: ResponsesToolsOptions = {}): ResponsesTool[] {
  const list = Array.from(tools);
  const written: ResponsesTool[] = list.map((tool) => toResponsesTool(tool, options));
  const deferred = written.filter((tool) => tool.type === "function" && tool.defer_loading === true).length;
  if (options.checkLimits !== false) checkToolCount(list.length - deferred, "responses");
  if (deferred > 0) written.push({ type: "tool_search" });
  return written;
}
