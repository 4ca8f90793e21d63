/**
 * Benchmark 4, the bundler plugin's cost: the generated project bundled by esbuild with tooltype's plugin, against
 * `tsc --noEmit` on the same project, and its rebuilds in watch mode.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { tscPath } from "./cold-start";
import { toolSpecs, writeTooltypeProject } from "./generate";
import { alternate, pairRatios, runChild, type Stats, stats } from "./harness";

export const ESBUILD_PLUGIN = "esbuild + tooltype plugin";
export const TSC_NOEMIT = "tsc --noEmit";
export const ESBUILD_ALONE = "esbuild alone (reference)";
export const ESBUILD_PLUGIN_NO_VALIDATORS = "esbuild + plugin, validators: false (reference)";
export const ESBUILD_PLUGIN_DOM = "esbuild + plugin, DOM and @types/node (reference)";
export const TSC_NOEMIT_DOM = "tsc --noEmit, DOM and @types/node (reference)";
const SIDES = [
  ESBUILD_PLUGIN,
  TSC_NOEMIT,
  ESBUILD_ALONE,
  ESBUILD_PLUGIN_NO_VALIDATORS,
  ESBUILD_PLUGIN_DOM,
  TSC_NOEMIT_DOM,
] as const;

export interface BundlerResult {
  tools: number;
  runs: number;
  ms: Record<string, Stats>;
  /** esbuild + plugin / tsc --noEmit per round. */
  ratio: Stats;
  /** esbuild + plugin with validators: false / tsc --noEmit per round. */
  noValidatorsRatio: Stats;
  /** The same, both with the DOM library and @types/node in the tsconfig. */
  domRatio: Stats;
  /** Watch: the rebuild after one changed file, and that module's re-transform inside it. */
  watch: { rebuildMs: number; transformMs: number };
}

const CHILD = path.join(__dirname, "bundler-child.js");

/**
 * Benchmark 4, the bundler plugin's cost: the generated project of N tools (generate.ts) bundled by esbuild with
 * tooltype's plugin, against `tsc --noEmit` on the same project (the type-check a project runs anyway) and esbuild
 * alone and the plugin with `validators: false` (for reference: what compiling validators at build time costs, as it
 * does under tspc). Whole processes (bundler-child.ts), alternating order, ratio per round, then the median. A
 * second pair, the plugin and `tsc --noEmit` with the DOM library and @types/node in the tsconfig as most apps have
 * them, shows the ratio where declaration files are most of what the compiler reads.
 * Then watch mode: one file of the project changed and rebuilt in a live esbuild context; the time of that
 * rebuild, and of the changed module's own re-transform. The outputs are checked: the plugin's bundle carries
 * compiled metadata (and the changed description after the rebuild), esbuild's alone none.
 */
export function benchBundler(toolCount: number, runs: number, warmup = true): BundlerResult {
  const project = writeTooltypeProject(`bundler-${toolCount}`, toolSpecs(toolCount));
  const noValidators = path.join(project.dir, "tsconfig.no-validators.json");
  const plain = JSON.parse(fs.readFileSync(project.tsconfigPlain, "utf8")) as { compilerOptions: object };
  fs.writeFileSync(
    noValidators,
    JSON.stringify({
      ...plain,
      compilerOptions: {
        ...plain.compilerOptions,
        plugins: [{ transform: "tooltype/transformer", validators: false }],
      },
    }),
  );
  // @types/node resolves from the repository's node_modules, above the project.
  const dom = path.join(project.dir, "tsconfig.dom.json");
  fs.writeFileSync(
    dom,
    JSON.stringify({
      ...plain,
      compilerOptions: { ...plain.compilerOptions, lib: ["ES2022", "DOM", "DOM.Iterable"], types: ["node"] },
    }),
  );
  const command = (side: string): string[] => {
    if (side === TSC_NOEMIT) return [tscPath(), "-p", project.tsconfigPlain, "--noEmit"];
    if (side === TSC_NOEMIT_DOM) return [tscPath(), "-p", dom, "--noEmit"];
    if (side === ESBUILD_PLUGIN_NO_VALIDATORS) return [CHILD, project.dir, "plugin", noValidators];
    if (side === ESBUILD_PLUGIN_DOM) return [CHILD, project.dir, "plugin", dom];
    return [CHILD, project.dir, side === ESBUILD_PLUGIN ? "plugin" : "plain"];
  };
  const build = (side: string): number =>
    runChild(process.execPath, command(side), { cwd: project.dir, timeoutMs: 600_000 }).wallMs;
  if (warmup) for (const side of SIDES) build(side); // unmeasured
  const ms = alternate(SIDES, runs, (side) => build(side));
  const watch = JSON.parse(
    runChild(process.execPath, [CHILD, project.dir, "watch"], { cwd: project.dir, timeoutMs: 600_000 }).stdout,
  ) as BundlerResult["watch"];
  return {
    tools: toolCount,
    runs,
    ms: Object.fromEntries(SIDES.map((side) => [side, stats(ms[side]!)])),
    ratio: stats(pairRatios(ms[ESBUILD_PLUGIN]!, ms[TSC_NOEMIT]!)),
    noValidatorsRatio: stats(pairRatios(ms[ESBUILD_PLUGIN_NO_VALIDATORS]!, ms[TSC_NOEMIT]!)),
    domRatio: stats(pairRatios(ms[ESBUILD_PLUGIN_DOM]!, ms[TSC_NOEMIT_DOM]!)),
    watch,
  };
}
