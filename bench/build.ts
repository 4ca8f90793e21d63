/**
 * Benchmark 3, build cost: a generated project of N tools with varied parameter types (generate.ts), built by
 * - `tspc -p tsconfig.plugin.json`: ts-patch with the tooltype plugin, as a tooltype user builds;
 * - `tsc -p tsconfig.plain.json`: plain TypeScript, no plugin (the baseline);
 * - `tspc -p tsconfig.plain.json`: ts-patch without the plugin, for reference: splits ts-patch's own cost from the
 *   transformer's.
 * Whole compiler processes (wall time, spawn to exit), alternating order, several runs each after one unmeasured
 * warm-up run of each (disk cache, ts-patch's cache); the ratio is taken per round, then the median.
 * The outputs are checked too: the plugin build carries compiled metadata, the plain one none.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { tscPath, tspcPath } from "./cold-start";
import { toolSpecs, writeTooltypeProject } from "./generate";
import { alternate, pairRatios, runChild, type Stats, stats } from "./harness";

export const TSPC_PLUGIN = "tspc + tooltype plugin";
export const TSC = "tsc (no plugin)";
export const TSPC_PLAIN = "tspc without plugin (reference)";
const SIDES = [TSPC_PLUGIN, TSC, TSPC_PLAIN] as const;

export interface BuildResult {
  tools: number;
  files: number;
  runs: number;
  ms: Record<string, Stats>;
  /** tspc+plugin / tsc per round. */
  ratio: Stats;
  /** tspc without plugin / tsc per round. */
  patchRatio: Stats;
  /** tspc + plugin / tspc without plugin per round: the transformer's own cost. */
  pluginRatio: Stats;
}

export function benchBuild(toolCount: number, runs: number, warmup = true): BuildResult {
  const project = writeTooltypeProject(`build-${toolCount}`, toolSpecs(toolCount));
  const command = (side: string): string[] => {
    switch (side) {
      case TSPC_PLUGIN:
        return [tspcPath(), "-p", project.tsconfigPlugin];
      case TSC:
        return [tscPath(), "-p", project.tsconfigPlain];
      default:
        return [tspcPath(), "-p", project.tsconfigPlain];
    }
  };
  const build = (side: string): number => runChild(process.execPath, command(side), { cwd: project.dir, timeoutMs: 600_000 }).wallMs;
  if (warmup) for (const side of SIDES) build(side); // unmeasured
  const ms = alternate(SIDES, runs, (side) => build(side));
  checkOutputs(project.dir);
  return {
    tools: toolCount,
    files: fs.readdirSync(path.join(project.dir, "src")).length,
    runs,
    ms: Object.fromEntries(SIDES.map((side) => [side, stats(ms[side]!)])),
    ratio: stats(pairRatios(ms[TSPC_PLUGIN]!, ms[TSC]!)),
    patchRatio: stats(pairRatios(ms[TSPC_PLAIN]!, ms[TSC]!)),
    pluginRatio: stats(pairRatios(ms[TSPC_PLUGIN]!, ms[TSPC_PLAIN]!)),
  };
}

/** The plugin's output carries `CompiledToolMeta` (`v: 1`) in every group; the plain output has none. */
function checkOutputs(dir: string): void {
  const group = "group-00.js";
  const withPlugin = fs.readFileSync(path.join(dir, "out-plugin", group), "utf8");
  const plain = fs.readFileSync(path.join(dir, "out-plain", group), "utf8");
  const metas = (text: string): number => (text.match(/\bv: 1,/g) ?? []).length;
  if (metas(withPlugin) === 0) throw new Error(`build: ${group} built with the plugin carries no compiled metadata`);
  if (metas(plain) !== 0) throw new Error(`build: ${group} built without the plugin carries compiled metadata`);
}
