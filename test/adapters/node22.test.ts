/**
 * `ai` 7, `@langchain/openai` and `@mastra/core` ask for Node 22 while the suite runs on Node 20: their adapter
 * tests run a second time under Node 22, from the `node` package on the npm registry (`npx -p node@22`, cached after
 * the first run), exactly as compiled. Each child process has a time limit.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

function run(args: string[], timeout: number): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  env.NO_UPDATE_NOTIFIER = "1";
  return new Promise((resolve) => {
    execFile(npx, ["-y", "-p", "node@22", "--", "node", ...args], { cwd: repo, env, timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: `${String(stdout)}${String(stderr)}${error?.killed ? `\n(killed after ${timeout} ms)` : ""}` });
    });
  });
}

test("the AI SDK, LangChain and Mastra adapter tests pass under Node 22 too", async () => {
  const version = await run(["-p", "process.version"], 180_000);
  assert.is(version.code, 0, version.output);
  assert.match(version.output.trim(), /^v22\./);

  const uvu = path.join(repo, "node_modules", "uvu", "bin.js");
  const result = await run([uvu, ".test-build/test", "adapters/(ai|langchain|mastra)\\.test\\.js$"], 180_000);
  const plain = result.output.replace(/\u001b\[[0-9;]*m/g, "");
  assert.is(result.code, 0, plain);
  const total = /Total:\s+(\d+)/.exec(plain);
  const passed = /Passed:\s+(\d+)/.exec(plain);
  assert.ok(total && passed && Number(total[1]) >= 8 && total[1] === passed[1], plain);
});

test.run();
