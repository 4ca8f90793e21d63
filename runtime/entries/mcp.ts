/**
 * `tooltype/mcp`: a registry's tools served over MCP (the 2026-07-28 revision, and the older ones for clients that
 * send `initialize`), and any MCP server's tools imported. The server needs no MCP SDK; `fromMCP` uses the official
 * SDK (`@modelcontextprotocol/sdk`, an optional peer dependency; the main `tooltype` entry never loads it).
 *
 * - `createMCPServer` / `serveMCP` (server.ts): the server on any connection with the SDK's `Transport` shape
 *   (stdio, in-memory, …).
 * - `mcpFetchHandler` (fetch.ts): `(Request) => Promise<Response>`, stateless Streamable HTTP for Workers, Deno,
 *   Bun, Hono, Next.js and Node, with the HTTP policy of http-policy.ts (hosts, origins, `authenticate`, limits,
 *   error texts) on by default.
 * - `mcpHttpHandler` (node.ts): the same for Node's `(req, res)`, a bridge over `mcpFetchHandler`.
 * - `bearerToken`, `protectedResourceMetadata` (authorization.ts): MCP authorization for the HTTP handlers
 *   (`authorization` option; tools' `scopes`).
 * - `fromMCP` (client.ts): the other way round, any MCP server's tools imported as run-time schema tools;
 *   `authorizingProvider` (client-authorization.ts) for its `authorization` option on a transport of the app's.
 *
 * @module tooltype/mcp
 */
export { createMCPServer, type MCPServer, type MCPServerOptions, type MCPTransport, serveMCP } from "../mcp/server";
export { MCP_APPROVAL_TTL_MS } from "../mcp/approval";
export { LEGACY_VERSIONS as MCP_LEGACY_VERSIONS, MODERN_VERSION as MCP_PROTOCOL_VERSION } from "../mcp/protocol";
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
export { authorizingProvider, fromMCP } from "../mcp/client";
export type {
  MCPClientAuthorization,
  MCPOAuthClientProvider,
  MCPCallOptions,
  MCPClient,
  MCPImport,
  MCPImportOptions,
  MCPListedTool,
  MCPClientTransport,
  MCPElicitationAnswer,
  MCPElicitationRequest,
  MCPVersionNegotiation,
} from "../mcp/client";
