/**
 * The MCP HTTP server under Node's own http server (mcpHttpHandler, the Request/Response bridge over
 * mcpFetchHandler), driven by the official MCP client and by raw requests: tools with titles and annotations,
 * progress notifications, cancellation reaching the tool's signal, DNS rebinding and foreign origins refused by
 * default, authenticate → 401/403 and ctx.auth, the error policy (no secret leaves by default; exposeErrors), and
 * the body and batch limits.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as http from "node:http";
import * as net from "node:net";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { MCPAuthError, type MCPHttpOptions, mcpHttpHandler } from "tooltype/mcp";
import { HANG_MS } from "../support/hang";
import {
  checkTools,
  connect,
  INITIALIZE,
  rawPost,
  refusedConnection,
  text,
  TIMEOUT,
  whoami,
  withClient,
  withNodeHandler,
} from "./support";
import { createMcpRegistry, SECRET, waits } from "./tools";

function withServer(options: MCPHttpOptions | undefined, body: (url: URL) => Promise<void>): Promise<void> {
  return withNodeHandler(createMcpRegistry(), options, body);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const end = Date.now() + HANG_MS;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("defaults: the official client lists titles and annotations, calls tools; secrets stay on the server", async () => {
  await withServer(undefined, async (url) => {
    await withClient(url, {}, checkTools);
  });
});

test("progress: ctx.progress reaches the client as notifications/progress when it sent a progressToken", async () => {
  await withServer({ progressIntervalMs: 0 }, async (url) => {
    const client = await connect(url);
    try {
      const seen: { progress: number; total?: number; message?: string }[] = [];
      const result = (await client.callTool({ name: "count", arguments: { n: 3 } }, undefined, {
        ...TIMEOUT,
        onprogress: (p) => seen.push(p),
      })) as CallToolResult;
      assert.is(text(result), "counted to 3");
      assert.equal(seen, [
        { progress: 1, total: 3, message: "step 1" },
        { progress: 2, total: 3, message: "step 2" },
        { progress: 3, total: 3, message: "step 3" },
      ]);
      // Without a token the same tool answers in one JSON body, its reports dropped.
      const quiet = await rawPost(url, {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "count", arguments: { n: 2 } },
      });
      assert.is(quiet.status, 200);
      assert.match(String(quiet.headers["content-type"]), /application\/json/);
      assert.is(JSON.parse(quiet.body).result.content[0].text, "counted to 2");
    } finally {
      await client.close();
    }
  });
});

test("progress: by default at most one notification per 100 ms, the final report before the result", async () => {
  await withServer(undefined, async (url) => {
    const client = await connect(url);
    try {
      const seen: { progress: number; total?: number; message?: string }[] = [];
      const n = 60; // one report every 5 ms or more
      const result = (await client.callTool({ name: "count", arguments: { n } }, undefined, {
        ...TIMEOUT,
        onprogress: (p) => seen.push(p),
      })) as CallToolResult;
      assert.is(text(result), `counted to ${n}`);
      assert.ok(seen.length >= 2 && seen.length < n / 2, `${seen.length} notifications for ${n} reports`);
      assert.equal(seen[0], { progress: 1, total: n, message: "step 1" });
      assert.equal(seen.at(-1), { progress: n, total: n, message: `step ${n}` });
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress > seen[i - 1]!.progress, "progress increases");
    } finally {
      await client.close();
    }
  });
});

test("cancellation: the client's notifications/cancelled aborts the running tool's signal", async () => {
  await withServer(undefined, async (url) => {
    const client = await connect(url);
    try {
      const before = { ...waits };
      const controller = new AbortController();
      const outcome = client
        .callTool({ name: "wait", arguments: { label: "x" } }, undefined, { ...TIMEOUT, signal: controller.signal })
        .then(
          () => "answered",
          (error: unknown) => String(error),
        );
      await until(() => waits.started > before.started, "the tool to start");
      controller.abort("user pressed stop");
      await until(() => waits.aborted > before.aborted, "the tool's signal to abort");
      assert.match(waits.reason, /user pressed stop/);
      assert.match(await outcome, /user pressed stop/);
    } finally {
      await client.close();
    }
  });
});

test("cancellation: a closed connection aborts the running tool", async () => {
  await withServer(undefined, async (url) => {
    const before = { ...waits };
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    req.on("error", () => undefined);
    req.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "wait", arguments: { label: "y" } },
      }),
    );
    await until(() => waits.started > before.started, "the tool to start");
    req.destroy();
    await until(() => waits.aborted > before.aborted, "the tool's signal to abort");
  });
});

test("DNS rebinding: a foreign Host is refused by default (403), loopback names pass, allowedHosts widens it", async () => {
  await withServer(undefined, async (url) => {
    const evil = await rawPost(url, INITIALIZE, { host: "evil.example" });
    assert.is(evil.status, 403);
    assert.match(
      JSON.parse(evil.body).error.message,
      /Host "evil\.example" is not allowed \(DNS rebinding protection\)/,
    );
    const withPort = await rawPost(url, INITIALIZE, { host: `evil.example:${url.port}` });
    assert.is(withPort.status, 403);
    for (const host of [`localhost:${url.port}`, `127.0.0.1:${url.port}`, `[::1]:${url.port}`]) {
      assert.is((await rawPost(url, INITIALIZE, { host })).status, 200, host);
    }
  });
  await withServer({ allowedHosts: ["tools.example"] }, async (url) => {
    assert.is((await rawPost(url, INITIALIZE, { host: "tools.example" })).status, 200);
    assert.is((await rawPost(url, INITIALIZE, { host: "localhost" })).status, 403);
  });
});

/** One raw HTTP/1.1 request on a fresh socket, its Host header written as given (Node's client would refuse some). */
function rawHostRequest(url: URL, host: string, method: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let data = "";
    socket.setEncoding("utf8");
    socket.setTimeout(10_000, () => socket.destroy(new Error("raw request timed out")));
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
    const body = method === "GET" ? "" : JSON.stringify(INITIALIZE);
    socket.end(
      `${method} ${url.pathname} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n` +
        `accept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

test("a malformed Host header is a 400 and nothing else: the handler never rejects, the process and the server live on", async () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);
  process.on("unhandledRejection", onRejection);
  try {
    for (const options of [undefined, { authenticate: () => ({ user: "a" }) }] satisfies (
      | MCPHttpOptions
      | undefined
    )[]) {
      await withServer(options, async (url) => {
        for (const host of [
          "local host",
          "localhost:abc",
          "[::1",
          "localhost:99999",
          "localhost%",
          "localhost/x",
          "a@localhost",
        ]) {
          for (const method of ["POST", "GET", "DELETE"]) {
            const answer = await rawHostRequest(url, host, method);
            assert.is(answer.status, 400, `${method} with Host ${JSON.stringify(host)}: ${answer.text.slice(0, 200)}`);
            // The body, whether sent with a length or in one chunk.
            const body = answer.text.slice(answer.text.indexOf("{"), answer.text.lastIndexOf("}") + 1);
            assert.match(JSON.parse(body).error.message, /Host header .* do not form a valid URL/);
            assert.not.match(answer.text, /TypeError|at .*\(|\/work\/|node:internal/);
          }
        }
        // The server still answers a good request afterwards.
        assert.is((await rawPost(url, INITIALIZE)).status, 200);
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(rejections, []);
  } finally {
    process.off("unhandledRejection", onRejection);
  }
});

test("a body nested a million deep is refused (400) before it is parsed", async () => {
  await withServer(undefined, async (url) => {
    const original = JSON.parse;
    let deepParsed = false;
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"n":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}}}`;
    JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      if (String(text).length >= deep.length) deepParsed = true;
      return original(text, reviver);
    }) as typeof JSON.parse;
    try {
      const answer = await rawPost(url, deep);
      assert.is(answer.status, 400);
      assert.match(original(answer.body).error.message, /nests deeper than 256 levels/);
    } finally {
      JSON.parse = original;
    }
    assert.not.ok(deepParsed, "the deep body never reached JSON.parse");
    assert.is((await rawPost(url, INITIALIZE)).status, 200);
  });
});

