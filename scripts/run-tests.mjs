#!/usr/bin/env node
/**
 * Runs the compiled test files (.test-build/test/**\/*.test.js) in several uvu processes, several at a time.
 *
 * Two tiers, by where a file sits or how it is named (the design page's testing section says the same):
 * - integration: every file under hosts/, package/, docs/, bench/ and e2e/, and every `*.integration.test.ts`
 *   elsewhere; these build whole projects, pack the package, run other Node releases or runtimes, spawn bundlers or
 *   servers, for up to minutes. One process per file.
 * - unit: every other file; in-process tests of the runtime, the transformer, the validator, dispatch, the providers,
 *   the agent loop, MCP, run from the sources: `tooltype` is the test build's copy (Node's `--conditions=tooltype-
 *   sources`, see scripts/build-tests.mjs), never dist/. One process per folder (its files load TypeScript, the SDKs
 *   and tooltype once). Run as the unit tier alone (the inner loop), the property-based fuzz runs a quarter of its
 *   cases (FUZZ_SCALE=0.25 unless FUZZ_SCALE is set); a whole run runs them all.
 *
 * Why not one `uvu` process for the whole suite: a file that waits on its child processes (compilers, bundlers,
 * other Node releases) leaves a core idle; and a single process accumulates every file's heap, so the timing
 * guards of the late files measured its garbage collections.
 *
 * Usage: node scripts/run-tests.mjs [pattern] [--tier=unit|integration] [--jobs=N] [--root=DIR] [--slowest[=N]]
 *   pattern   a regular expression over paths under the root (default: every *.test.js)
 *   --tier    only the files of that tier (default: both)
 *   --jobs    processes run at once (default: the machine's available parallelism; TEST_JOBS also sets it)
 *   --root    the folder of compiled tests (default: .test-build/test; the runner's own test points it elsewhere)
 *   --slowest the N slowest tests (default 20) at the end, each with its file, wall and CPU seconds, then the CPU
 *             seconds of each process and in all, for keeping the suite within its time (scripts/test-timing.cjs
 *             times them)
 * A process that runs longer than TEST_PROCESS_TIMEOUT_MS (default 30 minutes, a hang even on a loaded machine) is
 * stopped and counted as failed.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const uvu = path.join(repo, "node_modules", "uvu", "bin.js");

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const defaultRoot = path.join(repo, ".test-build", "test");
const root = path.resolve(repo, option("root") ?? defaultRoot);
const timesFile = root === defaultRoot ? path.join(repo, ".test-build", "test-times.json") : undefined;
const pattern = new RegExp(args.find((a) => !a.startsWith("--")) ?? "\\.test\\.js$");
const tier = option("tier");
if (tier !== undefined && tier !== "unit" && tier !== "integration") {
  console.error(`--tier=${tier}: the tiers are unit and integration.`);
  process.exit(2);
}
const jobs = Math.max(1, Number(option("jobs") ?? process.env.TEST_JOBS ?? os.availableParallelism()) || 1);
const timeoutMs = Number(process.env.TEST_PROCESS_TIMEOUT_MS ?? 1_800_000);
const slowest = args.includes("--slowest")
  ? 20
  : option("slowest") === undefined
    ? 0
    : Math.max(1, Number(option("slowest")) || 20);
/** Where the --slowest timings are written, made once there are tests to run. */
let timingDir;

/** Paths under `dir`, relative to `root`, with forward slashes (uvu's patterns are written that way). */
function listTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : listTests(full);
    const relative = path.relative(root, full).split(path.sep).join("/");
    if (!entry.name.endsWith(".test.js") || !pattern.test(relative)) return [];
    if (tier !== undefined && INTEGRATION.test(relative) !== (tier === "integration")) return [];
    return compiledFromGoneSource(relative) ? [] : [relative];
  });
}

/** The integration tier; each of its files gets a process of its own, every other folder's files share one. */
const INTEGRATION = /^(hosts|package|docs|bench|e2e)\/|\.integration\.test\.js$/;
/** The export condition under which `tooltype` resolves to the test build, not dist/ (scripts/build-tests.mjs). */
const SOURCES_CONDITION = "tooltype-sources";

