/**
 * The MCP server the MCP test starts as a child process: the provider test tools served over stdio with
 * `serveMCP`, exactly as a user's `node server.js` would. Nothing else may write to stdout (it carries JSON-RPC).
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serveMCP } from "tooltype/mcp";
import { createProviderRegistry } from "../support/provider-tools";

serveMCP(createProviderRegistry(), new StdioServerTransport(), { name: "tooltype-test", version: "1.0.0" }).catch(
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
