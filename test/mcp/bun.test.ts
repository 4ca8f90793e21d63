/**
 * The same Web-standard handler under Bun (the `bun` npm package's binary, from its platform package since npm here
 * runs no install scripts): the worker bundle of the Workers test served by Bun.serve, driven by the official MCP
 * client (list, call, invalid call as isError), a foreign Origin refused, `authenticate` refusing and accepting,
 * and the dispatch route answering a scripted OpenAI reply.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkTools, INITIALIZE, rawPost, whoami, withClient } from "./support";
import { bundleWorker } from "./worker/bundle";
import { checkDispatchRoute } from "./worker/routes";

const REPO = path.resolve(__dirname, "../../..");
let bun: ChildProcess | undefined;
let base: URL;

/** Bun's binary from its npm platform package (`@oven/bun-<platform>-<arch>…`). */
function bunBinary(): string {
  const dir = path.join(REPO, "node_modules", "@oven");
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((d) => d.startsWith(`bun-${process.platform}-`)) : [];
  const found = names.map((d) => path.join(dir, d, "bin", "bun")).find((file) => fs.existsSync(file));
  if (!found) throw new Error(`No Bun binary under ${dir}: run npm install (Bun comes in an optional package such as @oven/bun-linux-x64).`);
  return found;
}

test.before(async () => {
  const bundle = await bundleWorker(path.join(__dirname, "worker", "dist-bun"));
  const child = spawn(bunBinary(), [path.join(REPO, "test/mcp/worker/bun-serve.mjs"), bundle.file], { stdio: ["ignore", "pipe", "pipe"] });
  bun = child;
  let output = "";
  base = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Bun did not start within 20 s:\n${output}`)), 20_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(new URL(`http://127.0.0.1:${port}`));
      }
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("exit", (code) => reject(new Error(`Bun exited (${code}):\n${output}`)));
  });
});

test.after(() => {
  bun?.kill();
});

test("Bun.serve: the official client lists and calls the tools; an invalid call is an isError result", async () => {
  await withClient(new URL("/mcp", base), {}, checkTools);
});

test("Bun.serve: a foreign Origin is refused; authenticate answers 401 without credentials and lets the token in", async () => {
  assert.is((await rawPost(new URL("/mcp", base), INITIALIZE, { origin: "http://evil.example" })).status, 403);
  const secure = new URL("/secure/mcp", base);
  const none = await rawPost(secure, INITIALIZE);
  assert.is(none.status, 401);
  assert.match(String(none.headers["www-authenticate"]), /^Bearer /);
  assert.is(await whoami(secure, "bun-token"), "you are worker-user");
});

test("Bun.serve: the dispatch route answers a scripted OpenAI reply", async () => {
  await checkDispatchRoute(base);
});

test.run();
