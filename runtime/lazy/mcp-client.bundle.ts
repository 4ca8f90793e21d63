/**
 * `#lazy/mcp-client` in a bundle: no MCP SDK client. A bundler cannot tell whether `fromMCP` will be given a
 * transport, so loading the client here would put it (about 370 KB minified) in every bundle of `tooltype/mcp`,
 * a service that only serves tools included; in a bundle the app connects the client it wants and passes it.
 */
import type { MCPClientSDK } from "../mcp/client-sdk";

export async function loadMCPClientSDK(): Promise<MCPClientSDK> {
  throw new Error(
    'fromMCP: in a bundle, tooltype does not load an MCP client of its own: connect one and pass it, e.g. `const client = new Client(info, { versionNegotiation: { mode: "auto" } }); await client.connect(transport); await fromMCP(client)` (Client from @modelcontextprotocol/client).',
  );
}
