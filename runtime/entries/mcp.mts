/**
 * The ES module face of `tooltype/mcp`: the exports of mcp.ts (loaded as CommonJS) for ES module projects. Its
 * declarations name no MCP SDK type (either SDK's clients and transports fit tooltype's own shapes), since the SDK
 * resolves its declarations by the importer's module kind and its classes' private members keep the two sets from
 * mixing. At run time there is one build, the CommonJS one, whichever way the entry is loaded.
 */
import type {
  MCPClient,
  MCPClientAuthorization,
  MCPClientTransport,
  MCPImport,
  MCPImportOptions,
  MCPOAuthClientProvider,
} from "./mcp.js";
import implementation from "./mcp.js";

export type {
  MCPAuthorization,
  MCPCallOptions,
  MCPClient,
  MCPClientAuthorization,
  MCPHttpOptions,
  MCPImport,
  MCPImportOptions,
  MCPListedTool,
  MCPOAuthClientProvider,
  MCPServer,
  MCPServerOptions,
  MCPTransport,
  NodeHttpRequest,
  MCPClientTransport,
  MCPVersionNegotiation,
  NodeHttpResponse,
} from "./mcp.js";

export const createMCPServer = implementation.createMCPServer;
export const serveMCP = implementation.serveMCP;

/**
 * Connect to an MCP server (given an SDK `Client`, connected or not, a `Transport` to connect one on, or the server's
 * Streamable HTTP URL) and import its tools.
 */
export const fromMCP = implementation.fromMCP as unknown as (
  source: MCPClient | MCPClientTransport | URL | string,
  options?: MCPImportOptions,
) => Promise<MCPImport>;

/** The OAuth provider to make your own SDK transport with when you pass `fromMCP` an `authorization`. */
export const authorizingProvider = implementation.authorizingProvider as unknown as <P extends MCPOAuthClientProvider>(
  authorization: MCPClientAuthorization<P>,
) => P;

export const mcpFetchHandler = implementation.mcpFetchHandler;
export const mcpHttpHandler = implementation.mcpHttpHandler;
export const LOOPBACK_HOSTS = implementation.LOOPBACK_HOSTS;
export const MCP_APPROVAL_TTL_MS = implementation.MCP_APPROVAL_TTL_MS;
export const MCP_HTTP_TIMEOUT_MS = implementation.MCP_HTTP_TIMEOUT_MS;
export const MCP_LEGACY_VERSIONS = implementation.MCP_LEGACY_VERSIONS;
export const MCP_MAX_BATCH_SIZE = implementation.MCP_MAX_BATCH_SIZE;
export const MCP_MAX_BODY_BYTES = implementation.MCP_MAX_BODY_BYTES;
export const MCP_PROTOCOL_VERSION = implementation.MCP_PROTOCOL_VERSION;
export const MCPAuthError = implementation.MCPAuthError;
export const bearerToken = implementation.bearerToken;
export const protectedResourceMetadata = implementation.protectedResourceMetadata;
export type MCPAuthError = InstanceType<typeof implementation.MCPAuthError>;