/** Bearer alice / Bearer bob: each token is its user. */
const USERS: MCPHttpOptions = {
  authenticate: (request) => /^Bearer (alice|bob)$/.exec(request.headers.get("authorization") ?? "")?.[1],
};

test("cancellation is the caller's own: another user's session id, or one the server never issued, cancels nothing", async () => {
  await withServer(USERS, async (url) => {
    const alice = { authorization: "Bearer alice" };
    const bob = { authorization: "Bearer bob" };
    const session = String((await rawPost(url, INITIALIZE, alice)).headers["mcp-session-id"]);
    const before = { ...waits };
    const call = rawPost(
      url,
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "wait", arguments: { label: "alice's" } } },
      { ...alice, "mcp-session-id": session },
    );
    await until(() => waits.started > before.started, "alice's call to start");
    const cancel = (reason: string) => ({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 7, reason },
    });
    // Bob holds alice's session id; then a made-up one; then alice's id with its signature cut.
    for (const [headers, reason] of [
      [{ ...bob, "mcp-session-id": session }, "bob"],
      [{ ...alice, "mcp-session-id": `${session.split(".")[0]}.${"0".repeat(64)}` }, "forged"],
      [{ ...alice, "mcp-session-id": session.split(".")[0]! }, "unsigned"],
    ] as const) {
      const answer = await rawPost(url, cancel(reason), headers);
      assert.ok(answer.status < 300, `${reason}: ${answer.status}`);
      // The cancellation is handled before its answer is sent: had it matched, the tool would be aborted by now.
      assert.is(waits.aborted, before.aborted, `${reason} cancelled alice's call`);
    }
    // Bob's own call with alice's session and the same request id does not take over her cancel slot.
    const bobCall = rawPost(
      url,
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "whoami", arguments: {} } },
      { ...bob, "mcp-session-id": session },
    );
    assert.is((await bobCall).status, 200);
    await rawPost(url, cancel("alice pressed stop"), { ...alice, "mcp-session-id": session });
    await until(() => waits.aborted > before.aborted, "alice's own cancellation");
    assert.match(waits.reason, /alice pressed stop/);
    assert.is((await call).status, 200);
  });
});

