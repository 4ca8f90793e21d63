/**
 * An MCP server written with the official SDK v2 alone (`@modelcontextprotocol/server`, no tooltype) that speaks the
 * current revision (2026-07-28) only: it refuses the `initialize` handshake of the older ones, so a client that
 * connects speaks the new revision or nothing. Run as a child process by the MCP client tests (mcp-server-process.ts:
 * stdio, or Streamable HTTP).
 *
 * Its tool's input schema is JSON Schema 2020-12 with keywords older drafts lack (`prefixItems`,
 * `dependentRequired`, `unevaluatedProperties`, `$defs`), as the revision allows.
 */
import { type CallToolResult, createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

import { runServerProcess, serverName } from "./mcp-server-process";

const name = serverName("modern-station");

/** `route`: a start and an end stop, each a `[city, hour]` pair; a `via` stop needs a `note`. */
export const ROUTE_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    stop: {
      type: "array",
      prefixItems: [
        { type: "string", minLength: 1 },
        { type: "integer", minimum: 0, maximum: 23 },
      ],
      items: false,
      minItems: 2,
    },
  },
  properties: {
    from: { $ref: "#/$defs/stop" },
    to: { $ref: "#/$defs/stop" },
    via: { type: "string" },
    note: { type: "string" },
  },
  required: ["from", "to"],
  dependentRequired: { via: ["note"] },
  unevaluatedProperties: false,
} as const;

function createServer(): McpServer {
  const server = new McpServer({ name, version: "2.0.0" });
  server.registerTool(
    "plan_route",
    { description: "Plan a route between two stops.", inputSchema: fromJsonSchema(ROUTE_SCHEMA) },
    (args): CallToolResult => {
      const { from, to, via } = args as { from: [string, number]; to: [string, number]; via?: string };
      return {
        content: [
          { type: "text", text: `${from[0]} ${from[1]}h → ${via === undefined ? "" : `${via} → `}${to[0]} ${to[1]}h` },
        ],
      };
    },
  );
  return server;
}

if (require.main === module) {
  let handler: ReturnType<typeof createMcpHandler> | undefined;
  runServerProcess({
    stdio() {
      serveStdio(createServer, { legacy: "reject" });
    },
    http(req, res) {
      handler ??= createMcpHandler(createServer, { legacy: "reject" });
      const fetchHandler = handler;
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const headers = new Headers();
        for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
        const request = new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method,
          headers,
          ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
        });
        void fetchHandler.fetch(request).then(async (response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(Buffer.from(await response.arrayBuffer()));
        });
      });
    },
  });
}
