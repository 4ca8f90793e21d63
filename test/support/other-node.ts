/**
 * Running part of the suite under another Node release line than the one running the suite (Node 20): the `node`
 * package of that major from the npm registry (`npx -p node@22`), cached by npm after the first run, with the
 * compiled tests as they are. Each child process has a time limit.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import * as assert from "uvu/assert";
import { stripVTControlCharacters } from "node:util";
import { HANG_MS } from "./hang";

const repo = path.resolve(__dirname, "../../..");
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

export interface NodeRun {
  code: number;
  /** stdout then stderr, colours removed. */
  output: string;
}

/**
 * `node ...args` under the latest release of Node `major` (or under the release named, "20.18.3"), from the
 * repository's root; `extraEnv` on top of this process's.
 */
export function runUnderNode(
  major: number | string,
  args: string[],
  timeout: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<NodeRun> {
  const env: NodeJS.ProcessEnv = {};
  // npm's own variables would point the child's npm at this suite's npm run.
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  env.NO_UPDATE_NOTIFIER = "1";
  Object.assign(env, extraEnv);
  return new Promise((resolve) => {
    execFile(
      npx,
      ["-y", "-p", `node@${major}`, "--", "node", ...args],
      { cwd: repo, env, timeout, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        const output = `${String(stdout)}${String(stderr)}${error?.killed ? `\n(killed after ${timeout} ms)` : ""}`;
        resolve({ code, output: stripVTControlCharacters(output) });
      },
    );
  });
}

/** The binary of Node `release` ("20.18.3"), fetched as `runUnderNode` does, to be run without npx. */
export async function nodeBinary(release: string): Promise<string> {
  const found = await runUnderNode(release, ["-p", "process.execPath"], HANG_MS);
  assert.is(found.code, 0, found.output);
  // stdout comes first; npm's notices, if any, after it.
  return found.output.split("\n")[0]!.trim();
}

/**
 * Runs the compiled test files matching `pattern` (a regular expression over paths under .test-build/test) under
 * Node `major`, and checks that it is that major and that every test passed, at least `atLeast` of them.
 */
export async function passUnderNode(major: number, pattern: string, atLeast: number, timeout = HANG_MS): Promise<void> {
  const version = await runUnderNode(major, ["-p", "process.version"], timeout);
  assert.is(version.code, 0, version.output);
  assert.match(version.output.trim(), new RegExp(`^v${major}\\.`));
  const uvu = path.join(repo, "node_modules", "uvu", "bin.js");
  const result = await runUnderNode(major, [uvu, ".test-build/test", pattern], timeout);
  assert.is(result.code, 0, `Node ${version.output.trim()}:\n${result.output}`);
  const total = /Total:\s+(\d+)/.exec(result.output);
  const passed = /Passed:\s+(\d+)/.exec(result.output);
  assert.ok(
    total && passed && Number(total[1]) >= atLeast && total[1] === passed[1],
    `Node ${version.output.trim()}:\n${result.output}`,
  );
}

/**
 * What depends on the Node release, run again under the lines users run and not only the suite's Node 20, which runs
 * everything: the package entry tests (what `require` and `import` of each entry load, and when) under every line,
 * and the other suites each under the lines where the release changes what they test.
 * - `register`, the tooltype/register tests: Node 20 takes `module.register` and the require hook; 22 and later take
 *   `module.registerHooks`, where tsx's synchronous hooks load CommonJS files too, and Node 26 deprecates
 *   `module.register` at run time. Run under 22 (the oldest line on the hooks) and 26 (the newest); 24 takes the hooks
 *   as 22 does.
 * - `bundlers`, each bundler with its plugin: tsup 9 asks for Node 22.18 or later, and tsdown does from 0.22.
 * - `served`, the MCP server, MCP client and end-to-end tests (Node's HTTP server, fetch and streams, driven by the
 *   real SDKs): under the active LTS line, 24, beside the suite's 20. The MCP tests whose subject is another program
 *   (the MCP Inspector; the worker under workerd, Bun and Deno) and the conformance suite (its CLI runs under Node 22
 *   whatever Node runs its test) do not change with the release and run under 20 only.
 */
export async function passReleaseDependentSuites(
  major: number,
  { register = false, bundlers = false, served = false }: { register?: boolean; bundlers?: boolean; served?: boolean },
): Promise<void> {
  const hosts = [register && "register", bundlers && "bundlers"].filter(Boolean).join("|");
  const suites = [
    hosts && `hosts/(${hosts})\\.test`,
    "package/(node|provider)-entry\\.test",
    served && "(mcp/(?!(inspector|runtimes|workers|conformance)\\.)|e2e/).*\\.test",
  ].filter(Boolean);
  const pattern = `(${suites.join("|")})\\.js$`;
  // The tests each part holds today: a part whose file stopped matching would pass with fewer.
  const atLeast = 11 + (register ? 6 : 0) + (bundlers ? BUNDLER_TESTS : 0) + (served ? 33 : 0);
  // Several suites in one run: a hang is a longer wait than one child's.
  await passUnderNode(major, pattern, atLeast, 2 * HANG_MS);
}

/** The bundler tests that run under Node 22 (hosts/bundlers.test.ts). */
const BUNDLER_TESTS = 8;