/**
 * Whether a compiled test of the default root has lost its source (deleted or renamed since the test build): such a
 * file must not run. The test build deletes them; this covers a run without it.
 */
function compiledFromGoneSource(relative) {
  if (root !== defaultRoot) return false;
  const stem = path.join(repo, "test", relative.replace(/\.js$/, ""));
  const gone = ![".ts", ".tsx", ".js"].some((ext) => fs.existsSync(stem + ext));
  if (gone) console.log(`skipped ${relative}: its source is gone (the test build deletes such files)`);
  return gone;
}

/**
 * Groups the files into units, one uvu process each, named by the file's own folder (a unit test's folder is its
 * source folder's: test/transformer/validator/ is a unit apart from test/transformer/) or by the file.
 */
function units(files) {
  const byName = new Map();
  for (const file of files) {
    const name = INTEGRATION.test(file) ? file : `${path.posix.dirname(file)}/`;
    if (!byName.has(name)) byName.set(name, { name, files: [] });
    byName.get(name).files.push(file);
  }
  return [...byName.values()];
}

/**
 * Longest first, so that no long unit starts last and runs alone: by the time each took in this checkout's previous
 * whole run, else by a guess (a file of its own is a long one; a folder's time grows with its files).
 */
function schedule(list) {
  let times = {};
  try {
    if (timesFile) times = JSON.parse(fs.readFileSync(timesFile, "utf8"));
  } catch {
    // No previous run: the guess.
  }
  const weight = (unit) => times[unit.name] ?? (unit.name.endsWith("/") ? 5 * unit.files.length : 60);
  return [...list].sort((a, b) => weight(b) - weight(a) || a.name.localeCompare(b.name));
}

/**
 * The `count` slowest tests the timing files in `dir` recorded (scripts/test-timing.cjs), slowest first, with their
 * CPU time; then each process's CPU time and their sum, which, unlike the wall time, does not grow with the load of
 * the machine (the CPU of child processes a test starts is not in it).
 */
