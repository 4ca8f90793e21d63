/**
 * A JSON-RPC error the MCP server answers a request with: its `code`, `message` and, for the errors the revision
 * defines with data (`UnsupportedProtocolVersion`), its `data`. Clients put `MCP error <code>: ` before the message
 * they read, so the message does not start with it.
 */
export class MCPProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "MCPProtocolError";
  }
}
