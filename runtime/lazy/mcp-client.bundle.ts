/**
 * `#lazy/mcp-client` in a bundle: the MCP SDK v2 client (`@modelcontextprotocol/client`) in a chunk of its own,
 * loaded the first time `fromMCP` makes a client, so that a service that only serves tools ships none of it.
 */
import type { MCPClientSDK } from "../mcp/client-sdk";

export async function loadMCPClientSDK(): Promise<MCPClientSDK> {
  // Its ES module declarations are not the CommonJS ones the Node side is typed by; the values are the same.
  return (await import("@modelcontextprotocol/client")) as unknown as MCPClientSDK;
}
