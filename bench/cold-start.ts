/**
 * Benchmarks 2 and 4, cold start and memory: the generated tools (generate.ts) loaded by fresh child processes
 * (child.ts), tooltype and LangChain.js alternately, several runs each.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ChildJob, ChildReport } from "./child";
import { calledTools, REPO, toolSpecs, type ToolSpec, writeLangChainTools, writeTooltypeProject } from "./generate";
import { alternate, pairRatios, runChild, type Stats, stats } from "./harness";

export const SIDES = ["tooltype", "langchain"] as const;
export type Side = (typeof SIDES)[number];

export interface ToolProject {
  dir: string;
  modules: Record<Side, string>;
  /** The same tools compiled by plain tsc: `require(plain)` gives `{ tools }` without any tooltype metadata. */
  plain: string;
  specs: ToolSpec[];
  called: ToolSpec[];
  /** How long building the tooltype side took (ms), for the record. */
  buildMs: number;
}

export function tspcPath(): string {
  return path.join(REPO, "node_modules", "ts-patch", "bin", "tspc.js");
}

export function tscPath(): string {
  return path.join(REPO, "node_modules", "typescript", "bin", "tsc");
}

/**
 * Writes the tooltype project, builds it with `tspc` and the plugin, writes the LangChain.js twin; both sides get the
 * same tools and the same calls.
 */
export function prepareToolProject(name: string, toolCount: number, calledCount: number): ToolProject {
  const specs = toolSpecs(toolCount);
  const project = writeTooltypeProject(name, specs);
  const build = runChild(process.execPath, [tspcPath(), "-p", project.tsconfigPlugin], {
    cwd: project.dir,
    timeoutMs: 600_000,
  });
  runChild(process.execPath, [tscPath(), "-p", project.tsconfigPlain], { cwd: project.dir, timeoutMs: 600_000 });
  const langchain = writeLangChainTools(project.dir, specs);
  return {
    dir: project.dir,
    modules: { tooltype: project.withPlugin, langchain },
    plain: path.join(project.dir, "out-plain", "index.js"),
    specs,
    called: calledTools(specs, calledCount),
    buildMs: build.wallMs,
  };
}

interface RunWith {
  /** The node binary (default: the bench's own). */
  node?: string;
  /** Set in the child's environment. */
  env?: NodeJS.ProcessEnv;
}

function runSide(
  project: ToolProject,
  mode: "cold" | "memory",
  side: Side,
  run: number,
  using: RunWith = {},
): ChildReport {
  const calls = project.called.map((spec) => ({ name: spec.name, arguments: JSON.stringify(spec.sample) }));
  const report = runJob(
    project,
    { mode, side, projectDir: project.dir, module: project.modules[side], calls },
    `job-${mode}-${side}.json`,
    using,
  );
  if (run === 0) checkReport(project, report);
  return report;
}

/**
 * A reference (see REFERENCES), in a fresh process: what the runtime alone or the plain build takes to import
 * (child.ts in import mode), or what V8 takes to compile either build's files without running them (compile mode).
 */
function runReference(project: ToolProject, reference: Reference): ChildReport {
  if (reference === "compile-plugin" || reference === "compile-plain") {
    const dir = path.dirname(reference === "compile-plugin" ? project.modules.tooltype : project.plain);
    return runJob(
      project,
      { mode: "compile", side: "tooltype", projectDir: project.dir, module: dir, calls: [] },
      `job-${reference}.json`,
    );
  }
  const module = reference === "runtime" ? "tooltype" : project.plain;
  return runJob(
    project,
    { mode: "import", side: "tooltype", projectDir: project.dir, module, calls: [] },
    `job-import-${reference}.json`,
  );
}

function runJob(project: ToolProject, job: ChildJob, name: string, using: RunWith = {}): ChildReport {
  const jobFile = path.join(project.dir, name);
  fs.writeFileSync(jobFile, JSON.stringify(job));
  const child = path.join(__dirname, "child.js");
  const { stdout } = runChild(using.node ?? process.execPath, ["--expose-gc", child, jobFile], {
    cwd: project.dir,
    timeoutMs: 300_000,
    env: { ...quietEnv(), ...using.env },
  });
  return JSON.parse(stdout) as ChildReport;
}

/** LangChain.js tracing off, whatever the caller's environment says: no network, nothing extra to time. */
export function quietEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LANGCHAIN_TRACING_V2: "false",
    LANGSMITH_TRACING: "false",
    LANGCHAIN_TRACING: "false",
  };
  // A compile cache the caller's shell turned on would time cached loads: only benchCompileCache asks for one.
  delete env.NODE_COMPILE_CACHE;
  return env;
}

