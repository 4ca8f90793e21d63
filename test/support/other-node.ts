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
 * What depends on the Node release, run again under the lines users run and not only the suite's Node 20: the
 * tooltype/register tests, the package entry tests (what `require` and `import` of each entry load, and when), and
 * the MCP server, MCP client and end-to-end tests (Node's HTTP server, fetch and streams, driven by the real SDKs).
 * Node 20 takes `module.register` and the require hook; the latest 22, 24 and 26 take `module.registerHooks`, where
 * tsx's synchronous hooks load CommonJS files too and `module.register` is deprecated (Node 26 warns at run time).
 *
 * With `all`, also each bundler with its plugin (tsup 9 asks for Node 22.18 or later, and tsdown does from 0.22) and
 * the MCP tests whose subject is another program (the MCP Inspector; the worker under workerd, Bun and Deno). Those
 * run under one line more than Node 20 only: what they test does not change with the release, and they are the
 * costliest part of the suite. Without `network`, only the module-loading suites (tooltype/register, the package
 * entries): the newest line, whose change is in module loading (`module.register` deprecated), runs those, while
 * Node's HTTP server, fetch and streams are the LTS lines' (20, 22, 24).
 */
export async function passReleaseDependentSuites(
  major: number,
  { all, network = true }: { all: boolean; network?: boolean },
): Promise<void> {
  const hosts = all ? "register|bundlers" : "register";
  // The conformance suite runs under Node 22 already, whatever Node runs its test.
  const mcp = all ? "mcp/(?!conformance\\.)" : "mcp/(?!(inspector|runtimes|workers|conformance)\\.)";
  const served = network ? `|(${mcp}|e2e/).*\\.test` : "";
  const pattern = `((hosts/(${hosts})|package/node-entry|package/provider-entry)\\.test${served})\\.js$`;
  // Several suites in one run: a hang is a longer wait than one child's.
  await passUnderNode(major, pattern, network ? (all ? 68 : 50) : 17, 2 * HANG_MS);
}
