/**
 * Benchmark 3, build cost: a generated project of N tools built with the tooltype plugin (ts-patch installed, and
 * `tspc`), against plain `tsc` and `tspc` without it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { tscPath, tspcPath } from "./cold-start";
import { install } from "ts-patch";
import { REPO, toolSpecs, writeTooltypeProject } from "./generate";
import { alternate, pairRatios, runChild, type Stats, stats } from "./harness";

export const INSTALLED_PLUGIN = "tsc patched by ts-patch install + tooltype plugin";
export const TSPC_PLUGIN = "tspc + tooltype plugin";
export const TSC = "tsc (no plugin)";
export const TSPC_PLAIN = "tspc without plugin (reference)";
const SIDES = [INSTALLED_PLUGIN, TSPC_PLUGIN, TSC, TSPC_PLAIN] as const;

export interface BuildResult {
  tools: number;
  files: number;
  runs: number;
  ms: Record<string, Stats>;
  /** tsc patched by `ts-patch install` + plugin / tsc per round: the build target. */
  ratio: Stats;
  /** tspc+plugin / tsc per round. */
  tspcRatio: Stats;
  /** tspc+plugin / patched tsc + plugin per round: what `ts-patch install` saves. */
  installSaving: Stats;
  /** tspc without plugin / tsc per round. */
  patchRatio: Stats;
  /** tspc + plugin / tspc without plugin per round: the transformer's own cost. */
  pluginRatio: Stats;
}

/**
 * Benchmark 3, build cost: a generated project of N tools with varied parameter types (generate.ts), built by
 * - `tsc -p tsconfig.installed.json` from a copy of the typescript package patched by `ts-patch install` (in the
 *   project's own node_modules; the repository's typescript is never touched), with the tooltype plugin: the
 *   cheapest documented way to build (docs/building.md), and the build target's row;
 * - `tspc -p tsconfig.plugin.json`: ts-patch's live patching with the tooltype plugin, as the quick start builds;
 * - `tsc -p tsconfig.plain.json`: plain TypeScript, no plugin (the baseline);
 * - `tspc -p tsconfig.plain.json`: ts-patch without the plugin, for reference: splits ts-patch's own cost from the
 *   transformer's.
 * Whole compiler processes (wall time, spawn to exit), alternating order, several runs each after one unmeasured
 * warm-up run of each (disk cache, ts-patch's cache); the ratio is taken per round, then the median.
 * The outputs are checked too: the plugin builds carry compiled metadata, the plain one none, and the installed
 * patch emits exactly what tspc emits.
 */
export function benchBuild(toolCount: number, runs: number, warmup = true): BuildResult {
  const project = writeTooltypeProject(`build-${toolCount}`, toolSpecs(toolCount));
  const installed = installPatchedTypeScript(project.dir, project.tsconfigPlugin);
  const command = (side: string): string[] => {
    switch (side) {
      case INSTALLED_PLUGIN:
        return [installed.tsc, "-p", installed.tsconfig];
      case TSPC_PLUGIN:
        return [tspcPath(), "-p", project.tsconfigPlugin];
      case TSC:
        return [tscPath(), "-p", project.tsconfigPlain];
      default:
        return [tspcPath(), "-p", project.tsconfigPlain];
    }
  };
  const build = (side: string): number =>
    runChild(process.execPath, command(side), { cwd: project.dir, timeoutMs: 600_000 }).wallMs;
  if (warmup) for (const side of SIDES) build(side); // unmeasured
  const ms = alternate(SIDES, runs, (side) => build(side));
  checkOutputs(project.dir);
  return {
    tools: toolCount,
    files: fs.readdirSync(path.join(project.dir, "src")).length,
    runs,
    ms: Object.fromEntries(SIDES.map((side) => [side, stats(ms[side]!)])),
    ratio: stats(pairRatios(ms[INSTALLED_PLUGIN]!, ms[TSC]!)),
    tspcRatio: stats(pairRatios(ms[TSPC_PLUGIN]!, ms[TSC]!)),
    installSaving: stats(pairRatios(ms[TSPC_PLUGIN]!, ms[INSTALLED_PLUGIN]!)),
    patchRatio: stats(pairRatios(ms[TSPC_PLAIN]!, ms[TSC]!)),
    pluginRatio: stats(pairRatios(ms[TSPC_PLUGIN]!, ms[TSPC_PLAIN]!)),
  };
}

/**
 * A copy of the repository's typescript package in the project's own node_modules, patched there by ts-patch's
 * `install` (what `npx ts-patch install` does to a project's typescript), and a tsconfig like the plugin one that
 * writes to its own folder (so its output can be compared with tspc's).
 */
function installPatchedTypeScript(dir: string, tsconfigPlugin: string): { tsc: string; tsconfig: string } {
  const copy = path.join(dir, "node_modules", "typescript");
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(path.join(REPO, "node_modules", "typescript"), copy, { recursive: true });
  if (!install({ dir: copy, silent: true })) throw new Error(`build: ts-patch install failed on ${copy}`);
  const tsconfig = path.join(dir, "tsconfig.installed.json");
  const plugin = JSON.parse(fs.readFileSync(tsconfigPlugin, "utf8")) as { compilerOptions: object };
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({ ...plugin, compilerOptions: { ...plugin.compilerOptions, outDir: "out-installed" } }, null, 2),
  );
  return { tsc: path.join(copy, "bin", "tsc"), tsconfig };
}

/**
 * The plugin's output carries `CompiledToolMeta` (`v: 1`) in every group; the plain output has none; the patched
 * tsc emits what tspc emits, byte for byte.
 */
function checkOutputs(dir: string): void {
  const group = "group-00.js";
  const withPlugin = fs.readFileSync(path.join(dir, "out-plugin", group), "utf8");
  const plain = fs.readFileSync(path.join(dir, "out-plain", group), "utf8");
  const metas = (text: string): number => (text.match(/\bv: 1,/g) ?? []).length;
  if (metas(withPlugin) === 0) throw new Error(`build: ${group} built with the plugin carries no compiled metadata`);
  if (metas(plain) !== 0) throw new Error(`build: ${group} built without the plugin carries compiled metadata`);
  for (const file of fs.readdirSync(path.join(dir, "out-plugin"))) {
    if (
      fs.readFileSync(path.join(dir, "out-installed", file), "utf8") !==
      fs.readFileSync(path.join(dir, "out-plugin", file), "utf8")
    ) {
      throw new Error(`build: ${file} built by the tsc that ts-patch install patched differs from tspc's`);
    }
  }
}
