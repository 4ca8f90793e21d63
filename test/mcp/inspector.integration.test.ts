/**
 * A second, independent MCP client: the MCP Inspector's CLI mode (`@modelcontextprotocol/inspector`, run as a child
 * process) against mcpHttpHandler on loopback: tools/list with titles and annotations, tools/call (a result, an
 * invalid call as isError), a call with a progressToken answered over SSE with the progress notifications on the
 * wire, a foreign Origin refused, an unauthenticated request refused, and a DNS-rebinding attempt (a host name not
 * allowed: the same server reached as 127.0.0.2) refused. The CLI sends one request per run and has no way to
 * cancel, so cancellation is covered by the official client's tests only.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { mcpHttpHandler } from "tooltype/mcp";
import { REPO, run, type RunResult } from "../hosts/app";
import { createMcpRegistry } from "./tools";

const CLI = path.join(REPO, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
const AUTH = ["--header", "Authorization: Bearer inspector"];

/** Everything the server wrote, to see the notifications the CLI does not print. */
let wire = "";
let server: http.Server;
let port = 0;

/** One CLI run (one request), with a HOME of its own so that nothing of the user's is read or written. */
async function inspector(url: string, ...args: string[]): Promise<RunResult> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "inspector-home-"));
  try {
    return await run(process.execPath, [CLI, "--cli", url, ...args], REPO, { HOME: home });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

test.before(async () => {
  const handler = mcpHttpHandler(createMcpRegistry(), {
    authenticate: (request) =>
      request.headers.get("authorization") === "Bearer inspector" ? { user: "inspector" } : undefined,
  });
  server = http.createServer((req, res) => {
    const write = res.write.bind(res) as (chunk: unknown) => boolean;
    res.write = ((chunk: unknown) => {
      wire += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString();
      return write(chunk);
    }) as typeof res.write;
    void handler(req, res);
  });
  // Every loopback address: 127.0.0.1 is an allowed host name, 127.0.0.2 (loopback too) is not.
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

test.after(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

test("Inspector CLI: tools/list shows titles and annotations", async () => {
  const run = await inspector(`http://127.0.0.1:${port}/mcp`, "--method", "tools/list", ...AUTH);
  assert.is(run.code, 0, run.stderr);
  const { tools } = JSON.parse(run.stdout) as { tools: { name: string; title?: string; annotations?: object }[] };
  const add = tools.find((t) => t.name === "add")!;
  assert.is(add.title, "Adder");
  assert.equal(add.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  assert.equal(tools.find((t) => t.name === "remove_file")!.annotations, {
    destructiveHint: true,
    openWorldHint: false,
  });
});

test("Inspector CLI: tools/call answers, an invalid call is isError, ctx.auth is the authenticated caller", async () => {
  const sum = await inspector(
    `http://127.0.0.1:${port}/mcp`,
    "--method",
    "tools/call",
    "--tool-name",
    "add",
    "--tool-arg",
    "values=[1,2]",
    ...AUTH,
  );
  assert.is(sum.code, 0, sum.stderr);
  assert.equal(JSON.parse(sum.stdout).structuredContent, { total: 3, count: 2 });
  const who = await inspector(
    `http://127.0.0.1:${port}/mcp`,
    "--method",
    "tools/call",
    "--tool-name",
    "whoami",
    ...AUTH,
  );
  assert.is(JSON.parse(who.stdout).content[0].text, "you are inspector");
  const invalid = await inspector(
    `http://127.0.0.1:${port}/mcp`,
    "--method",
    "tools/call",
    "--tool-name",
    "add",
    "--tool-arg",
    'values=[1,"x"]',
    ...AUTH,
  );
  assert.is.not(invalid.code, 0);
  assert.match(invalid.stdout, /"isError": true/);
  assert.match(invalid.stdout, /invalid arguments for add:\\n- \/values\/1: must be a number; got \\"x\\"/);
});

test("Inspector CLI: a call with a progressToken is answered over SSE, the progress notifications on the wire", async () => {
  wire = "";
  const run = await inspector(
    `http://127.0.0.1:${port}/mcp`,
    "--method",
    "tools/call",
    "--tool-name",
    "count",
    "--tool-arg",
    "n=2",
    "--tool-metadata",
    "progressToken=p1",
    ...AUTH,
  );
  assert.is(run.code, 0, run.stderr);
  assert.is(JSON.parse(run.stdout).content[0].text, "counted to 2");
  const notes = [
    ...wire.matchAll(/"method":"notifications\/progress","params":\{"progressToken":"p1","progress":(\d)/g),
  ].map((m) => Number(m[1]));
  assert.equal(notes, [1, 2]);
});

test("Inspector CLI: no credentials, a foreign Origin, a host name not allowed: all refused", async () => {
  const anonymous = await inspector(`http://127.0.0.1:${port}/mcp`, "--method", "tools/list");
  assert.is.not(anonymous.code, 0);
  assert.match(anonymous.stdout + anonymous.stderr, /auth/i);
  assert.not.match(anonymous.stdout, /"tools"/);
  const foreign = await inspector(
    `http://127.0.0.1:${port}/mcp`,
    "--method",
    "tools/list",
    ...AUTH,
    "--header",
    "Origin: http://evil.example",
  );
  assert.is.not(foreign.code, 0);
  assert.match(foreign.stdout + foreign.stderr, /"status":403/);
  assert.match(foreign.stdout + foreign.stderr, /Origin .*http:\/\/evil\.example.* is not allowed/);
  // A rebinding page reaches the server under its own host name; here the name is 127.0.0.2, which is not allowed.
  const rebound = http.createServer(server.listeners("request")[0] as http.RequestListener);
  await new Promise<void>((resolve) => rebound.listen(0, "127.0.0.2", resolve));
  try {
    const reboundPort = (rebound.address() as { port: number }).port;
    const refused = await inspector(`http://127.0.0.2:${reboundPort}/mcp`, "--method", "tools/list", ...AUTH);
    assert.is.not(refused.code, 0);
    assert.match(refused.stdout + refused.stderr, /"status":403/);
    assert.match(refused.stdout + refused.stderr, /DNS rebinding protection/);
  } finally {
    await new Promise<void>((resolve) => {
      rebound.close(() => resolve());
      rebound.closeAllConnections();
    });
  }
});

test.run();
