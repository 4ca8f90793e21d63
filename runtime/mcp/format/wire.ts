/**
 * MCP (Model Context Protocol) tool descriptors and `tools/call` results as plain data: tooltype's own copies of the
 * `@modelcontextprotocol/sdk` types. MCP is a tool format, not a model API (an MCP client reads no assistant
 * message: it sends one call at a time), so its folder has no provider object; the server itself (transports, the
 * SDK) is behind the `tooltype/mcp` entry. The checks at the bottom keep the types assignable to the SDK's.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolAnnotations, ToolIcon } from "../../tool/meta";

/** An object schema as MCP wants it for `inputSchema` / `outputSchema`. */
export interface MCPObjectSchema {
  type: "object";
  properties?: { [key: string]: object };
  required?: string[];
  [key: string]: unknown;
}

/** One entry of a `tools/list` result (the SDK's `Tool`, without `_meta`). */
export interface MCPTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: MCPObjectSchema;
  outputSchema?: MCPObjectSchema;
  annotations?: MCPToolAnnotations;
  icons?: ToolIcon[];
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

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<MCPTool, Tool> = true;
const fitsResult: [MCPCallToolResult] extends [CallToolResult] ? true : false = true;
void [sameTool, fitsResult];
