/**
 * The benchmarks' smoke run (`npm run bench -- --smoke`): builds bench/ with tspc and the transformer, then runs
 * every benchmark at tiny sizes. It proves that each one runs end to end and that the sides it compares answer
 * alike (the dispatch contents of tooltype, the floor and LangChain.js; the exported schemas and answers of the
 * generated tools on both sides; the plugin's build output). No timing is asserted: the figures of a smoke run mean
 * nothing. Each child process has a time limit, and the committed results (bench/RESULTS.md, the summary in
 * docs/performance.md)
 * must stay untouched.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");
const BUILD_TIMEOUT_MS = HANG_MS;
const SMOKE_TIMEOUT_MS = HANG_MS;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], timeout: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: repo, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      const note = error?.killed ? `\n(killed after ${timeout} ms)` : "";
      resolve({ code, stdout: String(stdout), stderr: String(stderr) + note });
    });
  });
}

function read(file: string): string | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
}

test("bench --smoke: every benchmark runs end to end and the compared sides answer alike", async () => {
  const committed = path.join(repo, "bench", "RESULTS.md");
  const readme = path.join(repo, "docs", "performance.md");
  const before = read(committed);
  const readmeBefore = read(readme);

  const build = await run(
    [path.join(repo, "node_modules", "ts-patch", "bin", "tspc.js"), "-p", "bench/tsconfig.json"],
    BUILD_TIMEOUT_MS,
  );
  assert.is(build.code, 0, `tspc -p bench/tsconfig.json failed:\n${build.stdout}\n${build.stderr}`);

  const smoke = await run(["--expose-gc", path.join(".bench-build", "bench", "run.js"), "--smoke"], SMOKE_TIMEOUT_MS);
  assert.is(smoke.code, 0, `the smoke run failed:\n${smoke.stderr}\n${smoke.stdout}`);
  assert.ok(smoke.stdout.includes("bench smoke: every benchmark ran and every check passed"), smoke.stdout);
  for (const section of [
    "## Targets",
    "## Dispatch: one Chat Completions message with one call",
    "## Dispatch: one Chat Completions message with 10 parallel calls",
    "## Cold start:",
    "## Build:",
    "## Memory:",
    "## TypeScript 7 and 5.9:",
    "## Bundle: an app dispatching compiled tools in OpenAI's format",
  ]) {
    assert.ok(smoke.stdout.includes(section), `missing "${section}" in:\n${smoke.stdout}`);
  }
  // The checks the run made before timing, as it reports them.
  assert.match(smoke.stdout, /1 call\(s\): tooltype, floor and LangChain\.js answer identically/);
  assert.match(smoke.stdout, /10 call\(s\): tooltype, floor and LangChain\.js answer identically/);
  assert.match(smoke.stdout, /invalid arguments \(days: 40\) are refused by all/);
  assert.match(smoke.stdout, /both sides registered and exported all \d+ generated tools/);
  assert.match(smoke.stdout, /the plugin's output carries compiled metadata/);

  assert.ok(
    fs.existsSync(path.join(repo, ".bench-build", "RESULTS.smoke.md")),
    "the smoke run writes .bench-build/RESULTS.smoke.md",
  );
  assert.is(read(committed), before, "the smoke run must not overwrite bench/RESULTS.md");
  assert.is(read(readme), readmeBefore, "the smoke run must not touch the results in docs/performance.md");
});

test.run();