/** Both sides registered and exported every tool with the same parameters, and answered every call alike. */
function checkReport(project: ToolProject, report: ChildReport): void {
  const side = report.side;
  if (report.toolCount !== project.specs.length || report.exportedCount !== project.specs.length) {
    throw new Error(
      `${side}: registered ${report.toolCount} and exported ${report.exportedCount} of ${project.specs.length} tools`,
    );
  }
  const expected = project.called.map((spec) => spec.expected);
  if (JSON.stringify(report.answers) !== JSON.stringify(expected)) {
    throw new Error(
      `${side}: answers differ from the expected ones.\nexpected: ${JSON.stringify(expected.slice(0, 5))}…\ngot: ${JSON.stringify(report.answers.slice(0, 5))}…`,
    );
  }
  const byName = new Map(project.specs.map((spec) => [spec.name, spec]));
  for (const [name, properties, required] of report.shapes) {
    const spec = byName.get(name);
    if (!spec) throw new Error(`${side}: exported an unknown tool ${name}`);
    const wantProperties = spec.params.map((p) => p.name).sort();
    const wantRequired = spec.params
      .filter((p) => !p.optional)
      .map((p) => p.name)
      .sort();
    if (
      JSON.stringify(properties) !== JSON.stringify(wantProperties) ||
      JSON.stringify(required) !== JSON.stringify(wantRequired)
    ) {
      throw new Error(
        `${side}: ${name} exported properties ${JSON.stringify(properties)} required ${JSON.stringify(required)}; expected ${JSON.stringify(wantProperties)} required ${JSON.stringify(wantRequired)}`,
      );
    }
  }
}

/** The plain reference loaded the same tools (as many functions and methods) and no metadata. */
function checkPlain(project: ToolProject, report: ChildReport): void {
  const dir = path.dirname(project.plain);
  const files = fs.readdirSync(dir).filter((file) => file.endsWith(".js"));
  const withMeta = files.filter((file) =>
    fs.readFileSync(path.join(dir, file), "utf8").includes("tooltype/validator@"),
  );
  if (withMeta.length > 0)
    throw new Error(`cold start: the plain tsc build carries tooltype metadata (${withMeta.join(", ")})`);
  if (report.toolCount !== project.specs.length) {
    throw new Error(
      `cold start: the plain tsc build has ${report.toolCount} tool functions and methods, not ${project.specs.length}`,
    );
  }
}

export type Phase = "import" | "register" | "export" | "dispatch" | "total";
const PHASES: readonly Phase[] = ["import", "register", "export", "dispatch", "total"];

export interface ColdStartResult {
  tools: number;
  called: number;
  runs: number;
  /** ms per phase, per side. */
  phases: Record<Side, Record<Phase, Stats>>;
  /** LangChain.js total / tooltype total, per pair of runs. */
  speedup: Stats;
  /**
   * ms to import, in the same rounds: `runtime`, tooltype's main entry alone; `plainTools`, the same tools compiled
   * by plain tsc, whose imports load the runtime too. What tooltype's import takes beyond `plainTools` is what the
   * compiled metadata costs.
   */
  references: { runtime: Stats; plainTools: Stats };
  /**
   * ms for V8 to compile, without running, the tools' files: `plugin`, as built with tooltype's plugin; `plain`, as
   * built by plain tsc. The difference is what reading the metadata's text costs, before any of it runs.
   */
  compileOnly: { plugin: Stats; plain: Stats };
}

/**
 * The references, run between the sides: the import of tooltype alone and of the tools compiled by plain tsc, and
 * the compilation alone of the two builds' files.
 */
const REFERENCES = ["runtime", "plain-tools", "compile-plugin", "compile-plain"] as const;
type Reference = (typeof REFERENCES)[number];

/**
 * ms from import to the first dispatch of each called tool, per phase; ratio per pair of runs; in the same rounds,
 * two references for what the time is made of: `require("tooltype")` alone, and the same tools compiled by plain tsc
 * (no tooltype metadata; their imports load the runtime too). The first run of each side is also checked: same
 * answers, every tool exported with the same parameter names.
 */
export function benchColdStart(project: ToolProject, runs: number): ColdStartResult {
  const reports = alternate([...SIDES, ...REFERENCES], runs, (side, run) =>
    (REFERENCES as readonly string[]).includes(side)
      ? runReference(project, side as Reference)
      : runSide(project, "cold", side as Side, run),
  );
  const importMs = (reference: string): Stats => stats(reports[reference]!.map((r) => r.phases!.import));
  checkPlain(project, reports["plain-tools"]![0]!);
  const phases = {} as Record<Side, Record<Phase, Stats>>;
  for (const side of SIDES) {
    phases[side] = {} as Record<Phase, Stats>;
    for (const phase of PHASES) phases[side][phase] = stats(reports[side]!.map((r) => r.phases![phase]));
  }
  const totals = (side: Side): number[] => reports[side]!.map((r) => r.phases!.total);
  return {
    tools: project.specs.length,
    called: project.called.length,
    runs,
    phases,
    speedup: stats(pairRatios(totals("langchain"), totals("tooltype"))),
    references: { runtime: importMs("runtime"), plainTools: importMs("plain-tools") },
    compileOnly: { plugin: importMs("compile-plugin"), plain: importMs("compile-plain") },
  };
}

