/**
 * The MCP server on the 2026-07-28 revision under Node's http server (mcpHttpHandler), driven by the official SDK
 * v2 client (`@modelcontextprotocol/client`, negotiating by `server/discover`) and by raw requests: the stateless
 * revision chosen, the same tools and answers as older clients get, `resultType`, `ttlMs`/`cacheScope` and the
 * server's identity on results, the header checks, `UnsupportedProtocolVersion`, an unknown method, list changes on
 * `subscriptions/listen`, and cancelling by closing the stream.
 */
import { test } from "uvu";
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import * as assert from "uvu/assert";
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyMemory } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { MCP_PROTOCOL_VERSION, mcpFetchHandler, serveMCP } from "tooltype/mcp";
import { ToolRegistry, tool } from "tooltype";
import { deferred } from "../support/deferred";
import { checkTools, rawPost, TIMEOUT, withNodeHandler } from "./support";
import { add, createMcpRegistry, removeFile, waits } from "./tools";
import { HANG_MS } from "../support/hang";

/** The SDK v2 client, negotiating the revision (`server/discover` first, `initialize` only for an older server). */
async function connectModern(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "tooltype-v2-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }), TIMEOUT);
  return client;
}

/** The name and version of the package.json in the working directory: a server's default serverInfo. */
const appInfo = (({ name, version }) => ({ name, version }))(
  JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { name: string; version: string },
);

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

function modern(
  method: string,
  params: Record<string, unknown> = {},
  id: number | string = 1,
): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: META } };
}

function headersFor(method: string, name?: string): Record<string, string> {
  return {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  };
}

/** A POST of `body` (a 2026-07-28 request) to a handler, with the headers the revision asks for; `who` as a bearer token. */
function modernRequest(body: Record<string, unknown>, name?: string, who?: string): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(who === undefined ? {} : { authorization: `Bearer ${who}` }),
      ...headersFor(body.method as string, name),
    },
    body: JSON.stringify(body),
  });
}

test("the SDK v2 client negotiates 2026-07-28 by server/discover and gets the same tools and answers", async () => {
  await withNodeHandler(createMcpRegistry(), { name: "modern-tools", version: "2.0.0" }, async (url) => {
    const client = await connectModern(url);
    try {
      assert.is(client.getNegotiatedProtocolVersion(), MCP_PROTOCOL_VERSION);
      assert.equal(client.getServerVersion(), { name: "modern-tools", version: "2.0.0" });
      assert.equal(client.getDiscoverResult()?.supportedVersions, [
        "2026-07-28",
        "2025-11-25",
        "2025-06-18",
        "2025-03-26",
      ]);
      await checkTools(client as never);
      const seen: number[] = [];
      const counted = await client.callTool(
        { name: "count", arguments: { n: 3 } },
        { ...TIMEOUT, onprogress: (p) => seen.push(p.progress) },
      );
      assert.equal(counted.content, [{ type: "text", text: "counted to 3" }]);
      assert.is(seen.at(-1), 3);
    } finally {
      await client.close();
    }
  });
});

test("raw: results carry resultType and serverInfo; tools/list its ttlMs, cacheScope and a stable order", async () => {
  await withNodeHandler(createMcpRegistry(), { listTtlMs: 5000 }, async (url) => {
    const discover = await rawPost(url, modern("server/discover"), headersFor("server/discover"));
    assert.is(discover.status, 200);
    const found = JSON.parse(discover.body).result;
    assert.is(found.resultType, "complete");
    // No name given: the app's, from the package.json of the working directory (this repository's, here).
    assert.equal(found._meta["io.modelcontextprotocol/serverInfo"], appInfo);
    assert.equal(found.capabilities, { tools: { listChanged: true } });
    assert.is(found.ttlMs, 5000);
    const first = await rawPost(url, modern("tools/list"), headersFor("tools/list"));
    const second = await rawPost(url, modern("tools/list", {}, 2), headersFor("tools/list"));
    const listed = JSON.parse(first.body).result;
    assert.is(listed.resultType, "complete");
    assert.is(listed.ttlMs, 5000);
    assert.is(listed.cacheScope, "public");
    assert.is(JSON.stringify(listed.tools), JSON.stringify(JSON.parse(second.body).result.tools));
    // No session on this revision: nothing is minted.
    assert.is(first.headers["mcp-session-id"], undefined);
  });
});

