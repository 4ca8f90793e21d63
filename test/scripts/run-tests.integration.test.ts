/**
 * The test runner `npm test` ends with (scripts/run-tests.mjs), on a folder of small test files of its own: CI is
 * only as honest as the runner's exit code, so a failing test, a file that hangs and a passing file whose output
 * quotes another run's summary must each be reported as what they are; a run stopped from outside stops what it
 * started and exits as a shell reports that signal.
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { stripVTControlCharacters } from "node:util";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");
const runner = path.join(repo, "scripts", "run-tests.mjs");
const uvu = JSON.stringify(path.join(repo, "node_modules", "uvu"));
const uvuAssert = JSON.stringify(path.join(repo, "node_modules", "uvu", "assert"));

function runRunner(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [runner, ...args],
      { cwd: repo, env: { ...process.env, ...env }, timeout: HANG_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: stripVTControlCharacters(`${stdout}${stderr}`) });
      },
    );
  });
}

/** Whether `pid` still runs: a process killed but not yet reaped (a zombie, on Linux) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !(fs.existsSync(stat) && /\) Z /.test(fs.readFileSync(stat, "utf8")));
}

/** Whether `pid` still runs after waiting for it to end as long as a hang takes (a SIGKILL's delivery is not instant). */
async function stillAliveAfterHang(pid: number): Promise<boolean> {
  const deadline = Date.now() + HANG_MS;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return alive(pid);
}

/** A test file that starts a child process, writes its pid to `pidFile` and never ends. */
function hangingFile(pidFile: string): string {
  return `const { test } = require(${uvu}); const { spawn } = require("node:child_process"); const fs = require("node:fs");
test("hangs", () => new Promise(() => {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  fs.writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
}));
test.run();`;
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
}

