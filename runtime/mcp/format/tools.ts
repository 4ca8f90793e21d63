/**
 * MCP tool descriptors for `tools/list`: `{ name, title?, description, inputSchema, outputSchema?, annotations?,
 * icons? }`.
 * `inputSchema` is the parameter schema as is (MCP takes JSON Schema 2020-12); `outputSchema` is the schema of the
 * tool's return type when it is an object (MCP requires `type: "object"` there); for `content_and_artifact` tools,
 * of the content part. `title`, `annotations` and `icons` come from the options, else from JSDoc (`@title`,
 * `@readOnlyHint`, …, `@icon`).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { isRecord, resolveRef } from "../../validation/json-schema";
import type { JsonSchema } from "../../tool/meta";
import type { ToolFormatSource } from "../../providers/provider";
import type { MCPObjectSchema, MCPTool } from "./wire";
import { describeWithExamples } from "../../tool/examples";

export function toMCPTool(tool: ToolFormatSource): MCPTool {
  const entry: Tool = { name: tool.name, inputSchema: { ...tool.parameters, type: "object" } };
  const title = tool.options.title ?? tool.meta?.title;
  if (title !== undefined) entry.title = title;
  const description = describeWithExamples(tool);
  if (description !== "") entry.description = description;
  const output = mcpOutputSchema(tool);
  if (output) entry.outputSchema = output;
  const annotations = { ...tool.meta?.annotations, ...tool.options.annotations };
  if (Object.keys(annotations).length > 0) entry.annotations = annotations;
  const icons = tool.options.icons ?? tool.meta?.icons;
  if (icons !== undefined && icons.length > 0) entry.icons = icons.map((icon) => ({ ...icon }));
  return entry;
}

export function toMCPTools(tools: Iterable<ToolFormatSource>): MCPTool[] {
  return Array.from(tools, toMCPTool);
}

/**
 * The `outputSchema` of a tool: its return type's schema when that is an object (a root `$ref` to an object
 * definition is opened, keeping `$defs` for the references inside), else none.
 */
export function mcpOutputSchema(tool: ToolFormatSource): MCPObjectSchema | undefined {
  let returns = tool.meta?.returns;
  if (!returns) return undefined;
  if (tool.options.responseFormat === "content_and_artifact") {
    // `[content, artifact]`: only the content reaches the client.
    const prefix = returns.prefixItems;
    const content = Array.isArray(prefix) ? prefix[0] : undefined;
    if (!isRecord(content)) return undefined;
    returns = isRecord(returns.$defs) ? { ...content, $defs: returns.$defs } : content;
  }
  return objectSchema(returns);
}

function objectSchema(schema: JsonSchema): MCPObjectSchema | undefined {
  if (typeof schema.$ref === "string") {
    const target = resolveRef(schema, schema.$ref);
    if (!isRecord(target)) return undefined;
    const { $ref: _ref, ...rest } = schema;
    return objectSchema({ ...target, ...rest });
  }
  if (schema.type !== "object") return undefined;
  return { ...schema, type: "object" };
}
