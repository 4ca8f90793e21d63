/**
 * `#lazy/mcp-client` under Node: the MCP SDK v2 client (`@modelcontextprotocol/client`, an optional peer), required
 * the first time `fromMCP` makes a client of its own, so that `tooltype/mcp` loads without it for an app that only
 * serves tools or brings its own client.
 */
import type { MCPClientSDK } from "../mcp/client-sdk";

export async function loadMCPClientSDK(): Promise<MCPClientSDK> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("@modelcontextprotocol/client") as MCPClientSDK;
}
