/** Anthropic tools: `{ name, description, input_schema }`. */
import type { Tool } from "@anthropic-ai/sdk/resources/messages";
import type { ToolFormatSource } from "../provider";
import type { AnthropicTool } from "./wire";

/** One tool of a Messages request. */
export function toAnthropicTool(tool: ToolFormatSource): AnthropicTool {
  const entry: Tool = { name: tool.name, input_schema: { ...tool.parameters, type: "object" } };
  if (tool.description !== "") entry.description = tool.description;
  return entry;
}

/** The `tools` of an Anthropic Messages request (`{ name, description, input_schema }`). */
export function toAnthropicTools(tools: Iterable<ToolFormatSource>): AnthropicTool[] {
  return Array.from(tools, toAnthropicTool);
}
