/** Anthropic tools: `{ name, description, input_schema }`, and `input_examples` for a tool with example arguments. */
import type { Tool } from "@anthropic-ai/sdk/resources/messages";
import { examplesOf } from "../../tool/examples";
import type { ToolFormatSource } from "../provider";
import type { AnthropicTool } from "./wire";

/** One tool of a Messages request. */
export function toAnthropicTool(tool: ToolFormatSource): AnthropicTool {
  const entry: Tool = { name: tool.name, input_schema: { ...tool.parameters, type: "object" } };
  if (tool.description !== "") entry.description = tool.description;
  const examples = examplesOf(tool);
  if (examples.length > 0) entry.input_examples = examples.map((example) => ({ ...example }));
  return entry;
}

/** The `tools` of a Messages request. */
export function toAnthropicTools(tools: Iterable<ToolFormatSource>): AnthropicTool[] {
  return Array.from(tools, toAnthropicTool);
}
