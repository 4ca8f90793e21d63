/**
 * Tools as a service on the real Workers runtime: workerd through the `miniflare` package, serving a worker that
 * esbuild bundled from transformer-compiled tools (worker/entry.ts), without the nodejs_compat flag and where
 * code generation from strings is refused. The official MCP client lists and calls the tools over HTTP (an invalid
 * call answered as isError, progress over SSE, a foreign Origin and a foreign Host refused, 401/403 with
 * `authenticate`), and the worker's dispatch route answers a reply of the scripted OpenAI server.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import { gzipSync } from "node:zlib";
import { Miniflare } from "miniflare";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { checkTools, connect, INITIALIZE, rawPost, refusedConnection, text, TIMEOUT, whoami } from "./support";
import { bundleWorker } from "./worker/bundle";
import { checkDispatchRoute } from "./worker/routes";

let mf: Miniflare | undefined;
let small: Miniflare | undefined;
let base: URL;
let smallBase: URL;

async function modernClient(url: URL): Promise<ModernClient> {
  const client = new ModernClient({ name: "tooltype-v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new ModernHttp(url), TIMEOUT);
  return client;
}

test.before(async () => {
  const bundle = await bundleWorker();
  mf = new Miniflare({
    modules: true,
    script: fs.readFileSync(bundle.file, "utf8"),
    scriptPath: bundle.file,
    compatibilityDate: "2025-09-01",
    bindings: { TOKEN: "worker-token" },
    // workerd logs every connection a client drops (the refused requests here); keep its other lines.
    handleRuntimeStdio(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) {
      stdout.pipe(process.stdout);
      let pending = "";
      stderr.setEncoding("utf8");
      stderr.on("data", (chunk: string) => {
        const lines = (pending + chunk).split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines)
          if (!/Broken pipe|^stack: |Connection reset by peer/.test(line)) process.stderr.write(`${line}\n`);
      });
    },
  });
  base = await mf.ready;
  const smallBundle = await bundleWorker(undefined, "small-entry.mjs");
  small = new Miniflare({
    modules: true,
    script: fs.readFileSync(smallBundle.file, "utf8"),
    scriptPath: smallBundle.file,
    compatibilityDate: "2025-09-01",
  });
  smallBase = await small.ready;
});

test.after(async () => {
  await mf?.dispose();
  await small?.dispose();
});

test("the 2026-07-28 revision in workerd: the SDK v2 client negotiates it and gets the same tools and answers", async () => {
  const client = await modernClient(new URL("/mcp", base));
  try {
    assert.is(client.getNegotiatedProtocolVersion(), "2026-07-28");
    await checkTools(client as never);
  } finally {
    await client.close();
  }
});

test("the small service (tooltype/core, three tools, no MCP SDK in the bundle) answers the SDK v2 and SDK 1.x clients", async () => {
  // The size a platform's upload limit is compared with (issue 34): under 150 KB gzipped, no MCP SDK inside.
  const bundle = fs.readFileSync((await bundleWorker(undefined, "small-entry.mjs")).file);
  assert.ok(
    gzipSync(bundle, { level: 9 }).byteLength < 150_000,
    `${gzipSync(bundle, { level: 9 }).byteLength} bytes gzipped`,
  );
  const modern = await modernClient(smallBase);
  try {
    assert.equal(modern.getServerVersion(), { name: "small-tools", version: "1.0.0" });
    assert.equal(
      (await modern.listTools(undefined, TIMEOUT)).tools.map((t) => t.name),
      ["weather", "convert", "search"],
    );
    const weather = await modern.callTool({ name: "weather", arguments: { city: "Oslo" } }, TIMEOUT);
    assert.equal(weather.structuredContent, { city: "Oslo", temperature: 21, unit: "celsius" });
  } finally {
    await modern.close();
  }
  const legacy = await connect(smallBase);
  try {
    const converted = (await legacy.callTool(
      { name: "convert", arguments: { amount: 10, from: "EUR", to: "USD" } },
      undefined,
      TIMEOUT,
    )) as CallToolResult;
    assert.is(text(converted), "10 EUR is 11.00 USD");
  } finally {
    await legacy.close();
  }
});

test("the runtime refuses code generation, and the worker serves MCP anyway: list, call, invalid call as isError", async () => {
  const evalAnswer = await fetch(new URL("/eval", base), { signal: AbortSignal.timeout(10_000) });
  assert.match(await evalAnswer.text(), /^refused: Code generation from strings disallowed/);
  const client = await connect(new URL("/mcp", base));
  try {
    assert.equal(client.getServerVersion(), { name: "worker-tools", version: "1.0.0" });
    await checkTools(client);
    const seen: number[] = [];
    const counted = (await client.callTool({ name: "count", arguments: { n: 2 } }, undefined, {
      ...TIMEOUT,
      onprogress: (p) => seen.push(p.progress),
    })) as CallToolResult;
    assert.is(text(counted), "counted to 2");
    assert.equal(seen, [1, 2]);
  } finally {
    await client.close();
  }
});

test("a foreign Origin and a foreign Host are refused with 403", async () => {
  const url = new URL("/mcp", base);
  const refused = await refusedConnection(url, { origin: "http://evil.example" });
  assert.match(refused, /is not allowed/);
  assert.is((await rawPost(url, INITIALIZE, { origin: "http://evil.example" })).status, 403);
  // Miniflare's own listener drops a foreign Host before the worker; dispatchFetch hands the worker that URL.
  const rebound = await mf!.dispatchFetch("http://evil.example/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(INITIALIZE),
  });
  assert.is(rebound.status, 403);
  assert.match(await rebound.text(), /Host \\"evil\.example\\" is not allowed/);
});

test("with authenticate: unauthenticated 401 (WWW-Authenticate), a read-only token 403, the right token reaches ctx.auth", async () => {
  const url = new URL("/secure/mcp", base);
  const none = await rawPost(url, INITIALIZE);
  assert.is(none.status, 401);
  assert.match(String(none.headers["www-authenticate"]), /^Bearer realm="mcp"/);
  assert.is((await rawPost(url, INITIALIZE, { authorization: "Bearer read-only" })).status, 403);
  const anonymous = await refusedConnection(url);
  assert.match(anonymous, /401|Unauthorized/);
  assert.is(await whoami(url, "worker-token"), "you are worker-user");
});

test("plain dispatch as the user's own route: a scripted OpenAI reply posted to /dispatch", async () => {
  await checkDispatchRoute(base);
});

test.run();
