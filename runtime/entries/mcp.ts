/**
 * `tooltype/mcp`: a registry's tools served over MCP with the official SDK (`@modelcontextprotocol/sdk`, an optional
 * peer dependency needed only by this entry; the main `tooltype` entry never loads it), and any MCP server's tools
 * imported.
 *
 * - `createMCPServer` / `serveMCP` (server.ts): an SDK `Server` for any transport (stdio, in-memory, …).
 * - `mcpFetchHandler` (fetch.ts): `(Request) => Promise<Response>`, stateless Streamable HTTP for Workers, Deno,
 *   Bun, Hono, Next.js and Node, with the HTTP policy of http-policy.ts (hosts, origins, `authenticate`, limits,
 *   error texts) on by default.
 * - `mcpHttpHandler` (node.ts): the same for Node's `(req, res)`, a bridge over `mcpFetchHandler`.
 * - `bearerToken`, `protectedResourceMetadata` (authorization.ts): MCP authorization for the HTTP handlers
 *   (`authorization` option; tools' `scopes`).
 * - `fromMCP` (client.ts): the other way round, any MCP server's tools imported as run-time schema tools.
 *
 * @module tooltype/mcp
 */
export { createMCPServer, type MCPRequestScope, type MCPServerOptions, serveMCP } from "../mcp/server";
export { mcpFetchHandler } from "../mcp/fetch";
export { mcpHttpHandler, type NodeHttpRequest, type NodeHttpResponse } from "../mcp/node";
export {
  LOOPBACK_HOSTS,
  MCP_HTTP_TIMEOUT_MS,
  MCP_MAX_BATCH_SIZE,
  MCP_MAX_BODY_BYTES,
  MCPAuthError,
  type MCPHttpOptions,
} from "../mcp/http-policy";
export { bearerToken, type MCPAuthorization, protectedResourceMetadata } from "../mcp/authorization";
export { fromMCP } from "../mcp/client";
export type { MCPCallOptions, MCPClient, MCPImport, MCPImportOptions, MCPListedTool, MCPTransport, MCPVersionNegotiation } from "../mcp/client";
