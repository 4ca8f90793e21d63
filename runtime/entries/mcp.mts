/**
 * The ES module face of `tooltype/mcp`: the exports of mcp.ts (loaded as CommonJS), typed against the MCP SDK's ES
 * module declarations. The SDK resolves its declarations by the importer's module kind, `import` to dist/esm and
 * `require` to dist/cjs, and its `Server` class has private members, so the two `Server`s do not mix in types: an
 * ES module project's `const server: Server = createMCPServer(registry)` would fail against the CommonJS set
 * (TS2322). At run time there is one build, the CommonJS one, whichever way the entry is loaded.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { BaseToolRegistry as ToolRegistry } from "../registry/core.js";
import type { MCPClient, MCPImport, MCPImportOptions, MCPRequestScope, MCPServerOptions, MCPTransport } from "./mcp.js";
import implementation from "./mcp.js";

export type {
  MCPAuthorization,
  MCPCallOptions,
  MCPClient,
  MCPHttpOptions,
  MCPImport,
  MCPImportOptions,
  MCPListedTool,
  MCPRequestScope,
  MCPServerOptions,
  NodeHttpRequest,
  MCPTransport,
  MCPVersionNegotiation,
  NodeHttpResponse,
} from "./mcp.js";

/** An SDK `Server` offering the registry's tools. Connect it with `server.connect(transport)`. */
export const createMCPServer = implementation.createMCPServer as unknown as (
  registry: ToolRegistry,
  options?: MCPServerOptions,
  scope?: MCPRequestScope,
) => Server;

/** Serve the registry's tools on `transport` (e.g. `new StdioServerTransport()`); resolves once connected. */
export const serveMCP = implementation.serveMCP as unknown as (
  registry: ToolRegistry,
  transport: Transport,
  options?: MCPServerOptions,
) => Promise<Server>;

/**
 * Connect to an MCP server (given an SDK `Client`, connected or not, or a `Transport` to connect one on) and import
 * its tools.
 */
export const fromMCP = implementation.fromMCP as unknown as (source: MCPClient | MCPTransport, options?: MCPImportOptions) => Promise<MCPImport>;

export const mcpFetchHandler = implementation.mcpFetchHandler;
export const mcpHttpHandler = implementation.mcpHttpHandler;
export const LOOPBACK_HOSTS = implementation.LOOPBACK_HOSTS;
export const MCP_HTTP_TIMEOUT_MS = implementation.MCP_HTTP_TIMEOUT_MS;
export const MCP_MAX_BATCH_SIZE = implementation.MCP_MAX_BATCH_SIZE;
export const MCP_MAX_BODY_BYTES = implementation.MCP_MAX_BODY_BYTES;
export const MCPAuthError = implementation.MCPAuthError;
export const bearerToken = implementation.bearerToken;
export const protectedResourceMetadata = implementation.protectedResourceMetadata;
export type MCPAuthError = InstanceType<typeof implementation.MCPAuthError>;
