/**
 * Run under Node 22 by ai-sdk-client.integration.test.ts (`@ai-sdk/mcp` asks for Node 22 or later).
 *
 * The AI SDK's MCP client (`@ai-sdk/mcp`'s `createMCPClient`, its own HTTP transport) against the Node handler: it
 * connects, turns the served tools into AI SDK tools and runs them; an invalid call comes back as the tool's error
 * result. It speaks the 2026-07-28 revision, as the requests the server received say.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import { mcpHttpHandler } from "tooltype/mcp";
import { listenOnLoopback } from "../support/listen";
import { createMcpRegistry } from "./tools";

test("the AI SDK's MCP client lists the tools and runs them through the server", async () => {
  const handler = mcpHttpHandler(createMcpRegistry());
  const versions = new Set<string>();
  const server = http.createServer((req, res) => {
    const version = req.headers["mcp-protocol-version"];
    if (typeof version === "string") versions.add(version);
    void handler(req, res);
  });
  const port = await listenOnLoopback(server);
  // An ES module only package: imported, not required.
  const { createMCPClient } = await import("@ai-sdk/mcp");
  const client = await createMCPClient({ transport: { type: "http", url: `http://127.0.0.1:${port}/mcp` } });
  try {
    const tools = await client.tools();
    assert.equal(Object.keys(tools), [
      "add",
      "remove_file",
      "count",
      "wait",
      "whoami",
      "leak",
      "leak_object",
      "refuse",
      "bad_sum",
    ]);
    const options = { toolCallId: "call-1", messages: [], context: {} };
    const sum = (await tools.add!.execute!({ values: [1, 2, 3.5] }, options)) as {
      structuredContent?: unknown;
      isError?: boolean;
    };
    assert.equal(sum.structuredContent, { total: 6.5, count: 3 });
    const invalid = (await tools.add!.execute!({ values: ["x"] }, options)) as {
      isError?: boolean;
      content: { text: string }[];
    };
    assert.is(invalid.isError, true);
    assert.match(invalid.content[0]!.text, /^Error: invalid arguments for add:/);
    // It speaks the current revision to a server that offers it.
    assert.equal([...versions], ["2026-07-28"]);
  } finally {
    await client.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
});

test.run();