test("raw: an authenticate'd endpoint marks its lists private", async () => {
  await withNodeHandler(createMcpRegistry(), { authenticate: () => ({ user: "a" }) }, async (url) => {
    const listed = JSON.parse((await rawPost(url, modern("tools/list"), headersFor("tools/list"))).body).result;
    assert.is(listed.cacheScope, "private");
  });
});

test("raw: headers must say what the body says (400 HeaderMismatch), an unknown version is 400 UnsupportedProtocolVersion, an unknown method 404", async () => {
  await withNodeHandler(createMcpRegistry(), undefined, async (url) => {
    const call = modern("tools/call", { name: "add", arguments: { values: [1] } });
    const cases: [Record<string, string>, RegExp][] = [
      [{ "mcp-protocol-version": "2026-07-28", "mcp-name": "add" }, /Mcp-Method header is missing/],
      [headersFor("tools/list", "add"), /Mcp-Method "tools\/list" does not match/],
      [headersFor("tools/call"), /Mcp-Name header is missing/],
      [headersFor("tools/call", "remove_file"), /Mcp-Name "remove_file" does not match/],
      [
        { ...headersFor("tools/call", "add"), "mcp-protocol-version": "2025-06-18" },
        /does not match the body's "2026-07-28"/,
      ],
    ];
    for (const [headers, why] of cases) {
      const answer = await rawPost(url, call, headers);
      assert.is(answer.status, 400, JSON.stringify(headers));
      const error = JSON.parse(answer.body).error;
      assert.is(error.code, -32020);
      assert.match(error.message, why);
    }
    // The name in the revision's base64 form is decoded before it is compared.
    const encoded = await rawPost(
      url,
      call,
      headersFor("tools/call", `=?base64?${Buffer.from("add").toString("base64")}?=`),
    );
    assert.is(encoded.status, 200);
    assert.equal(JSON.parse(encoded.body).result.structuredContent, { total: 1, count: 1 });

    const future = {
      ...call,
      params: {
        ...(call.params as object),
        _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
      },
    };
    const unsupported = await rawPost(url, future, {
      ...headersFor("tools/call", "add"),
      "mcp-protocol-version": "2099-01-01",
    });
    assert.is(unsupported.status, 400);
    const error = JSON.parse(unsupported.body).error;
    assert.is(error.code, -32022);
    assert.equal(error.data, {
      supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
      requested: "2099-01-01",
    });

    const unknown = await rawPost(url, modern("prompts/list"), headersFor("prompts/list"));
    assert.is(unknown.status, 404);
    assert.is(JSON.parse(unknown.body).error.code, -32601);
  });
});

