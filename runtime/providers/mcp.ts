/**
 * MCP (Model Context Protocol) as plain data: tool descriptors for `tools/list` and the `tools/call` result for one
 * answered call. A tool format, not a model API (an MCP client reads no assistant message: it sends one call at a
 * time), so it is no `ToolProvider`; the server itself (transports, the SDK) lives in runtime/mcp/, behind the
 * `tooltype/mcp` entry.
 *
 * - Descriptor: `{ name, title?, description, inputSchema, outputSchema?, annotations? }`. `inputSchema` is the
 *   parameter schema as is (MCP takes JSON Schema 2020-12); `outputSchema` is the schema of the tool's return type
 *   when it is an object (MCP requires `type: "object"` there); for `content_and_artifact` tools, of the content
 *   part. `title` and `annotations` come from the options, else from JSDoc (`@title`, `@readOnlyHint`, …).
 * - Result: the content as one text block; `structuredContent` (the returned object) when there is an output
 *   schema, checked against it first (MCP says structured results must conform; the check compiles nothing, so it
 *   runs where code generation is forbidden); `isError: true` for validation errors and tool failures alike, so
 *   the model reads them and can retry. Artifacts stay on the ToolMessage, in process.
 *
 * Types are tooltype's own; the checks at the bottom keep them assignable to the `@modelcontextprotocol/sdk` types.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { isRecord, resolveRef } from "../arguments/json-schema";
import { fitsSchema } from "../arguments/schema-fit";
import type { ToolMessage } from "../dispatch/messages";
import type { ToolContentPart } from "../tool/content";
import type { JsonSchema, ToolAnnotations } from "../tool/meta";
import type { ToolFormatSource } from "./provider";

/** An object schema as MCP wants it for `inputSchema` / `outputSchema`. */
export interface MCPObjectSchema {
  type: "object";
  properties?: { [key: string]: object };
  required?: string[];
  [key: string]: unknown;
}

/** One entry of a `tools/list` result (the SDK's `Tool`, without icons and `_meta`). */
export interface MCPTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: MCPObjectSchema;
  outputSchema?: MCPObjectSchema;
  annotations?: MCPToolAnnotations;
}

/** MCP's `ToolAnnotations`: the behaviour hints, and the display title MCP also allows there. */
export interface MCPToolAnnotations extends ToolAnnotations {
  title?: string;
}

/** One block of a `tools/call` result: text, an image, or a file (inline as an embedded resource, else a link). */
export type MCPContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string };

/** A `tools/call` result (a type alias, not an interface, so that it fits the SDK's index-signature type). */
export type MCPCallToolResult = {
  content: MCPContent[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
};

export function toMCPTool(tool: ToolFormatSource): MCPTool {
  const entry: Tool = { name: tool.name, inputSchema: { ...tool.parameters, type: "object" } };
  const title = tool.options.title ?? tool.meta?.title;
  if (title !== undefined) entry.title = title;
  if (tool.description !== "") entry.description = tool.description;
  const output = mcpOutputSchema(tool);
  if (output) entry.outputSchema = output;
  const annotations = { ...tool.meta?.annotations, ...tool.options.annotations };
  if (Object.keys(annotations).length > 0) entry.annotations = annotations;
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

/**
 * The `tools/call` result for one answered call. `outputSchema` is the tool's (see `mcpOutputSchema`): with one, a
 * successful result also carries the returned object as `structuredContent`; a result that is not an object then is
 * reported as an error rather than sent against the declared schema.
 */
export function toMCPResult(message: ToolMessage, outputSchema: MCPObjectSchema | undefined): MCPCallToolResult {
  const text = (value: string): MCPCallToolResult["content"] => [{ type: "text", text: value }];
  if (message.status === "error") return { content: text(message.content), isError: true };
  if (message.parts) return { content: mcpContent(message.parts) };
  if (!outputSchema) return { content: text(message.content) };
  let value: unknown;
  try {
    value = JSON.parse(message.content) as unknown;
  } catch {
    value = undefined;
  }
  if (!isRecord(value)) {
    return {
      content: text(`Error: ${message.name} declares an object result (outputSchema) but returned ${message.content === "" ? "nothing" : "something else"}.`),
      isError: true,
    };
  }
  if (!fitsSchema(value, outputSchema, outputSchema as JsonSchema)) {
    return {
      content: text(`Error: ${message.name} returned an object that does not match its declared result type (outputSchema), so it was not sent. The tool's author must fix its return value.`),
      isError: true,
    };
  }
  const result: CallToolResult & MCPCallToolResult = { content: text(message.content), structuredContent: value };
  return result;
}

/**
 * Content parts as MCP blocks: text; an inline image as `image` (an inline `audio/*` file as `audio`); another
 * inline file as an embedded `resource` (its blob, under a `tooltype:` URI named after the file); anything by URL
 * as a `resource_link`.
 */
export function mcpContent(parts: readonly ToolContentPart[]): MCPContent[] {
  let media = 0;
  return parts.map((part): MCPContent => {
    if (part.type === "text") return { type: "text", text: part.text };
    media++;
    const name = part.type === "file" && part.filename !== undefined ? part.filename : `${part.type}-${media}`;
    if (part.url !== undefined) {
      return { type: "resource_link", uri: part.url, name, ...(part.mediaType === undefined ? {} : { mimeType: part.mediaType }) };
    }
    if (part.type === "image") return { type: "image", data: part.data, mimeType: part.mediaType };
    if (part.mediaType.startsWith("audio/")) return { type: "audio", data: part.data, mimeType: part.mediaType };
    return { type: "resource", resource: { uri: `tooltype:${encodeURIComponent(name)}`, mimeType: part.mediaType, blob: part.data } };
  });
}

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<MCPTool, Tool> = true;
const fitsResult: [MCPCallToolResult] extends [CallToolResult] ? true : false = true;
void [sameTool, fitsResult];
