/**
 * A JSON-RPC error the MCP server answers a request with. The SDK sends an error's `code` and `message` as they are,
 * and the SDK client puts `MCP error <code>: ` before the message it reads; the SDK's own McpError already starts
 * its message with that, so a client would read it twice (`MCP error -32602: MCP error -32602: Unknown tool`).
 */
export class MCPProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "MCPProtocolError";
  }
}
