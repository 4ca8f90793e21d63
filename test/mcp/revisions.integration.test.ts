/**
 * `fromMCP` speaks the current revision (2026-07-28) and the older ones: against a server written with the SDK v2
 * that refuses the `initialize` handshake (test/support/mcp-sdk2-server.ts) and a server written with the SDK 1.x
 * that knows only the handshake (test/support/mcp-sdk1-server.ts), each over stdio and Streamable HTTP, in child
 * processes. The client `fromMCP` makes from a transport settles the revision itself (`server/discover`, else the
 * handshake); a client the app
 * brings, of either SDK, is used as it is. The v2 server's input schema is JSON Schema 2020-12 (`prefixItems`,
 * `dependentRequired`, `unevaluatedProperties`): it imports whole and tooltype validates it before the server
 * sees a call.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { once } from "node:events";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolRegistry } from "tooltype";
import { type MCPImport, fromMCP } from "tooltype/mcp";
import { HANG_MS } from "../support/hang";
import { ROUTE_SCHEMA } from "../support/mcp-sdk2-server";

const MODERN = path.join(__dirname, "..", "support", "mcp-sdk2-server.js");
const LEGACY = path.join(__dirname, "..", "support", "mcp-sdk1-server.js");
const LIMITS = { timeoutMs: HANG_MS, connectTimeoutMs: HANG_MS };
const CURRENT = "2026-07-28";

/** Starts `server` in HTTP mode and returns its endpoint and a way to stop it. */
async function startHttp(server: string, name: string): Promise<{ url: URL; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [server, "http", name], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the HTTP server exited early (${String(code)})`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PORT (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    stop: async () => {
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** The v2 server's tool, imported: its 2020-12 schema exported whole, calls validated here, valid ones answered there. */
async function checkModern(imported: MCPImport): Promise<void> {
  try {
    assert.is(imported.protocolVersion, CURRENT);
    assert.is(imported.serverName, "modern-station");
    assert.equal(imported.refused, []);
    const registry = new ToolRegistry().register(imported.tools);
    // Exported as the server sent it, its 2020-12 dialect marker kept (issue 46).
    assert.equal(registry.toOpenAITools()[0]!.function.parameters, ROUTE_SCHEMA);

    const answers = await registry.dispatch({
      tool_calls: [
        { id: "ok", name: "plan_route", args: { from: ["Oslo", 7], to: ["Bergen", 14] } },
        { id: "via", name: "plan_route", args: { from: ["Oslo", 7], to: ["Bergen", 14], via: "Voss", note: "scenic" } },
        { id: "hour", name: "plan_route", args: { from: ["Oslo", 25], to: ["Bergen", 14] } },
        { id: "long", name: "plan_route", args: { from: ["Oslo", 7, "extra"], to: ["Bergen", 14] } },
        { id: "note", name: "plan_route", args: { from: ["Oslo", 7], to: ["Bergen", 14], via: "Voss" } },
        { id: "extra", name: "plan_route", args: { from: ["Oslo", 7], to: ["Bergen", 14], speed: "fast" } },
      ],
    });
    assert.equal(
      answers.slice(0, 2).map((a) => [a.status, a.content]),
      [
        ["success", "Oslo 7h → Bergen 14h"],
        ["success", "Oslo 7h → Voss → Bergen 14h"],
      ],
    );
    // Refused here, by tooltype's validation of the imported 2020-12 schema: no server text in any of them.
    for (const answer of answers.slice(2)) {
      assert.is(answer.status, "error", answer.content);
      assert.match(answer.content, /^Error: invalid arguments for plan_route:\n- /);
    }
    assert.match(answers[2]!.content, /\/from\/1: must be <= 23/);
    assert.match(answers[4]!.content, /note/);
  } finally {
    await imported.close();
  }
}

/** The 1.x server's tools, imported over the handshake of an older revision. */
async function checkLegacy(imported: MCPImport): Promise<void> {
  try {
    assert.is(imported.serverName, "weather-station");
    if (imported.protocolVersion !== undefined) assert.match(imported.protocolVersion, /^2025-/);
    const registry = new ToolRegistry().register(imported.tools);
    const [answer] = await registry.dispatch({
      tool_calls: [{ id: "1", name: "get_forecast", args: { city: "Oslo", days: "2" } }],
    });
    assert.is(answer!.content, "Oslo: sunny for 2 days");
  } finally {
    await imported.close();
  }
}

test("stdio, current revision: an SDK v2 server that refuses the handshake; the 2020-12 schema imports and validates", async () => {
  await checkModern(await fromMCP(new StdioV2({ command: process.execPath, args: [MODERN, "stdio"] }), LIMITS));
});

test("stdio, current revision, on the SDK 1.x transport: the same", async () => {
  await checkModern(await fromMCP(new StdioV1({ command: process.execPath, args: [MODERN, "stdio"] }), LIMITS));
});

test("Streamable HTTP, current revision: the same", async () => {
  const server = await startHttp(MODERN, "modern-station");
  try {
    await checkModern(await fromMCP(new HttpV2(server.url), LIMITS));
  } finally {
    await server.stop();
  }
});

test("stdio, older revision: an SDK 1.x server; the client falls back to the initialize handshake", async () => {
  const imported = await fromMCP(new StdioV2({ command: process.execPath, args: [LEGACY, "stdio"] }), LIMITS);
  assert.match(imported.protocolVersion ?? "", /^2025-(06-18|11-25)$/);
  await checkLegacy(imported);
});

test("Streamable HTTP, older revision: the same", async () => {
  const server = await startHttp(LEGACY, "weather-station");
  try {
    const imported = await fromMCP(new HttpV1(server.url), LIMITS);
    assert.match(imported.protocolVersion ?? "", /^2025-(06-18|11-25)$/);
    await checkLegacy(imported);
  } finally {
    await server.stop();
  }
});

test("a client the app brings: an SDK v2 client on the current revision, an SDK 1.x client on an older one", async () => {
  const modern = new ClientV2({ name: "app", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await modern.connect(new StdioV2({ command: process.execPath, args: [MODERN, "stdio"] }), { timeout: HANG_MS });
  await checkModern(await fromMCP(modern, LIMITS));

  const legacy = new ClientV1({ name: "app", version: "1.0.0" });
  await legacy.connect(new StdioV1({ command: process.execPath, args: [LEGACY, "stdio"] }), { timeout: HANG_MS });
  const imported = await fromMCP(legacy, LIMITS);
  assert.is(imported.protocolVersion, undefined);
  await checkLegacy(imported);
});

test("versionNegotiation: a pin to the current revision refuses an older server instead of falling back", async () => {
  const transport = new StdioV2({ command: process.execPath, args: [LEGACY, "stdio"] });
  try {
    await fromMCP(transport, { ...LIMITS, versionNegotiation: { pin: CURRENT } });
    assert.unreachable("an older server was accepted under a pin");
  } catch (error) {
    assert.match(String(error), /2026-07-28/);
  } finally {
    await transport.close();
  }
});

test.run();