test("at most maxConcurrentRequests at once (503 with Retry-After, before credentials or body); a slow body is cut at bodyTimeoutMs (408)", async () => {
  await withServer({ maxConcurrentRequests: 2, bodyTimeoutMs: 200 }, async (url) => {
    const before = { ...waits };
    const call = (id: number) =>
      rawPost(url, {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "wait", arguments: { label: String(id) } },
      });
    const running = [call(1), call(2)];
    await until(() => waits.started >= before.started + 2, "two calls to start");
    const busy = await rawPost(url, INITIALIZE);
    assert.is(busy.status, 503);
    assert.is(busy.headers["retry-after"], "1");
    assert.match(JSON.parse(busy.body).error.message, /at most 2 requests at once \(maxConcurrentRequests\)/);
    // The two waiting calls end when the server closes their connections, after this body.
    for (const r of running) void r.catch(() => undefined);
  });
  await withServer({ bodyTimeoutMs: 200 }, async (url) => {
    // Headers, then a body that never finishes: the handler answers 408 and closes, instead of waiting forever.
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let data = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (data += chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
      socket.write(
        `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: 1000\r\n\r\n{"jsonrpc":`,
      );
    });
    assert.is(answer.status, 408, answer.text.slice(0, 300));
    assert.match(answer.text, /not received within 200 ms \(bodyTimeoutMs\)/);
  });
});

test("Origin: a foreign page is refused even on an allowed host; same-origin and listed origins pass", async () => {
  await withServer(undefined, async (url) => {
    const foreign = await rawPost(url, INITIALIZE, { host: "localhost", origin: "http://evil.example" });
    assert.is(foreign.status, 403);
    assert.match(JSON.parse(foreign.body).error.message, /Origin "http:\/\/evil\.example" is not allowed/);
    assert.is((await rawPost(url, INITIALIZE, { origin: "null" })).status, 403);
    assert.is((await rawPost(url, INITIALIZE, { origin: `http://${url.host}` })).status, 200);
    // The official client sending a foreign Origin cannot connect.
    const refused = await refusedConnection(url, { origin: "http://evil.example" });
    assert.match(refused, /Origin \\"http:\/\/evil\.example\\" is not allowed/, refused);
  });
  await withServer({ allowedOrigins: ["https://app.example"] }, async (url) => {
    const listed = await rawPost(url, INITIALIZE, { origin: "https://app.example" });
    assert.is(listed.status, 200);
    // The page may read the answer and the session header (CORS), and its preflight is answered.
    assert.is(listed.headers["access-control-allow-origin"], "https://app.example");
    assert.is(listed.headers["access-control-expose-headers"], "mcp-session-id");
    assert.match(String(listed.headers["mcp-session-id"]), /^[0-9a-f-]{36}\.[0-9a-f]{64}$/);
    const preflight = await fetch(url, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      signal: AbortSignal.timeout(10_000),
    });
    assert.is(preflight.status, 204);
    assert.is(preflight.headers.get("access-control-allow-origin"), "https://app.example");
    assert.match(String(preflight.headers.get("access-control-allow-headers")), /authorization.*mcp-session-id/);
    const foreignPreflight = await fetch(url, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example" },
      signal: AbortSignal.timeout(10_000),
    });
    assert.is(foreignPreflight.status, 403);
    assert.is(foreignPreflight.headers.get("access-control-allow-origin"), null);
    assert.is((await rawPost(url, INITIALIZE, { origin: "https://app.example.evil.example" })).status, 403);
  });
});

