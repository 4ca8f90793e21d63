/**
 * The name and version an MCP server introduces itself with when its options give none (runtime/mcp/server-info.ts):
 * the app's, from the package.json nearest its main module, else the working directory's; `tooltype-server` and
 * tooltype's version where there is none. Each case runs in a process of its own (the lookup is made once per
 * process) in a folder under the system's temp folder, with the runtime this test runs on.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TOOLTYPE_VERSION } from "../../runtime/mcp/server-info";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-server-info-"));
const entries = { mcp: require.resolve("tooltype/mcp"), main: require.resolve("tooltype") };

/** A script printing the serverInfo of createMCPServer, mcpFetchHandler's `server/discover`, and serveMCP's given name. */
const SCRIPT = `const { createMCPServer, mcpFetchHandler } = require(${JSON.stringify(entries.mcp)});
const { ToolRegistry } = require(${JSON.stringify(entries.main)});
(async () => {
  const registry = new ToolRegistry([]);
  const discover = await mcpFetchHandler(registry)(new Request("http://127.0.0.1/", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" } } } }),
  }));
  const text = await discover.text();
  const found = JSON.parse(text).result?._meta?.["io.modelcontextprotocol/serverInfo"] ?? text;
  console.log(JSON.stringify({
    server: createMCPServer(registry).serverInfo,
    fetch: found,
    named: createMCPServer(registry, { name: "given", version: "9.9.9" }).serverInfo,
  }));
})();
`;

function run(script: string, cwd: string): Promise<{ server: unknown; fetch: unknown; named: unknown }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script], { cwd, timeout: HANG_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

test("TOOLTYPE_VERSION is package.json's version", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string };
  assert.is(TOOLTYPE_VERSION, manifest.version);
});

test("without a name, a server is the app's: the package.json nearest its main module, a nameless one skipped", async () => {
  const app = path.join(root, "app");
  write(path.join(app, "package.json"), JSON.stringify({ name: "weather-tools", version: "2.3.4" }));
  // A build folder's own package.json names no package: not the app's.
  write(path.join(app, "dist", "package.json"), JSON.stringify({ type: "commonjs" }));
  const script = write(path.join(app, "dist", "server.js"), SCRIPT);
  const shown = await run(script, os.tmpdir());
  assert.equal(shown.server, { name: "weather-tools", version: "2.3.4" });
  assert.equal(shown.fetch, { name: "weather-tools", version: "2.3.4" });
  assert.equal(shown.named, { name: "given", version: "9.9.9" });
});

test("a main module that finds none falls back to the working directory's package.json, then to tooltype-server", async () => {
  const loose = write(path.join(root, "loose", "server.js"), SCRIPT);
  const project = path.join(root, "project");
  write(path.join(project, "package.json"), JSON.stringify({ name: "@acme/catalog", private: true }));
  // The temp folder's ancestors hold no package.json on a test machine; if one did, this case would say so.
  const above = path.dirname(root);
  assert.not.ok(fs.existsSync(path.join(above, "package.json")), `${above} holds a package.json`);
  const [fromCwd, none] = await Promise.all([run(loose, project), run(loose, root)]);
  // No version in the app's package.json: tooltype's.
  assert.equal(fromCwd.server, { name: "@acme/catalog", version: TOOLTYPE_VERSION });
  assert.equal(none.server, { name: "tooltype-server", version: TOOLTYPE_VERSION });
  assert.equal(none.fetch, { name: "tooltype-server", version: TOOLTYPE_VERSION });
});

test.after(() => fs.rmSync(root, { recursive: true, force: true }));

test.run();