function printSlowest(dir, count, unitNames) {
  const records = fs.readdirSync(dir).flatMap((file) =>
    fs
      .readFileSync(path.join(dir, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => ({ unit: unitNames[Number.parseInt(file, 10)], ...JSON.parse(line) })),
  );
  const tests = records
    .filter((r) => !r.process)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
  console.log(`\nThe ${tests.length} slowest tests (wall, CPU):`);
  for (const { file, name, ms, cpuMs } of tests) {
    const where = path.relative(root, file).split(path.sep).join("/");
    console.log(
      `${(ms / 1000).toFixed(1).padStart(7)} s ${(cpuMs / 1000).toFixed(1).padStart(6)} s  ${where.startsWith("..") ? file : where}  ${name}`,
    );
  }
  const processes = records.filter((r) => r.process).sort((a, b) => b.cpuMs - a.cpuMs);
  console.log("\nCPU time by process (its own, loading included):");
  for (const { unit, cpuMs } of processes) console.log(`${(cpuMs / 1000).toFixed(1).padStart(7)} s  ${unit}`);
  console.log(`${(processes.reduce((sum, r) => sum + r.cpuMs, 0) / 1000).toFixed(1).padStart(7)} s  in all`);
}

/** Runs one unit's files in one uvu process; resolves with its output, test counts and seconds. */
function runUnit({ name, files }, index) {
  return new Promise((resolve) => {
    const started = performance.now();
    const escaped = files.map((file) => file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const timing = timingDir ? ["-r", path.join(repo, "scripts", "test-timing.cjs")] : [];
    const env = {
      ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}),
      ...(tier === "unit" ? { FUZZ_SCALE: "0.25" } : {}),
      ...process.env,
    };
    if (timingDir) env.TOOLTYPE_TEST_TIMING = path.join(timingDir, `${index}.jsonl`);
    // The unit tier runs from the sources: `tooltype` resolves to the test build (.test-build/package.json, written
    // by scripts/build-tests.mjs) in its processes and in the processes they start; the integration tier's, to dist/.
    if (!INTEGRATION.test(files[0]))
      env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --conditions=${SOURCES_CONDITION}`.trim();
    const child = spawn(process.execPath, [...timing, uvu, root, `^(${escaped.join("|")})$`], {
      cwd: repo,
      // Its own process group, so that a timeout also stops what its tests started (bundlers, servers).
      detached: process.platform !== "win32",
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop(child);
    }, timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const plain = stripVTControlCharacters(output);
      // uvu's summary is the last one printed: a failure message may quote another run's (Node releases).
      const last = (label) => Number([...plain.matchAll(new RegExp(`${label}:\\s+(\\d+)`, "g"))].at(-1)?.[1] ?? 0);
      const total = last("Total");
      const passed = last("Passed");
      const seconds = (performance.now() - started) / 1000;
      const why = timedOut
        ? `stopped after ${timeoutMs / 1000} s (TEST_PROCESS_TIMEOUT_MS)`
        : passed < total
          ? `${total - passed} of ${total} failed`
          : code !== 0
            ? `exit ${code ?? signal}`
            : total === 0
              ? "no tests ran"
              : undefined;
      resolve({ name, output, total, passed, seconds, why });
    });
  });
}

const running = new Set();
function stop(child) {
  try {
    if (process.platform === "win32") child.kill();
    else process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
// Stopped from outside: the test processes' groups go too, and the exit code is the shell's for that signal.
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => {
    for (const child of running) stop(child);
    if (timingDir) fs.rmSync(timingDir, { recursive: true, force: true });
    process.exit(code);
  });
}

const files = listTests(root);
if (files.length === 0) {
  const where = path.relative(repo, root).startsWith("..") ? root : path.relative(repo, root);
  console.error(`No test files under ${where} match ${pattern}. Build the tests first (npm test does).`);
  process.exit(1);
}
if (slowest > 0) timingDir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-test-timing-"));
const queue = schedule(units(files));
const workers = Math.min(jobs, queue.length);
console.log(`${files.length} test files in ${queue.length} processes, ${workers} at a time`);

const started = performance.now();
const results = [];
/** Each started unit's name, by the index its timing file is named with. */
const unitNames = [];
let unitsStarted = 0;
await Promise.all(
  Array.from({ length: workers }, async () => {
    for (let unit = queue.shift(); unit !== undefined; unit = queue.shift()) {
      unitNames.push(unit.name);
      const result = await runUnit(unit, unitsStarted++);
      results.push(result);
      const line = `${result.why ? "FAIL" : "ok  "} ${unit.name}  ${result.passed}/${result.total}  ${result.seconds.toFixed(1)} s`;
      // A failing process's whole output, where it failed; a passing one's is rows of dots, left out.
      console.log(result.why ? `${line}: ${result.why}\n${result.output}` : line);
    }
  }),
);

const failed = results.filter((r) => r.why);
const total = results.reduce((n, r) => n + r.total, 0);
const passed = results.reduce((n, r) => n + r.passed, 0);
console.log(
  `\nTotal: ${total}  Passed: ${passed}  Files: ${files.length}  Duration: ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
if (failed.length > 0) console.log(`Failed: ${failed.map((r) => `${r.name} (${r.why})`).join(", ")}`);
if (timingDir) {
  printSlowest(timingDir, slowest, unitNames);
  fs.rmSync(timingDir, { recursive: true, force: true });
}

if (timesFile && pattern.source === "\\.test\\.js$") {
  // Only runs of whole units (every file, or a whole tier): a unit run in part would mislead the next run's order.
  let times = {};
  try {
    times = JSON.parse(fs.readFileSync(timesFile, "utf8"));
  } catch {
    // The first run of this checkout.
  }
  for (const r of results) times[r.name] = Math.round(r.seconds * 10) / 10;
  fs.writeFileSync(timesFile, JSON.stringify(times, null, 1));
}
process.exitCode = failed.length > 0 ? 1 : 0;
