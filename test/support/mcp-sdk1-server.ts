/**
 * An MCP server written with the official SDK 1.x alone (no tooltype), run as a child process by the MCP client
 * tests (mcp-server-process.ts: stdio, or Streamable HTTP, stateless: a fresh server and transport per request).
 *
 * Its schemas are written by hand, with the draft-07 `$schema` marker many SDK servers send. Tools:
 * `get_forecast` (text + structuredContent), `render_chart` (text + an image block), `always_fails` (`isError`).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  type CallToolResult,
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

import { runServerProcess, serverName } from "./mcp-server-process";

const name = serverName("weather-station");

export const SDK_SERVER_TOOLS: Tool[] = [
  {
    name: "get_forecast",
    description: "Forecast for a city.",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        city: { type: "string", minLength: 1, description: "City name" },
        days: { type: "integer", minimum: 1, maximum: 7 },
      },
      required: ["city", "days"],
      additionalProperties: false,
    },
  },
  {
    name: "render_chart",
    description: "Draw a chart of numbers.",
    inputSchema: {
      type: "object",
      properties: { series: { type: "array", items: { type: "number" } } },
      required: ["series"],
    },
  },
  { name: "always_fails", description: "Fails every time.", inputSchema: { type: "object", properties: {} } },
];

function createServer(): Server {
  const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: SDK_SERVER_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    switch (request.params.name) {
      case "get_forecast":
        if (typeof args.days !== "number")
          return { content: [{ type: "text", text: `server got days=${JSON.stringify(args.days)}` }], isError: true };
        return {
          content: [{ type: "text", text: `${String(args.city)}: sunny for ${args.days} days` }],
          structuredContent: { city: args.city, days: args.days, sky: "sunny" },
        };
      case "render_chart": {
        const series = args.series as number[];
        return {
          content: [
            { type: "text", text: `Chart of ${series.length} points` },
            {
              type: "image",
              mimeType: "image/png",
              data: Buffer.from(`PNG:${series.join(",")}:PIXELS-NEVER-SENT`).toString("base64"),
            },
          ],
        };
      }
      case "always_fails":
        return { content: [{ type: "text", text: "The upstream service is down." }], isError: true };
      default:
        return { content: [{ type: "text", text: `no tool ${request.params.name}` }], isError: true };
    }
  });
  return server;
}

if (require.main === module) {
  runServerProcess({
    stdio: () => createServer().connect(new StdioServerTransport()),
    http(req, res) {
      const server = createServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    },
  });
}
