/**
 * The `tools/call` result of one answered call: the content as one text block; `structuredContent` (the returned
 * object) when there is an output schema, checked against it first (MCP says structured results must conform; the
 * check compiles nothing, so it runs where code generation is forbidden); `isError: true` for validation errors and
 * tool failures alike, so the model reads them and can retry. Artifacts stay on the ToolMessage, in process.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../../validation/json-schema";
import { fitsSchema } from "../../validation/schema-fit";
import type { ToolMessage } from "../../dispatch/messages";
import type { ToolContentPart } from "../../tool/content";
import type { JsonSchema } from "../../tool/meta";
import type { MCPCallToolResult, MCPContent, MCPObjectSchema } from "./wire";

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
      content: text(
        `Error: ${message.name} declares an object result (outputSchema) but returned ${message.content === "" ? "nothing" : "something else"}.`,
      ),
      isError: true,
    };
  }
  if (!fitsSchema(value, outputSchema, outputSchema as JsonSchema)) {
    return {
      content: text(
        `Error: ${message.name} returned an object that does not match its declared result type (outputSchema), so it was not sent. The tool's author must fix its return value.`,
      ),
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
      return {
        type: "resource_link",
        uri: part.url,
        name,
        ...(part.mediaType === undefined ? {} : { mimeType: part.mediaType }),
      };
    }
    if (part.type === "image") return { type: "image", data: part.data, mimeType: part.mediaType };
    if (part.mediaType.startsWith("audio/")) return { type: "audio", data: part.data, mimeType: part.mediaType };
    return {
      type: "resource",
      resource: { uri: `tooltype:${encodeURIComponent(name)}`, mimeType: part.mediaType, blob: part.data },
    };
  });
}
