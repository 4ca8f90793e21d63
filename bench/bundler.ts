/**
 * Benchmark 4, the bundler plugin's cost: the generated project of N tools (generate.ts) bundled by esbuild with
 * tooltype's plugin, against `tsc --noEmit` on the same project (the type-check a project runs anyway) and esbuild
 * alone (for reference). Whole processes (bundler-child.ts), alternating order, ratio per round, then the median.
 * Then watch mode: one file of the project changed and rebuilt in a live esbuild context; the time of that
 * rebuild, and of the changed module's own re-transform. The outputs are checked: the plugin's bundle carries
 * compiled metadata (and the changed description after the rebuild), esbuild's alone none.
 */
import * as path from "node:path";
import { tscPath } from "./cold-start";
import { toolSpecs, writeTooltypeProject } from "./generate";
import { alternate, pairRatios, runChild, type Stats, stats } from "./harness";

export const ESBUILD_PLUGIN = "esbuild + tooltype plugin";
export const TSC_NOEMIT = "tsc --noEmit";
export const ESBUILD_ALONE = "esbuild alone (reference)";
const SIDES = [ESBUILD_PLUGIN, TSC_NOEMIT, ESBUILD_ALONE] as const;

export interface BundlerResult {
  tools: number;
  runs: number;
  ms: Record<string, Stats>;
  /** esbuild + plugin / tsc --noEmit per round. */
  ratio: Stats;
  /** Watch: the rebuild after one changed file, and that module's re-transform inside it. */
  watch: { rebuildMs: number; transformMs: number };
}

const CHILD = path.join(__dirname, "bundler-child.js");

export function benchBundler(toolCount: number, runs: number, warmup = true): BundlerResult {
  const project = writeTooltypeProject(`bundler-${toolCount}`, toolSpecs(toolCount));
  const command = (side: string): string[] => {
    if (side === TSC_NOEMIT) return [tscPath(), "-p", project.tsconfigPlain, "--noEmit"];
    return [CHILD, project.dir, side === ESBUILD_PLUGIN ? "plugin" : "plain"];
  };
  const build = (side: string): number => runChild(process.execPath, command(side), { cwd: project.dir, timeoutMs: 600_000 }).wallMs;
  if (warmup) for (const side of SIDES) build(side); // unmeasured
  const ms = alternate(SIDES, runs, (side) => build(side));
  const watch = JSON.parse(runChild(process.execPath, [CHILD, project.dir, "watch"], { cwd: project.dir, timeoutMs: 600_000 }).stdout) as BundlerResult["watch"];
  return {
    tools: toolCount,
    runs,
    ms: Object.fromEntries(SIDES.map((side) => [side, stats(ms[side]!)])),
    ratio: stats(pairRatios(ms[ESBUILD_PLUGIN]!, ms[TSC_NOEMIT]!)),
    watch,
  };
}