test("raw: the 2026-07-28 revision's own rules, as the official conformance suite checks them: no initialize or ping (404, -32601), client capabilities required (400, -32602), a version in _meta required under the revision's header (400, -32602)", async () => {
  await withNodeHandler(createMcpRegistry(), undefined, async (url) => {
    for (const method of ["initialize", "ping"]) {
      const removed = await rawPost(
        url,
        modern(
          method,
          method === "initialize"
            ? { protocolVersion: "2026-07-28", capabilities: {}, clientInfo: { name: "x", version: "1" } }
            : {},
        ),
        headersFor(method),
      );
      assert.is(removed.status, 404, method);
      assert.is(JSON.parse(removed.body).error.code, -32601);
      assert.match(JSON.parse(removed.body).error.message, new RegExp(`has no ${method}`));
    }
    const { "io.modelcontextprotocol/clientCapabilities": _dropped, ...noCapabilities } = META;
    const call = { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: noCapabilities } };
    const missing = await rawPost(url, call, headersFor("tools/list"));
    assert.is(missing.status, 400);
    assert.is(JSON.parse(missing.body).error.code, -32602);
    assert.match(JSON.parse(missing.body).error.message, /clientCapabilities/);
    for (const params of [{}, { _meta: {} }]) {
      const unversioned = await rawPost(
        url,
        { jsonrpc: "2.0", id: 4, method: "tools/list", params },
        headersFor("tools/list"),
      );
      assert.is(unversioned.status, 400, JSON.stringify(params));
      assert.is(JSON.parse(unversioned.body).error.code, -32602);
      assert.match(JSON.parse(unversioned.body).error.message, /names no protocol version/);
    }
    // An older client's initialize (no version in _meta) is answered as before.
    const legacy = await rawPost(url, {
      jsonrpc: "2.0",
      id: 5,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    assert.is(legacy.status, 200);
    assert.is(JSON.parse(legacy.body).result.protocolVersion, "2025-11-25");
  });
});

test("raw: a 2026-07-28 request inside a batch is refused, never run; an older revision's present headers must agree with its body", async () => {
  const wiped: string[] = [];
  /**
   * Wipe a disk.
   * @param path The disk
   */
  const wipe = tool(function remove_file(path: string): string {
    wiped.push(path);
    return "wiped";
  });
  await withNodeHandler(new ToolRegistry([add, wipe]), undefined, async (url) => {
    const call = modern("tools/call", { name: "remove_file", arguments: { path: "/etc/passwd" } });
    // The header check of a single request, sidestepped by a batch of one: refused before anything is read as a call.
    for (const headers of [headersFor("tools/call", "add"), {}]) {
      const batch = await rawPost(url, [call], headers);
      assert.is(batch.status, 400, JSON.stringify(headers));
      const error = JSON.parse(batch.body).error;
      assert.is(error.code, -32600);
      assert.match(error.message, /the 2026-07-28 revision has no batches/);
    }
    assert.equal(wiped, [], "remove_file never ran");

    // An older revision's request with Mcp-Method or Mcp-Name headers that lie about it.
    const legacy = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "remove_file", arguments: { path: "/tmp/x" } },
    };
    const lying: [Record<string, string>, RegExp][] = [
      [
        { "mcp-protocol-version": "2025-06-18", "mcp-method": "tools/list" },
        /Mcp-Method "tools\/list" does not match the body's method "tools\/call"/,
      ],
      [
        { "mcp-protocol-version": "2025-06-18", "mcp-method": "tools/call", "mcp-name": "add" },
        /Mcp-Name "add" does not match the body's tool name/,
      ],
      [{ "mcp-name": "add" }, /Mcp-Name "add" does not match/],
    ];
    for (const [headers, why] of lying) {
      for (const body of [legacy, [legacy]]) {
        const answer = await rawPost(url, body, headers);
        assert.is(answer.status, 400, JSON.stringify([headers, body]));
        const error = JSON.parse(answer.body).error;
        assert.is(error.code, -32020);
        assert.match(error.message, why);
      }
    }
    assert.equal(wiped, [], "remove_file never ran");
    // Headers that agree are answered as before.
    const agreeing = await rawPost(
      url,
      { ...legacy, params: { name: "add", arguments: { values: [2] } } },
      { "mcp-protocol-version": "2025-06-18", "mcp-method": "tools/call", "mcp-name": "add" },
    );
    assert.is(agreeing.status, 200);
  });
});

test("raw: an invalid call is an isError result the model can correct, an unknown tool -32602", async () => {
  await withNodeHandler(createMcpRegistry(), undefined, async (url) => {
    const invalid = JSON.parse(
      (
        await rawPost(
          url,
          modern("tools/call", { name: "add", arguments: { values: ["x"] } }),
          headersFor("tools/call", "add"),
        )
      ).body,
    ).result;
    assert.is(invalid.resultType, "complete");
    assert.is(invalid.isError, true);
    assert.match(invalid.content[0].text, /^Error: invalid arguments for add:/);
    const unknown = JSON.parse(
      (await rawPost(url, modern("tools/call", { name: "nope", arguments: {} }), headersFor("tools/call", "nope")))
        .body,
    );
    assert.is(unknown.error.code, -32602);
    assert.match(unknown.error.message, /Unknown tool: "nope"\. Valid tools: add, /);
  });
});