test("authenticate: 401 with WWW-Authenticate without or with bad credentials, 403 by MCPAuthError, ctx.auth in the tool", async () => {
  const options: MCPHttpOptions = {
    resourceMetadataUrl: "https://tools.example/.well-known/oauth-protected-resource",
    authenticate: (request) => {
      const header = request.headers.get("authorization");
      if (header === "Bearer banned") throw new MCPAuthError(403, "this token may not use the tools", "tools:call");
      return header === "Bearer good" ? { user: "ada" } : undefined;
    },
  };
  await withServer(options, async (url) => {
    const none = await rawPost(url, INITIALIZE);
    assert.is(none.status, 401);
    assert.is(
      none.headers["www-authenticate"],
      'Bearer realm="mcp", resource_metadata="https://tools.example/.well-known/oauth-protected-resource"',
    );
    const wrong = await rawPost(url, INITIALIZE, { authorization: "Bearer nope" });
    assert.is(wrong.status, 401);
    assert.match(String(wrong.headers["www-authenticate"]), /error="invalid_token"/);
    const banned = await rawPost(url, INITIALIZE, { authorization: "Bearer banned" });
    assert.is(banned.status, 403);
    assert.match(String(banned.headers["www-authenticate"]), /error="insufficient_scope", scope="tools:call"/);
    assert.match(JSON.parse(banned.body).error.message, /^Forbidden: this token may not use the tools/);
    // A tools/call without credentials never reaches the tool.
    const call = await rawPost(url, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "whoami", arguments: {} },
    });
    assert.is(call.status, 401);

    const anonymous = await refusedConnection(url);
    assert.match(anonymous, /401|Unauthorized/);
    assert.is(await whoami(url, "good"), "you are ada");
  });
});

test("exposeErrors: true sends a failing tool's own text (as dispatch wrote it: redacted by default); a throwing authenticate is a 500 without its text by default", async () => {
  await withServer({ exposeErrors: true }, async (url) => {
    const client = await connect(url);
    try {
      const leaked = await client.callTool({ name: "leak", arguments: { table: "users" } }, undefined, TIMEOUT);
      // The tool's own message reaches the client; the registry's default redaction still takes the password out.
      assert.ok(text(leaked).includes("db.internal:5432/prod"), text(leaked));
      assert.not.ok(text(leaked).includes("hunter2"), text(leaked));
    } finally {
      await client.close();
    }
  });
  await withServer(
    {
      authenticate: () => {
        throw new Error(`cannot reach ${SECRET}`);
      },
    },
    async (url) => {
      const broken = await rawPost(url, INITIALIZE, { authorization: "Bearer x" });
      assert.is(broken.status, 500);
      assert.not.ok(broken.body.includes("hunter2"));
    },
  );
});

test("limits: bodies over maxBodyBytes (413), batches over maxBatchSize and unparsable JSON (400), other methods (405)", async () => {
  await withServer({ maxBodyBytes: 1000, maxBatchSize: 2 }, async (url) => {
    const big = await rawPost(url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "add", arguments: { values: Array(500).fill(1) } },
    });
    assert.is(big.status, 413);
    assert.match(JSON.parse(big.body).error.message, /at most 1000 bytes \(maxBodyBytes\)/);
    // Without Content-Length (chunked), the count while reading stops it too.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 20; i++) req.write("x".repeat(100));
      req.end();
    });
    assert.is(chunked, 413);
    const ping = { jsonrpc: "2.0", method: "notifications/initialized" };
    const batch = await rawPost(url, [ping, ping, ping]);
    assert.is(batch.status, 400);
    assert.match(
      JSON.parse(batch.body).error.message,
      /batch of 3 messages is more than this server takes \(2, maxBatchSize\)/,
    );
    const garbage = await rawPost(url, "{not json");
    assert.is(garbage.status, 400);
    assert.is(JSON.parse(garbage.body).error.code, -32700);
    const get = await fetch(url, { method: "GET", signal: AbortSignal.timeout(10_000) });
    assert.is(get.status, 405);
    assert.is(get.headers.get("allow"), "POST");
  });
  assert.throws(
    () => mcpHttpHandler(createMcpRegistry(), { maxBodyBytes: 0 }),
    /maxBodyBytes must be a positive number; got 0/,
  );
});

test.run();
