/**
 * `tooltype/mcp`'s declarations in a user's project, with `skipLibCheck` off: an ES module project (nodenext,
 * `"type": "module"`) and a CommonJS one (node16), each with and without `@types/node`. Each imports the entry's
 * every export and serves over a transport made with the SDK (tooltype/mcp ships ES module declarations for
 * `import` and CommonJS ones for `require`, `fromMCP`'s naming the SDK's matching set); with `@types/node`, Node's
 * `http.createServer` takes `mcpHttpHandler`'s handler. The projects sit
 * away from this repository's node_modules/@types, with tooltype, the MCP SDK and (where asked) @types/node linked
 * as installed packages.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-mcp-types-"));

const USES = `import * as mcp from "tooltype/mcp";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolRegistry } from "tooltype";

// docs/providers.md's use: a transport the project makes with the SDK (imported the way this project imports it,
// ES module or CommonJS declarations), handed to tooltype's server, which takes any transport of that shape.
export const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
export const served: Promise<mcp.MCPServer> = mcp.serveMCP(new ToolRegistry([]), serverSide, { name: "x", version: "1.0.0" });
export const server: mcp.MCPServer = mcp.createMCPServer(new ToolRegistry([]));
export const connected: Promise<void> = server.connect(InMemoryTransport.createLinkedPair()[1]);
export const handler = mcp.mcpHttpHandler(new ToolRegistry([]));
export const fetchHandler: (request: Request) => Promise<Response> = mcp.mcpFetchHandler(new ToolRegistry([]));
export type Exports = keyof typeof mcp;
`;

const WITH_NODE = `import { createServer } from "node:http";
import { handler } from "./uses.js";

export const http = createServer((req, res) => void handler(req, res));
`;

/** The control: the same project importing the SDK alone, which tooltype/mcp may not add an error to. */
const SDK_ALONE = `import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";

export const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
export const server = new Server({ name: "x", version: "1.0.0" });
`;

function project(name: string, kind: "module" | "commonjs", withNode: boolean, uses = USES): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.mkdirSync(path.join(dir, "node_modules", "@modelcontextprotocol"), { recursive: true });
  fs.symlinkSync(repo, path.join(dir, "node_modules", "tooltype"), "dir");
  fs.symlinkSync(
    path.join(repo, "node_modules", "@modelcontextprotocol", "sdk"),
    path.join(dir, "node_modules", "@modelcontextprotocol", "sdk"),
    "dir",
  );
  if (withNode) {
    fs.mkdirSync(path.join(dir, "node_modules", "@types"));
    fs.symlinkSync(
      path.join(repo, "node_modules", "@types", "node"),
      path.join(dir, "node_modules", "@types", "node"),
      "dir",
    );
  }
  const module = kind === "module" ? "nodenext" : "node16";
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, type: kind }));
  // The tsconfig of docs/building.md with this project's module kind; skipLibCheck off, the default.
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module, strict: true, rootDir: "src", noEmit: true, lib: ["ES2022", "DOM"] },
      include: ["src"],
    }),
  );
  fs.writeFileSync(path.join(dir, "src", "uses.ts"), uses);
  if (withNode && uses === USES) fs.writeFileSync(path.join(dir, "src", "with-node.ts"), WITH_NODE);
  return dir;
}

function tsc(dir: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repo, "node_modules", "typescript", "bin", "tsc"), "-p", "."],
      { cwd: dir, timeout: HANG_MS },
      (error, stdout, stderr) => resolve(error ? `${stdout}${stderr}` || String(error) : ""),
    );
  });
}

test("tooltype/mcp type-checks in ES module and CommonJS projects, with and without @types/node, skipLibCheck off", async () => {
  const kinds = ["module", "commonjs"] as const;
  const cases = kinds.flatMap((kind) =>
    [true, false].map((withNode) => ({ kind, withNode, name: `${kind}-${withNode ? "node-types" : "no-node-types"}` })),
  );
  const [results, sdkAlone] = await Promise.all([
    Promise.all(cases.map(async (c) => ({ ...c, out: await tsc(project(c.name, c.kind, c.withNode)) }))),
    tsc(project("commonjs-sdk-alone", "commonjs", false, SDK_ALONE)),
  ]);
  // The SDK's own CommonJS declarations have errors of their own under skipLibCheck off (TS1541 in
  // dist/cjs/validation/types.d.ts): a project importing the SDK alone reports them too. Nothing more is allowed; an ES
  // module project reports nothing at all.
  const lines = (out: string): string[] =>
    out
      .split("\n")
      .filter((l) => /error TS\d+/.test(l))
      .map((l) => l.replace(/^.*?node_modules\//, "node_modules/"));
  for (const { name, kind, out } of results) {
    const own = kind === "commonjs" ? lines(sdkAlone) : [];
    assert.equal(
      lines(out).filter((l) => !own.includes(l)),
      [],
      `${name}: tsc reports nothing the SDK alone does not:\n${out}`,
    );
    assert.ok(!/src\//.test(out), `${name}: no error in the project's own files:\n${out}`);
  }
});

test.after(() => fs.rmSync(root, { recursive: true, force: true }));

test.run();