test("subscriptions/listen: acknowledged, then a tools/list_changed when the registry gains a tool (SDK v2 client)", async () => {
  const registry = new ToolRegistry([add]);
  await withNodeHandler(registry, undefined, async (url) => {
    const client = await connectModern(url);
    try {
      const changed = deferred<void>();
      client.setNotificationHandler("notifications/tools/list_changed", () => changed.resolve());
      const subscription = await client.listen({ toolsListChanged: true }, TIMEOUT);
      assert.equal(subscription.honoredFilter, { toolsListChanged: true });
      registry.register(removeFile);
      await changed.promise;
      const { tools } = await client.listTools(undefined, { ...TIMEOUT, cacheMode: "refresh" } as never);
      assert.equal(
        tools.map((t) => t.name),
        ["add", "remove_file"],
      );
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});

test("subscriptions/listen holds no request slot: a caller's idle listens are capped, and never keep another caller's call waiting", async () => {
  const release = deferred<void>();
  /**
   * Wait until the test says so.
   * @param label What to answer
   */
  const hold = tool(async function hold(label: string): Promise<string> {
    await release.promise;
    return label;
  });
  const handler = mcpFetchHandler(new ToolRegistry([add, hold]), {
    authenticate: (request) => request.headers.get("authorization")?.slice(7) || undefined,
    maxConcurrentRequests: 8,
    listenIdleMs: 60_000,
  });
  const post = (who: string, body: Record<string, unknown>, name?: string) => handler(modernRequest(body, name, who));
  const streams: Response[] = [];
  try {
    // 64 idle listens from one caller: two are open, the rest are refused; none holds a request slot.
    for (let i = 0; i < 64; i++)
      streams.push(
        await post("mallory", modern("subscriptions/listen", { notifications: { toolsListChanged: true } }, i)),
      );
    assert.equal(streams.filter((r) => r.status === 200).length, 2);
    const refused = streams.find((r) => r.status === 503)!;
    assert.match(
      ((await refused.json()) as { error: { message: string } }).error.message,
      /already has 2 subscriptions open \(maxListensPerCaller\)/,
    );
    const served = await post("alice", modern("tools/call", { name: "add", arguments: { values: [1, 2] } }), "add");
    assert.is(served.status, 200);
    // Requests: one caller holds at most a quarter of the slots (2 of 8); the third waits its turn, others are served.
    const held = [
      post("mallory", modern("tools/call", { name: "hold", arguments: { label: "a" } }, 100), "hold"),
      post("mallory", modern("tools/call", { name: "hold", arguments: { label: "b" } }, 101), "hold"),
    ];
    const third = await post("mallory", modern("tools/call", { name: "hold", arguments: { label: "c" } }, 102), "hold");
    assert.is(third.status, 503);
    assert.match(
      ((await third.json()) as { error: { message: string } }).error.message,
      /this caller already has 2 requests being served \(maxRequestsPerCaller\)/,
    );
    assert.is(
      (await post("alice", modern("tools/call", { name: "add", arguments: { values: [3] } }, 103), "add")).status,
      200,
    );
    release.resolve();
    assert.equal(await Promise.all(held.map(async (r) => (await r).status)), [200, 200]);
  } finally {
    await Promise.all(streams.filter((r) => r.status === 200).map((r) => r.body?.cancel()));
  }
});

test("subscriptions/listen without authenticate: clients cannot be told apart, so only the server's cap applies (no cap per caller)", async () => {
  const handler = mcpFetchHandler(new ToolRegistry([add]), { maxListens: 4, listenIdleMs: 60_000 });
  const listen = (i: number) =>
    handler(modernRequest(modern("subscriptions/listen", { notifications: { toolsListChanged: true } }, i)));
  const streams: Response[] = [];
  try {
    // Beyond the default of two per caller: every anonymous client is the same caller, and would share two.
    for (let i = 0; i < 5; i++) streams.push(await listen(i));
    assert.equal(
      streams.map((r) => r.status),
      [200, 200, 200, 200, 503],
    );
    assert.match(
      ((await streams[4]!.json()) as { error: { message: string } }).error.message,
      /keeps at most 4 subscriptions open \(maxListens\)/,
    );
    // A closed stream gives its slot back.
    await streams[0]!.body?.cancel();
    streams.push(await listen(9));
    assert.is(streams[5]!.status, 200);
  } finally {
    await Promise.all(
      streams
        .slice(1)
        .filter((r) => r.status === 200)
        .map((r) => r.body?.cancel()),
    );
  }
});

test("subscriptions/listen ends by itself when idle or too old; the client listens again", async () => {
  for (const options of [{ listenIdleMs: 30 }, { listenLifetimeMs: 30, listenIdleMs: 60_000 }]) {
    const handler = mcpFetchHandler(new ToolRegistry([add]), options);
    const answer = await handler(
      modernRequest(modern("subscriptions/listen", { notifications: { toolsListChanged: true } })),
    );
    assert.is(answer.status, 200);
    // Read to its end: the stream closes (a hang here is what the timeouts prevent). The handler's timers do not
    // keep a process alive (a server's socket does): this test's interval does, while it reads.
    const keepAlive = setInterval(() => undefined, 1000);
    const text = await answer.text().finally(() => clearInterval(keepAlive));
    assert.match(text, /notifications\/subscriptions\/acknowledged/);
  }
});

test("on a connection (serveMCP): subscriptions/listen for the SDK v2 client, notifications/tools/list_changed for an SDK 1.x client", async () => {
  const registry = new ToolRegistry([add]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await serveMCP(registry, serverSide);
  const client = new Client({ name: "v2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(clientSide, TIMEOUT);
  try {
    assert.is(client.getNegotiatedProtocolVersion(), "2026-07-28");
    const changed = deferred<void>();
    client.setNotificationHandler("notifications/tools/list_changed", () => changed.resolve());
    const subscription = await client.listen({ toolsListChanged: true }, TIMEOUT);
    registry.register(removeFile);
    await changed.promise;
    await subscription.close();
  } finally {
    await client.close();
    await server.close();
  }

  const older = new ToolRegistry([add]);
  const [oldClientSide, oldServerSide] = LegacyMemory.createLinkedPair();
  const oldServer = await serveMCP(older, oldServerSide);
  const legacy = new LegacyClient({ name: "desktop", version: "1" });
  const heard = deferred<void>();
  legacy.setNotificationHandler(ToolListChangedNotificationSchema, () => heard.resolve());
  await legacy.connect(oldClientSide, TIMEOUT);
  try {
    assert.equal(legacy.getServerCapabilities()?.tools, { listChanged: true });
    older.register(removeFile);
    await heard.promise;
    assert.equal(
      (await legacy.listTools(undefined, TIMEOUT)).tools.map((t) => t.name),
      ["add", "remove_file"],
    );
  } finally {
    await legacy.close();
    await oldServer.close();
  }
});

test("cancellation on this revision: closing the response stream aborts the running tool", async () => {
  await withNodeHandler(createMcpRegistry(), undefined, async (url) => {
    const before = { ...waits };
    const started = deferred<void>();
    const timer = setInterval(() => waits.started > before.started && started.resolve(), 5);
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headersFor("tools/call", "wait"),
      },
    });
    req.on("error", () => undefined);
    req.end(
      JSON.stringify(
        modern("tools/call", { name: "wait", arguments: { label: "z" }, _meta: { ...META, progressToken: 1 } }),
      ),
    );
    await started.promise;
    clearInterval(timer);
    req.destroy();
    const end = Date.now() + HANG_MS;
    while (waits.aborted === before.aborted && Date.now() < end) await new Promise((resolve) => setImmediate(resolve));
    assert.is(waits.aborted, before.aborted + 1);
  });
});

test.run();
