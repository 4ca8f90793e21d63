/** `npm run bench`: every benchmark, then the table on stdout and in bench/RESULTS.md. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { benchBuild } from "./build";
import { benchBundle } from "./bundle";
import { benchBundler } from "./bundler";
import { benchTypeScript7 } from "./typescript-7";
import { benchColdStart, benchCompileCache, benchMemory, compileCacheNode, prepareToolProject } from "./cold-start";
import { benchDispatch, checkDispatch } from "./dispatch";
import { benchFormats, checkFormats } from "./formats";
import { benchHostile } from "./hostile";
import { REPO } from "./generate";
import type { InterleaveOptions } from "./harness";
import { machine } from "./machine";
import { benchSizes } from "./sizes";
import { benchToolSearch } from "./tool-search";
import { markdown, performanceSummary, type Results, targets } from "./report";
import { validatorSizes } from "./validator-size";

interface Plan {
  dispatch: InterleaveOptions;
  coldTools: number;
  coldCalled: number;
  coldRuns: number;
  memoryRuns: number;
  buildTools: number;
  buildRuns: number;
  buildWarmup: boolean;
  /** Tool search: the registry's size, and how many of its tools are not deferred. */
  searchTools: number;
  searchUpFront: number;
}

const FULL: Plan = {
  dispatch: { rounds: 61, batchMs: 20, warmupMs: 1500 },
  coldTools: 1000,
  coldCalled: 100,
  coldRuns: 10,
  memoryRuns: 5,
  buildTools: 500,
  buildRuns: 5,
  buildWarmup: true,
  searchTools: 300,
  searchUpFront: 10,
};

const SMOKE: Plan = {
  dispatch: { rounds: 3, batchMs: 2, warmupMs: 10 },
  coldTools: 50,
  coldCalled: 10,
  coldRuns: 1,
  memoryRuns: 1,
  buildTools: 20,
  buildRuns: 1,
  buildWarmup: false,
  searchTools: 30,
  searchUpFront: 5,
};

const ALL = [
  "dispatch",
  "hostile",
  "cold",
  "memory",
  "build",
  "bundler",
  "typescript-7",
  "bundle",
  "sizes",
  "toolsearch",
] as const;

const started = performance.now();

