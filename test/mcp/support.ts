/**
 * What the MCP HTTP tests share across runtimes (Node, workerd, Bun): the official client connected to a URL, raw
 * requests whose Host and Origin headers the test chooses (node:http, since fetch will not send a foreign Host), and
 * the checks every runtime must pass for the tools of test/mcp/tools.ts.
 */
import * as http from "node:http";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolRegistry } from "tooltype";
import { type MCPHttpOptions, mcpHttpHandler } from "tooltype/mcp";
import { SECRET } from "./tools";
import { HANG_MS } from "../support/hang";
import { listenOnLoopback } from "../support/listen";

/** The MCP client's request limit: it only catches a hang. */
export const TIMEOUT = { timeout: HANG_MS };

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw-test", version: "1.0.0" } },
};

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** POST `body` (JSON, or a string as is) with exactly these headers on top of the MCP ones. */
export function rawPost(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        // A fresh connection each time: a server may close one after refusing a request whose body it did not read.
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: url.host,
          ...headers,
        },
        timeout: HANG_MS,
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (data += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("raw request timed out")));
    req.on("error", reject);
    req.end(text);
  });
}

/** The official client, connected (rejects when the server refuses the initialize request). */
export async function connect(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "tooltype-test-client", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }), TIMEOUT);
  return client;
}

/** Runs `body` with a connected client and closes the client after it. */
export async function withClient(
  url: URL,
  headers: Record<string, string>,
  body: (client: Client) => Promise<void>,
): Promise<void> {
  const client = await connect(url, headers);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** Why the server refused the client's connection ("connected" when it did not). */
export function refusedConnection(url: URL, headers: Record<string, string> = {}): Promise<string> {
  return connect(url, headers).then(
    async (client) => {
      await client.close();
      return "connected";
    },
    (error: unknown) => String(error),
  );
}

/** What the `whoami` tool (which reads ctx.auth) answers a client with this bearer token. */
export async function whoami(url: URL, token: string): Promise<string> {
  let answer = "";
  await withClient(url, { authorization: `Bearer ${token}` }, async (client) => {
    answer = text(await client.callTool({ name: "whoami", arguments: {} }, undefined, TIMEOUT));
  });
  return answer;
}

export function text(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

/** tools/list and tools/call as every runtime must answer them, with the default (network) error policy. */
export async function checkTools(client: Client): Promise<void> {
  const { tools } = await client.listTools(undefined, TIMEOUT);
  assert.equal(
    tools.map((t) => t.name),
    ["add", "remove_file", "count", "wait", "whoami", "leak", "leak_object", "refuse", "bad_sum"],
  );
  const add = tools.find((t) => t.name === "add")!;
  assert.is(add.title, "Adder");
  assert.equal(add.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  assert.equal(add.icons, [
    { src: "https://example.com/add.svg", mimeType: "image/svg+xml", sizes: ["any"] },
    { src: "data:image/png;base64,iVBORw0KGgo=", sizes: ["16x16", "32x32"], theme: "dark" },
  ]);
  assert.equal(add.outputSchema?.required, ["total", "count"]);
  const remove = tools.find((t) => t.name === "remove_file")!;
  assert.is(remove.title, "Remove a file");
  assert.equal(remove.annotations, { destructiveHint: true, openWorldHint: false });

  const sum = (await client.callTool(
    { name: "add", arguments: { values: [1, 2, 3.5] } },
    undefined,
    TIMEOUT,
  )) as CallToolResult;
  assert.equal(sum.structuredContent, { total: 6.5, count: 3 });
  assert.is(sum.isError, undefined);

  const invalid = (await client.callTool(
    { name: "add", arguments: { values: [1, "two"] } },
    undefined,
    TIMEOUT,
  )) as CallToolResult;
  assert.is(invalid.isError, true);
  assert.match(text(invalid), /^Error: invalid arguments for add:\n- \/values\/1: /);

  const refused = (await client.callTool(
    { name: "refuse", arguments: { what: "delete prod" } },
    undefined,
    TIMEOUT,
  )) as CallToolResult;
  assert.equal(
    { content: refused.content, isError: refused.isError },
    { content: [{ type: "text", text: "I will not delete prod." }], isError: true },
  );

  for (const name of ["leak", "leak_object"]) {
    const leaked = (await client.callTool(
      { name, arguments: name === "leak" ? { table: "users" } : {} },
      undefined,
      TIMEOUT,
    )) as CallToolResult;
    assert.is(leaked.isError, true);
    assert.is(
      text(leaked),
      `Error: ${name} failed. The server keeps the details; try other arguments or another tool.`,
    );
    assert.not.ok(JSON.stringify(leaked).includes("hunter2"), `${name} sent its secret`);
    assert.not.ok(JSON.stringify(leaked).includes(SECRET));
  }

  const bad = (await client.callTool({ name: "bad_sum", arguments: {} }, undefined, TIMEOUT)) as CallToolResult;
  assert.is(bad.isError, true);
  assert.match(text(bad), /bad_sum returned an object that does not match its declared result type \(outputSchema\)/);
}

/** `registry` served by `mcpHttpHandler` on a loopback port while `body` runs with its URL; closed afterwards. */
export async function withNodeHandler(
  registry: ToolRegistry,
  options: MCPHttpOptions | undefined,
  body: (url: URL) => Promise<void>,
): Promise<void> {
  const handler = mcpHttpHandler(registry, options);
  const server = http.createServer((req, res) => void handler(req, res));
  const port = await listenOnLoopback(server);
  try {
    await body(new URL(`http://127.0.0.1:${port}/mcp`));
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
