/**
 * `tooltype/mcp`: a registry's tools served over MCP with the official SDK (`@modelcontextprotocol/sdk`, an optional
 * peer dependency needed only by this entry; the main `tooltype` entry never loads it).
 *
 * - `createMCPServer`: an SDK `Server` whose `tools/list` is `registry.toMCPTools()` and whose `tools/call` runs
 *   through the registry's dispatch pipeline (validation, timeouts, error handlers). Invalid arguments and failing
 *   tools are `isError: true` results the model can read; an unknown tool is a JSON-RPC error -32602, as the
 *   protocol asks; with an output schema the result carries `structuredContent`; artifacts never leave the process.
 * - `serveMCP`: the same server connected to a transport (stdio, Streamable HTTP, in-memory, …).
 * - `mcpHttpHandler`: a Node `(req, res)` handler for Streamable HTTP in stateless mode: a fresh server and
 *   transport per request (the SDK's stateless pattern), so any number of clients can call the tools.
 * - `fromMCP` (client.ts): the other way round, any MCP server's tools imported as run-time schema tools.
 *
 * @module tooltype/mcp
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  type ListToolsResult,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpOutputSchema, toMCPResult } from "../providers/mcp";
import type { ToolRegistry } from "../registry/registry";

/** How the server introduces itself to clients. */
export interface MCPServerOptions {
  /** Server name in the `initialize` result (default `"tooltype"`). */
  name?: string;
  /** Server version in the `initialize` result (default `"0.0.0"`). */
  version?: string;
  /** Instructions for the client's model, sent in the `initialize` result. */
  instructions?: string;
  /** Values for every call's `ToolContext.metadata` (laid over each tool's own `metadata`). */
  metadata?: Record<string, unknown>;
}

/** `mcpHttpHandler` options. */
export interface MCPHttpOptions extends MCPServerOptions {
  /**
   * Accept only requests whose `Host` header names one of these hosts (e.g. `["127.0.0.1", "localhost"]`), a
   * defence against DNS rebinding for a server on a local port. Default: any host.
   */
  allowedHosts?: string[];
  /** Answer with one JSON body instead of an SSE stream (default `true`: tools answer once). */
  jsonResponse?: boolean;
}

/** An SDK `Server` offering the registry's tools. Connect it with `server.connect(transport)`. */
export function createMCPServer(registry: ToolRegistry, options: MCPServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? "tooltype", version: options.version ?? "0.0.0" },
    { capabilities: { tools: {} }, ...(options.instructions === undefined ? {} : { instructions: options.instructions }) },
  );

  server.setRequestHandler(ListToolsRequestSchema, (): ListToolsResult => ({ tools: registry.toMCPTools() }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const tool = registry.get(name);
    if (!tool) {
      const names = registry.list().map((t) => t.name);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${JSON.stringify(name)}. ${names.length > 0 ? `Valid tools: ${names.join(", ")}.` : "No tools are registered."}`,
      );
    }
    const [message] = await registry.runCalls(
      { tool_calls: [{ id: String(extra.requestId), name, args: args ?? {} }] },
      { signal: extra.signal, ...(options.metadata === undefined ? {} : { metadata: options.metadata }) },
    );
    return toMCPResult(message!, mcpOutputSchema(tool));
  });

  return server;
}

/** Serve the registry's tools on `transport` (e.g. `new StdioServerTransport()`); resolves once connected. */
export async function serveMCP(registry: ToolRegistry, transport: Transport, options: MCPServerOptions = {}): Promise<Server> {
  const server = createMCPServer(registry, options);
  await server.connect(transport);
  return server;
}

/**
 * A Node HTTP handler serving the registry over Streamable HTTP, stateless: each POST gets its own server and
 * transport, closed when the response ends; GET (server-to-client streams) and DELETE (sessions) are answered 405.
 * Mount it at your MCP path: `http.createServer((req, res) => handler(req, res))`, or in Express
 * `app.post("/mcp", (req, res) => handler(req, res, req.body))`.
 */
export function mcpHttpHandler(
  registry: ToolRegistry,
  options: MCPHttpOptions = {},
): (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void> {
  const allowed = options.allowedHosts?.map((host) => host.toLowerCase());
  return async (req, res, parsedBody) => {
    if (allowed && !allowed.includes(hostname(req.headers.host))) {
      jsonRpcError(res, 403, -32000, `Host ${JSON.stringify(req.headers.host ?? "")} is not allowed.`);
      return;
    }
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      jsonRpcError(res, 405, -32000, "Method not allowed: this MCP server is stateless and takes POST requests only.");
      return;
    }
    const server = createMCPServer(registry, options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: options.jsonResponse ?? true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, parsedBody);
    } catch (error) {
      if (!res.headersSent) jsonRpcError(res, 500, ErrorCode.InternalError, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

/** The host name of a Host header, without the port (IPv6 brackets kept off). */
function hostname(header: string | undefined): string {
  if (!header) return "";
  const host = header.toLowerCase();
  if (host.startsWith("[")) return host.slice(1, host.indexOf("]"));
  const colon = host.lastIndexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

export { fromMCP } from "./client";
export type { MCPClient, MCPImport, MCPImportOptions, MCPListedTool } from "./client";