/** A progress line, with the seconds since the run started (which part of a run takes the time). */
function log(text: string): void {
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1)} s] ${text}\n`);
}

/**
 *
 *   node --expose-gc .bench-build/bench/run.js [--smoke]
 * [--only=dispatch,hostile,cold,memory,build,bundler,typescript-7,bundle,sizes,toolsearch]
 *
 * `--smoke` (or BENCH_SMOKE=1): tiny sizes and few rounds, to prove every benchmark runs end to end and that the
 * sides answer alike; its figures mean nothing and it writes .bench-build/RESULTS.smoke.md instead. The test suite
 * runs it (test/bench/smoke.test.ts); nothing asserts a timing.
 *
 * Order: dispatch first (in this process, before anything else has run in it), then the child-process benchmarks.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const smoke = args.includes("--smoke") || process.env.BENCH_SMOKE === "1";
  const onlyArg = args.find((a) => a.startsWith("--only="));
  const only = new Set(onlyArg ? onlyArg.slice("--only=".length).split(",") : ALL);
  const plan = smoke ? SMOKE : FULL;
  if (!(globalThis as { gc?: unknown }).gc) log("note: run with node --expose-gc so that GC runs between batches");
  // LangChain.js tracing off for this process and its children: no network, nothing extra to time.
  process.env.LANGCHAIN_TRACING_V2 = "false";
  process.env.LANGSMITH_TRACING = "false";

  const started = Date.now();
  const results: Results = { machine: machine(), smoke, dispatch: [], checks: [], seconds: 0 };

  if (only.has("dispatch")) {
    results.checks.push(...(await checkDispatch()));
    for (const calls of [1, 10]) {
      log(`dispatch: ${calls} call(s) per message …`);
      results.dispatch.push(await benchDispatch(calls, plan.dispatch));
    }
    results.checks.push(...(await checkFormats()));
    log("dispatch: one call in each format …");
    results.formats = await benchFormats(plan.dispatch);
  }

  if (only.has("hostile")) {
    log("hostile input: the longest block of the event loop per payload …");
    results.hostile = await benchHostile(smoke ? 1 : 5);
  }

  // Probed once (it starts a node) for the two benchmarks that use it.
  let cacheNode: ReturnType<typeof compileCacheNode> | null = null;
  const compileCacheNodeOnce = (): ReturnType<typeof compileCacheNode> =>
    cacheNode === null ? (cacheNode = compileCacheNode()) : cacheNode;

  if (only.has("cold") || only.has("memory")) {
    log(`generating and building ${plan.coldTools} tools with tspc and the plugin …`);
    const project = prepareToolProject(`tools-${plan.coldTools}`, plan.coldTools, plan.coldCalled);
    log(`  built in ${(project.buildMs / 1000).toFixed(1)} s`);
    if (only.has("cold")) {
      log(`cold start: ${plan.coldRuns} runs per side …`);
      results.coldStart = benchColdStart(project, plan.coldRuns);
      const node = compileCacheNodeOnce();
      if (node) {
        log(
          `cold start with V8's compile cache (node ${node.version}): ${plan.coldRuns} run(s) per side and setting …`,
        );
        results.compileCache = benchCompileCache(project, plan.coldRuns, node);
      } else {
        log(
          "cold start with V8's compile cache: skipped (needs Node 22.1 or later; set BENCH_COMPILE_CACHE_NODE to one)",
        );
      }
    }
    if (only.has("memory")) {
      log(`memory: ${plan.memoryRuns} runs per side …`);
      results.memory = benchMemory(project, plan.memoryRuns);
    }
    results.checks.push(
      `cold start and memory: both sides registered and exported all ${plan.coldTools} generated tools with the same ` +
        `parameter names and required lists, and answered the ${plan.coldCalled} calls with the expected contents`,
    );
  }

  if (only.has("build")) {
    log(`build: ${plan.buildTools} tools, ${plan.buildRuns} runs per command …`);
    results.build = benchBuild(plan.buildTools, plan.buildRuns, plan.buildWarmup);
    results.checks.push("build: the plugin's output carries compiled metadata and the plain build's does not");
    results.validators = validatorSizes(plan.buildTools);
  }

  if (only.has("bundler")) {
    log(
      `bundler: ${plan.buildTools} tools, esbuild + plugin against tsc --noEmit, ${plan.buildRuns} runs each, then watch …`,
    );
    results.bundler = benchBundler(plan.buildTools, plan.buildRuns, plan.buildWarmup);
    results.checks.push(
      "bundler: the plugin's bundle carries compiled metadata, esbuild's alone none; the watch rebuild carries the changed description",
    );
  }

  if (only.has("typescript-7")) {
    const node = compileCacheNodeOnce();
    // A smoke run proves the code runs on each kind of compiler: 7.1 shares 7.0's paths, so it measures 5.9 and 7.0.
    const compilers = smoke ? (["5.9", "7.0"] as const) : undefined;
    log(
      `typescript-7: ${plan.buildTools} tools, esbuild + plugin and tooltype check on TypeScript ${smoke ? "5.9 and 7.0" : "5.9, 7.0 and 7.1"} beside each one's tsc --noEmit, ${plan.buildRuns} runs each` +
        (node
          ? `, and tooltype check with and without the compile cache on node ${node.version} …`
          : " (tooltype check with the compile cache: skipped, it needs Node 22.1 or later; set BENCH_COMPILE_CACHE_NODE to one) …"),
    );
    results.typescript7 = benchTypeScript7(
      plan.buildTools,
      plan.buildRuns,
      plan.buildWarmup,
      node,
      compilers && [...compilers],
    );
    results.checks.push(
      "typescript-7: tooltype check found the generated tools on every compiler, and each plugin bundle carries compiled metadata",
    );
  }

  if (only.has("bundle")) {
    log("bundle: an app dispatching compiled tools in OpenAI's format, bundled with esbuild …");
    results.bundle = await benchBundle();
    results.checks.push("bundle: the bundled one-tool app ran on its own (no node_modules) and answered the call");
  }
  if (only.has("sizes")) {
    log("sizes: the MCP worker bundle …");
    results.sizes = await benchSizes();
  }
  if (only.has("toolsearch")) {
    log(
      `tool search: tokens of tool definitions per turn, ${plan.searchTools} tools, ${plan.searchUpFront} not deferred …`,
    );
    results.toolSearch = await benchToolSearch(plan.searchTools, plan.searchUpFront);
  }

  results.seconds = (Date.now() - started) / 1000;
  results.loadEnd = os.loadavg()[0];
  const text = markdown(results);
  process.stdout.write(`${text}\n`);
  const out = smoke ? path.join(REPO, ".bench-build", "RESULTS.smoke.md") : path.join(REPO, "bench", "RESULTS.md");
  if (smoke || only.size === ALL.length) {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, text);
    log(`wrote ${path.relative(REPO, out)}`);
    if (!smoke) updatePerformanceGuide(performanceSummary(results));
  } else {
    log("partial run (--only): bench/RESULTS.md left as it was");
  }
  fs.writeFileSync(
    path.join(REPO, ".bench-build", smoke ? "results.smoke.json" : "results.json"),
    JSON.stringify(results, null, 2),
  );
  const missed = targets(results).filter((t) => !t.met);
  log(missed.length === 0 ? "all targets met" : `targets not met: ${missed.map((t) => t.name).join("; ")}`);
  if (smoke) process.stdout.write("bench smoke: every benchmark ran and every check passed\n");
}

const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";

/** A full run refreshes the summary in docs/performance.md between the bench markers (nothing else in the file changes). */
function updatePerformanceGuide(summary: string): void {
  const file = path.join(REPO, "docs", "performance.md");
  const text = fs.readFileSync(file, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) {
    log(`docs/performance.md has no ${START} … ${END} markers: its summary was not updated`);
    return;
  }
  fs.writeFileSync(file, `${text.slice(0, start + START.length)}\n${summary}\n${text.slice(end)}`);
  log("updated the summary in docs/performance.md");
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