export interface MemoryResult {
  tools: number;
  called: number;
  runs: number;
  /** Bytes retained per 1,000 registered tools, per side. */
  registeredPer1000: Record<Side, Stats>;
  /** Bytes retained per 1,000 registered tools after the first dispatch of the called ones. */
  dispatchedPer1000: Record<Side, Stats>;
  /** Library baseline heap (bytes), per side. */
  baseline: Record<Side, Stats>;
  /** LangChain.js / tooltype retained per registered tool, per pair of runs. */
  ratio: Stats;
}

/**
 * Heap retained after GC per 1,000 registered tools (library baseline subtracted), and after the first dispatch of
 * the called tools.
 */
export function benchMemory(project: ToolProject, runs: number): MemoryResult {
  const reports = alternate(SIDES, runs, (side, run) => runSide(project, "memory", side as Side, run));
  const scale = 1000 / project.specs.length;
  const pick = (side: Side, key: "registered" | "dispatched" | "baseline"): number[] =>
    reports[side]!.map((r) => r.heap![key] * (key === "baseline" ? 1 : scale));
  return {
    tools: project.specs.length,
    called: project.called.length,
    runs,
    registeredPer1000: {
      tooltype: stats(pick("tooltype", "registered")),
      langchain: stats(pick("langchain", "registered")),
    },
    dispatchedPer1000: {
      tooltype: stats(pick("tooltype", "dispatched")),
      langchain: stats(pick("langchain", "dispatched")),
    },
    baseline: { tooltype: stats(pick("tooltype", "baseline")), langchain: stats(pick("langchain", "baseline")) },
    ratio: stats(pairRatios(pick("langchain", "registered"), pick("tooltype", "registered"))),
  };
}

export interface CompileCacheResult {
  /** The node that ran it (`process.version`). */
  node: string;
  runs: number;
  /** Total ms per side, without a compile cache and with a warm one, the same node. */
  totals: Record<Side, { cold: Stats; cached: Stats }>;
  /** tooltype without the cache / with it, per round. */
  saving: Stats;
  /** LangChain.js / tooltype with the cache on both sides, per round. */
  speedup: Stats;
}

/**
 * A node with V8's compile cache (`NODE_COMPILE_CACHE`, Node 22.1 and later): `BENCH_COMPILE_CACHE_NODE` (a path,
 * e.g. from `npx -p node@22 which node`), else the bench's own node when it has it; undefined otherwise.
 */
export function compileCacheNode(): { path: string; version: string } | undefined {
  const candidates = [process.env.BENCH_COMPILE_CACHE_NODE, process.execPath].filter((p): p is string => !!p);
  for (const node of candidates) {
    try {
      const probe = runChild(node, ["-p", `typeof require("node:module").enableCompileCache + " " + process.version`], {
        cwd: REPO,
        timeoutMs: 30_000,
      });
      const [kind, version] = probe.stdout.trim().split(" ");
      if (kind === "function" && version) return { path: node, version };
    } catch {
      // Not a node that runs: the next candidate.
    }
  }
  return undefined;
}

/**
 * The cold start again under `node`, each side without a compile cache and with a warm one (filled by one run per
 * side first): what an app that starts often gains from `NODE_COMPILE_CACHE` or `module.enableCompileCache()`.
 */
export function benchCompileCache(
  project: ToolProject,
  runs: number,
  node: { path: string; version: string },
): CompileCacheResult {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-bench-compile-cache-"));
  try {
    const cached: RunWith = { node: node.path, env: { NODE_COMPILE_CACHE: cache } };
    for (const side of SIDES) runSide(project, "cold", side, 0, cached);
    const variants = SIDES.flatMap((side) => [side, `${side}+cache`]);
    const reports = alternate(variants, runs, (variant, run) => {
      const side = variant.replace("+cache", "") as Side;
      return runSide(project, "cold", side, run + 1, variant.endsWith("+cache") ? cached : { node: node.path });
    });
    const totals = (variant: string): number[] => reports[variant]!.map((r) => r.phases!.total);
    const bySide = {} as CompileCacheResult["totals"];
    for (const side of SIDES) bySide[side] = { cold: stats(totals(side)), cached: stats(totals(`${side}+cache`)) };
    return {
      node: node.version,
      runs,
      totals: bySide,
      saving: stats(pairRatios(totals("tooltype"), totals("tooltype+cache"))),
      speedup: stats(pairRatios(totals("langchain+cache"), totals("tooltype+cache"))),
    };
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}
