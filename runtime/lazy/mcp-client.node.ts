/**
 * `#lazy/mcp-client` under Node: the MCP SDK v2 client (`@modelcontextprotocol/client`, an optional peer), required
 * the first time `fromMCP` makes a client of its own, so that `tooltype/mcp` loads without it for an app that only
 * serves tools or brings its own client.
 */
import type { MCPClientSDK } from "../mcp/client-sdk";

/**
 * Named apart from the `require` so that a bundler reading this CommonJS build (as a Worker's bundle of
 * `tooltype/mcp` does) leaves the client out instead of adding about 370 KB to every endpoint that only serves
 * tools; under Node the `require` finds it all the same.
 */
const SDK_CLIENT = "@modelcontextprotocol/client";

export async function loadMCPClientSDK(): Promise<MCPClientSDK> {
  try {
    return require(SDK_CLIENT) as MCPClientSDK;
  } catch (error) {
    throw new Error(
      "fromMCP: connecting on a transport needs the MCP SDK v2 client: npm install @modelcontextprotocol/client (or connect a client of either SDK yourself and pass it instead of the transport, as a bundle must).",
      { cause: error },
    );
  }
}
