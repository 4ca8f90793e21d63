/**
 * MCP end to end with the official client: a stdio server started by the test as a child process (node on the
 * compiled test/e2e/mcp-stdio-server.js), and a Streamable HTTP server on 127.0.0.1 with a random port
 * (mcpHttpHandler). Over both: tools/list from the registry (inputSchema, outputSchema), tools/call through
 * dispatch (structuredContent with an output schema, isError for invalid arguments and tool errors, artifacts kept
 * out), and an unknown tool as JSON-RPC error -32602. Every request has a timeout; everything is closed at the end.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { mcpHttpHandler } from "tooltype/mcp";
import { HANG_MS } from "../support/hang";
import { createProviderRegistry } from "../support/provider-tools";

/** The MCP client's request limit; a server process answers slowly on a loaded machine, so it only catches a hang. */
const TIMEOUT = { timeout: HANG_MS };

/** The checks both transports must pass. */
async function exercise(client: Client): Promise<void> {
  const registry = createProviderRegistry();
  const { tools } = await client.listTools(undefined, TIMEOUT);
  assert.equal(tools, registry.toMCPTools());
  assert.equal(
    tools.map((t) => t.name),
    ["get_weather", "search_products", "explode", "lookup"],
  );

  const weather = (await client.callTool(
    { name: "get_weather", arguments: { city: "Paris" } },
    undefined,
    TIMEOUT,
  )) as CallToolResult;
  assert.equal(weather, {
    content: [{ type: "text", text: '{"city":"Paris","temperature":21,"unit":"celsius"}' }],
    structuredContent: { city: "Paris", temperature: 21, unit: "celsius" },
  });

  const invalid = (await client.callTool(
    { name: "get_weather", arguments: { city: "Paris", unit: "kelvin" } },
    undefined,
    TIMEOUT,
  )) as CallToolResult;
  assert.is(invalid.isError, true);
  assert.match(
    String((invalid.content[0] as { text: string }).text),
    /^Error: invalid arguments for get_weather:\n- \/unit: must be one of "celsius", "fahrenheit"; got "kelvin"/,
  );

  const failed = (await client.callTool(
    { name: "explode", arguments: { reason: "mcp" } },
    undefined,
    TIMEOUT,
  )) as CallToolResult;
  assert.equal(failed, { content: [{ type: "text", text: "Cannot do that: mcp" }], isError: true });

  const artifact = (await client.callTool(
    { name: "lookup", arguments: { id: "r7" } },
    undefined,
    TIMEOUT,
  )) as CallToolResult;
  assert.equal(artifact, { content: [{ type: "text", text: "Record r7 found." }] });
  assert.not.ok(JSON.stringify(artifact).includes("kept in process"));

  const unknown = await client.callTool({ name: "get_wether", arguments: {} }, undefined, TIMEOUT).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.instance(unknown, McpError);
  assert.is((unknown as McpError).code, ErrorCode.InvalidParams);
  // The client puts "MCP error -32602: " before the server's message once; the server's message has no prefix.
  assert.is(
    (unknown as McpError).message,
    'MCP error -32602: Unknown tool: "get_wether". Valid tools: get_weather, search_products, explode, lookup.',
  );
}

test("stdio: a server process started with node, the official client over its stdin/stdout", async () => {
  const script = path.join(__dirname, "mcp-stdio-server.js");
  const transport = new StdioClientTransport({ command: process.execPath, args: [script], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "tooltype-test-client", version: "1.0.0" });
  try {
    await client.connect(transport, TIMEOUT);
    assert.equal(client.getServerVersion(), { name: "tooltype-test", version: "1.0.0" });
    await exercise(client);
  } catch (error) {
    throw new Error(`${String(error)}\nserver stderr:\n${stderr}`);
  } finally {
    await client.close();
  }
});

