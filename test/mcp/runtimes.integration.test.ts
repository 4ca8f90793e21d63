/**
 * The same Web-standard handler under Bun and Deno (the `bun` and `deno` npm packages; their binaries come from the
 * platform packages @oven/bun-linux-x64 and @deno/linux-x64-glibc, since npm here runs no install scripts): the
 * worker bundle of the Workers test served by Bun.serve and Deno.serve, driven by the official MCP client (list,
 * call, invalid call as isError), a foreign Origin refused, `authenticate` refusing and accepting, and the dispatch
 * route answering a scripted OpenAI reply.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { checkTools, INITIALIZE, rawPost, whoami, withClient } from "./support";
import { bundleWorker } from "./worker/bundle";
import { bunBinary } from "../hosts/app";
import { checkDispatchRoute } from "./worker/routes";
import { HANG_MS } from "../support/hang";

const REPO = path.resolve(__dirname, "../../..");

interface Runtime {
  name: string;
  /** Its binary (from its npm platform package). */
  binary: () => string;
  args: (bundle: string) => string[];
  env?: Record<string, string>;
}

/** A runtime's binary from its npm platform package (`<scope>/<prefix><platform>…/<file>`). */
function platformBinary(scope: string, prefix: string, file: string): string {
  const dir = path.join(REPO, "node_modules", scope);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((d) => d.startsWith(prefix)) : [];
  const found = names.map((d) => path.join(dir, d, file)).find((f) => fs.existsSync(f));
  if (!found)
    throw new Error(
      `No ${file} binary under ${dir}: run npm install (it comes in an optional platform package such as ${scope}/${prefix}…).`,
    );
  return found;
}

const RUNTIMES: Runtime[] = [
  {
    name: "Bun.serve",
    binary: bunBinary,
    args: (bundle) => [path.join(REPO, "test/mcp/worker/bun-serve.mjs"), bundle],
  },
  {
    name: "Deno.serve",
    binary: () => platformBinary("@deno", `${process.platform}-`, "deno"),
    args: (bundle) => [
      "run",
      "--allow-net",
      "--allow-read",
      path.join(REPO, "test/mcp/worker/deno-serve.mjs"),
      pathToFileURL(bundle).href,
    ],
    // Offline: no upgrade check; its cache in a temporary folder.
    env: { DENO_NO_UPDATE_CHECK: "1", DENO_DIR: path.join(os.tmpdir(), "tooltype-deno-cache") },
  },
];

/** Starts `runtime` serving the bundle; resolves with its base URL once it prints its port. */
function serve(runtime: Runtime, bundle: string, started: (child: ChildProcess) => void): Promise<URL> {
  const child = spawn(runtime.binary(), runtime.args(bundle), {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...runtime.env },
  });
  started(child);
  let output = "";
  return new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${runtime.name} did not start (a hang):\n${output}`)), HANG_MS);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(new URL(`http://127.0.0.1:${port}`));
      }
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("exit", (code) => reject(new Error(`${runtime.name} exited (${code}):\n${output}`)));
  });
}

for (const runtime of RUNTIMES) {
  const it = suite(runtime.name);
  let child: ChildProcess | undefined;
  let base: URL;

  it.before(async () => {
    const bundle = await bundleWorker(
      path.join(__dirname, "worker", `dist-${runtime.name.split(".")[0]!.toLowerCase()}-${process.pid}`),
    );
    base = await serve(runtime, bundle.file, (c) => (child = c));
  });

  it.after(() => {
    child?.kill();
  });

  it(`${runtime.name}: the official client lists and calls the tools; an invalid call is an isError result`, async () => {
    await withClient(new URL("/mcp", base), {}, checkTools);
  });

  it(`${runtime.name}: a foreign Origin is refused; authenticate answers 401 without credentials and lets the token in`, async () => {
    assert.is((await rawPost(new URL("/mcp", base), INITIALIZE, { origin: "http://evil.example" })).status, 403);
    const secure = new URL("/secure/mcp", base);
    const none = await rawPost(secure, INITIALIZE);
    assert.is(none.status, 401);
    assert.match(String(none.headers["www-authenticate"]), /^Bearer /);
    assert.is(await whoami(secure, "runtime-token"), "you are worker-user");
  });

  it(`${runtime.name}: the dispatch route answers a scripted OpenAI reply`, async () => {
    await checkDispatchRoute(base);
  });

  it.run();
}