test("failures, a hang (its child processes stopped too) and a quoted summary are reported as they are; the exit code says so", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-runner-"));
  const pidFile = path.join(root, "grandchild.pid");
  const files: Record<string, string> = {
    "a/pass.test.js": `const { test } = require(${uvu}); test("passes", () => {}); test.run();`,
    "a/fail.test.js": `const { test } = require(${uvu}); const assert = require(${uvuAssert});
test("fails", () => assert.ok(false, "the-expected-failure")); test.run();`,
    // A passing file that prints another run's summary before its own (as a test of other Node releases may).
    "b/quoted.test.js": `const { test } = require(${uvu}); test("quotes", () => console.log("  Total:     9\\n  Passed:    0")); test.run();`,
    // hosts/ files run in a process of their own; this one starts a child process and never ends.
    "hosts/hang.test.js": hangingFile(pidFile),
  };
  try {
    writeTree(root, files);
    const all = await runRunner([`--root=${root}`, "--jobs=2", "^(a|b)/"]);
    assert.is(all.code, 1, all.output);
    assert.match(all.output, /3 test files in 2 processes, 2 at a time/);
    assert.match(all.output, /FAIL a\/ {2}1\/2 .*: 1 of 2 failed/);
    assert.ok(all.output.includes("the-expected-failure"), all.output);
    assert.match(all.output, /ok {3}b\/ {2}1\/1 /);
    assert.match(all.output, /Total: 3 {2}Passed: 2 {2}Files: 3/);
    assert.match(all.output, /Failed: .*a\/ \(1 of 2 failed\)/);

    // The hanging file alone, so that the short process limit can stop nothing else however loaded the machine.
    const hang = await runRunner([`--root=${root}`, "^hosts/"], { TEST_PROCESS_TIMEOUT_MS: "3000" });
    assert.is(hang.code, 1, hang.output);
    assert.match(hang.output, /FAIL hosts\/hang\.test\.js .*: stopped after 3 s \(TEST_PROCESS_TIMEOUT_MS\)/);
    // On a loaded machine the file may be stopped before it started its child; if it did start it, it is gone.
    if (fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8") !== "") {
      const grandchild = Number(fs.readFileSync(pidFile, "utf8"));
      assert.ok(
        grandchild > 0 && !(await stillAliveAfterHang(grandchild)),
        "the hanging file's child process was stopped with it",
      );
    }

    const some = await runRunner(["^b/", `--root=${root}`]);
    assert.is(some.code, 0, some.output);
    assert.match(some.output, /1 test files in 1 processes/);
    assert.match(some.output, /Total: 1 {2}Passed: 1 {2}Files: 1/);

    const none = await runRunner(["^nothing/", `--root=${root}`]);
    assert.is(none.code, 1, none.output);
    assert.ok(none.output.includes(`No test files under ${root} match /^nothing\\//.`), none.output);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("--slowest lists the slowest tests, each with its file and wall and CPU seconds, also those of a suite(); then each process's CPU seconds and their sum; the run's result is unchanged; its files are removed", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-runner-"));
  try {
    writeTree(root, {
      "a/quick.test.js": `const { test } = require(${uvu}); test("quick one", () => {}); test.run();`,
      "a/slow.test.js": `const { suite } = require(${uvu}); const s = suite("slow"); s("waits 400 ms", () => new Promise((r) => setTimeout(r, 400))); s.run();`,
      "b/fail.test.js": `const { test } = require(${uvu}); const assert = require(${uvuAssert}); test("fails anyway", () => assert.ok(false)); test.run();`,
    });
    // The runner's temporary files go under TMPDIR: a folder of the test's own, to see that they are removed.
    const scratch = path.join(root, "tmp");
    fs.mkdirSync(scratch);
    const run = await runRunner([`--root=${root}`, "--slowest=2"], { TMPDIR: scratch });
    assert.is(run.code, 1, run.output);
    assert.match(run.output, /Total: 3 {2}Passed: 2 {2}Files: 3/);
    const listed = run.output.slice(run.output.indexOf("The 2 slowest tests (wall, CPU):")).split("\n").slice(1, 3);
    const slowest = /^ +(\d+\.\d) s +(\d+\.\d) s {2}a\/slow\.test\.js {2}waits 400 ms$/.exec(listed[0]!);
    // Waiting is wall time and no CPU time.
    assert.ok(slowest && Number(slowest[1]) >= 0.4 && Number(slowest[2]) < 0.4, run.output);
    assert.is(listed.length, 2, run.output);
    // Each process's own CPU time, and their sum.
    const cpu = run.output.slice(run.output.indexOf("CPU time by process")).split("\n").slice(1, 4);
    const seconds = cpu.map((line) => /^ +(\d+\.\d) s {2}(a\/|b\/|in all)$/.exec(line));
    assert.ok(seconds.every(Boolean), run.output);
    assert.equal(
      seconds
        .map((m) => m![2])
        .slice(0, 2)
        .sort(),
      ["a/", "b/"],
    );
    assert.is(seconds[2]![2], "in all");
    assert.ok(Math.abs(Number(seconds[0]![1]) + Number(seconds[1]![1]) - Number(seconds[2]![1])) <= 0.11, run.output);
    assert.equal(fs.readdirSync(scratch), [], "the timing files are removed after the run");
    const none = await runRunner(["^nothing/", `--root=${root}`, "--slowest"], { TMPDIR: scratch });
    assert.is(none.code, 1, none.output);
    assert.equal(fs.readdirSync(scratch), [], "a run with no test files leaves no timing folder");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("--tier: files under hosts/, package/, docs/, bench/ and e2e/ and files named *.integration.test.js are the integration tier, one process each; the rest the unit tier", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-runner-"));
  const passing = (name: string) =>
    `const { test } = require(${uvu}); test(${JSON.stringify(name)}, () => {}); test.run();`;
  try {
    writeTree(root, {
      "a/one.test.js": passing("a unit test"),
      "a/two.test.js": passing("another unit test"),
      "a/spawns.integration.test.js": passing("an integration test beside them"),
      "e2e/round-trip.test.js": passing("an end-to-end test"),
      "package/pack.test.js": passing("a packaging test"),
    });
    const unit = await runRunner([`--root=${root}`, "--tier=unit"]);
    assert.is(unit.code, 0, unit.output);
    assert.match(unit.output, /2 test files in 1 processes/);
    assert.match(unit.output, /ok {3}a\/ {2}2\/2 /);
    const integration = await runRunner([`--root=${root}`, "--tier=integration"]);
    assert.is(integration.code, 0, integration.output);
    assert.match(integration.output, /3 test files in 3 processes/);
    for (const file of ["a/spawns.integration.test.js", "e2e/round-trip.test.js", "package/pack.test.js"])
      assert.ok(integration.output.includes(`ok   ${file}  1/1`), integration.output);
    const both = await runRunner([`--root=${root}`]);
    assert.match(both.output, /5 test files in 4 processes/);
    const wrong = await runRunner([`--root=${root}`, "--tier=fast"]);
    assert.is(wrong.code, 2, wrong.output);
    assert.ok(wrong.output.includes("--tier=fast: the tiers are unit and integration."), wrong.output);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("SIGINT and SIGTERM stop the run and the test processes' children; the exit code is 130 or 143", async () => {
  for (const [signal, expected] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-runner-"));
    const pidFile = path.join(root, "grandchild.pid");
    writeTree(root, { "hosts/hang.test.js": hangingFile(pidFile) });
    const run = spawn(process.execPath, [runner, `--root=${root}`], { cwd: repo, stdio: "ignore" });
    const exited = new Promise<number | null>((resolve) => run.on("exit", (code) => resolve(code)));
    try {
      const deadline = Date.now() + HANG_MS;
      while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, "utf8") === "") {
        assert.ok(Date.now() < deadline, "the hanging file never started its child");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      run.kill(signal);
      assert.is(await exited, expected, `exit code after ${signal}`);
      const grandchild = Number(fs.readFileSync(pidFile, "utf8"));
      assert.ok(!(await stillAliveAfterHang(grandchild)), `${signal}: the hanging file's child process was stopped`);
    } finally {
      // A failed check above leaves the runner running: its own SIGTERM handling stops it and its test process.
      if (run.exitCode === null && run.signalCode === null) run.kill("SIGTERM");
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
});

test.run();