test("stdio on the 2026-07-28 revision: the SDK v2 client probes with server/discover and stays modern; progress and calls", async () => {
  for (const [script, args] of [
    ["mcp-stdio-server.js", []],
    ["mcp-stdio-progress-server.js", ["0"]],
  ] as const) {
    const transport = new ModernStdio({
      command: process.execPath,
      args: [path.join(__dirname, script), ...args],
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new ModernClient(
      { name: "tooltype-v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    try {
      await client.connect(transport, TIMEOUT);
      assert.is(client.getNegotiatedProtocolVersion(), "2026-07-28");
      if (script === "mcp-stdio-server.js") {
        const registry = createProviderRegistry();
        const { tools } = await client.listTools(undefined, TIMEOUT);
        assert.equal(
          tools.map((t) => t.name),
          registry.toMCPTools().map((t) => t.name),
        );
        const weather = await client.callTool({ name: "get_weather", arguments: { city: "Paris" } }, TIMEOUT);
        assert.equal(weather.structuredContent, { city: "Paris", temperature: 21, unit: "celsius" });
        const invalid = await client.callTool(
          { name: "get_weather", arguments: { city: "Paris", unit: "kelvin" } },
          TIMEOUT,
        );
        assert.is(invalid.isError, true);
      } else {
        // Several calls, each with the reports the client saw in order, and each answered. Which reports the client
        // sees depends on how busy it is: the SDK v2 client drops a notification read in the same chunk as its
        // call's result, and on this revision the server has no request (ping) to wait on; it leaves a gap after
        // the last report, which a client too busy to read in between cannot see (failed on a loaded machine under
        // Node 24 and 26). That every report is sent, in order, the older revisions' test below checks exactly.
        for (let call = 0; call < 5; call++) {
          const seen: number[] = [];
          const result = await client.callTool(
            { name: "steps", arguments: { n: 3 } },
            { ...TIMEOUT, onprogress: (p) => seen.push(p.progress) },
          );
          assert.equal(result.content, [{ type: "text", text: "3 steps" }]);
          assert.ok(
            seen.every((step, i) => [1, 2, 3].includes(step) && (i === 0 || step > seen[i - 1]!)),
            `call ${call + 1}: ${JSON.stringify(seen)}`,
          );
        }
      }
    } catch (error) {
      throw new Error(`${String(error)}\nserver stderr:\n${stderr}`);
    } finally {
      await client.close();
    }
  }
});

test("stdio: the last progress report reaches the client even when the result follows it at once", async () => {
  const script = path.join(__dirname, "mcp-stdio-progress-server.js");
  for (const interval of [0, 100]) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [script, String(interval)],
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "tooltype-test-client", version: "1.0.0" });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    try {
      await client.connect(transport, TIMEOUT);
      // Several calls: each one's final report and result leave the server back to back.
      for (let call = 0; call < 5; call++) {
        const seen: number[] = [];
        const result = (await client.callTool({ name: "steps", arguments: { n: 3 } }, undefined, {
          ...TIMEOUT,
          onprogress: (p) => seen.push(p.progress),
        })) as CallToolResult;
        assert.equal(result.content, [{ type: "text", text: "3 steps" }]);
        assert.is(seen.at(-1), 3, `interval ${interval}, call ${call + 1}: the client saw ${JSON.stringify(seen)}`);
      }
      assert.equal(errors, [], "no progress notification for an unknown token");
    } catch (error) {
      throw new Error(`${String(error)}\nserver stderr:\n${stderr}`);
    } finally {
      await client.close();
    }
  }
});

test("Streamable HTTP on 127.0.0.1 (stateless handler): the same tools and answers; wrong hosts and methods refused", async () => {
  const handler = mcpHttpHandler(createProviderRegistry(), { allowedHosts: ["127.0.0.1"] });
  const server = http.createServer((req, res) => {
    if ((req.url ?? "").split("?")[0] !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const client = new Client({ name: "tooltype-test-client", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(url), TIMEOUT);
    await exercise(client);

    const get = await fetch(url, { method: "GET", signal: AbortSignal.timeout(10_000) });
    assert.is(get.status, 405);
    const badHost = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/mcp",
          method: "POST",
          headers: { host: "evil.example", "content-type": "application/json" },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end("{}");
    });
    assert.is(badHost, 403);
  } finally {
    await client.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
});

test.run();
