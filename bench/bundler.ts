/**
 * Benchmark 4, the bundler plugin's cost: the generated project bundled by esbuild with tooltype's plugin, against
 * `tsc --noEmit` on the same project, its builds with the persistent schema cache warm, and its rebuilds in watch
 * mode.
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
/** The second build with nothing changed: every module from the persistent schema cache. */
export const ESBUILD_PLUGIN_WARM = "esbuild + plugin, warm cache";
/** The first build with the cache on: every module read and written to an empty cache. */
export const ESBUILD_PLUGIN_FIRST = "esbuild + plugin, empty cache";
/** A build after one tool module changed: that module read, every other one from the cache. */
export const ESBUILD_PLUGIN_EDITED = "esbuild + plugin, one tool module edited, warm cache";
/**
 * esbuild with a bare plugin handing it the same texts a warm build hands it, read from files (bundler-child.ts
 * `spliced`): what any plugin in JavaScript that hands esbuild these texts pays, the floor of a warm build.
 */
export const ESBUILD_SPLICED = "esbuild, the spliced texts from a bare plugin (reference)";
const SIDES = [
  ESBUILD_PLUGIN,
  TSC_NOEMIT,
  ESBUILD_ALONE,
  ESBUILD_PLUGIN_NO_VALIDATORS,
  ESBUILD_PLUGIN_DOM,
  TSC_NOEMIT_DOM,
  ESBUILD_PLUGIN_WARM,
  ESBUILD_PLUGIN_EDITED,
  ESBUILD_PLUGIN_FIRST,
  ESBUILD_SPLICED,
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
  /** esbuild + plugin with a warm persistent cache / esbuild alone, per round. */
  warmRatio: Stats;
  /** The same after one tool module was edited. */
  editedRatio: Stats;
  /** esbuild handed the spliced texts by a bare plugin / esbuild alone, per round: the warm build's floor. */
  splicedRatio: Stats;
  /** esbuild + plugin writing an empty cache / esbuild + plugin without the cache, per round. */
  firstRatio: Stats;
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
  const commandOf = (side: string): string[] => {
    if (side === TSC_NOEMIT) return [tscPath(), "-p", project.tsconfigPlain, "--noEmit"];
    if (side === TSC_NOEMIT_DOM) return [tscPath(), "-p", dom, "--noEmit"];
    if (side === ESBUILD_PLUGIN_NO_VALIDATORS) return [CHILD, project.dir, "plugin", noValidators];
    if (side === ESBUILD_PLUGIN_DOM) return [CHILD, project.dir, "plugin", dom];
    if (side === ESBUILD_SPLICED) return [CHILD, project.dir, "spliced"];
    return [CHILD, project.dir, side === ESBUILD_PLUGIN ? "plugin" : "plain"];
  };
  // The plugin's builds measured cold run without the persistent cache (TOOLTYPE_CACHE=0), as every build did before
  // it; the warm ones share one cache folder, which the warm-up (or the first round) fills.
  const cacheDir = path.join(project.dir, ".bench-schema-cache");
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const cold: NodeJS.ProcessEnv = { ...process.env, TOOLTYPE_CACHE: "0" };
  const warm: NodeJS.ProcessEnv = { ...process.env, TOOLTYPE_CACHE_DIR: cacheDir };
  delete warm.TOOLTYPE_CACHE;
  const edited = path.join(project.dir, "src", "group-00.ts");
  const original = fs.readFileSync(edited, "utf8");
  let edits = 0;
  const build = (side: string): number => {
    const usesCache = side === ESBUILD_PLUGIN_WARM || side === ESBUILD_PLUGIN_EDITED;
    if (side === ESBUILD_PLUGIN_EDITED) {
      // A tool's description changes each time: that module's key changes, no other module's does.
      const text = original.replace(/\/\*\*\n \* /, `/**\n * Edit ${++edits}. `);
      if (text === original) throw new Error("bundler bench: found no JSDoc to change in group-00.ts");
      fs.writeFileSync(edited, text);
    }
    const empty = path.join(project.dir, ".bench-schema-cache-empty");
    if (side === ESBUILD_PLUGIN_FIRST) fs.rmSync(empty, { recursive: true, force: true });
    const env = side === ESBUILD_PLUGIN_FIRST ? { ...warm, TOOLTYPE_CACHE_DIR: empty } : usesCache ? warm : cold;
    const command = usesCache || side === ESBUILD_PLUGIN_FIRST ? [CHILD, project.dir, "plugin"] : commandOf(side);
    return runChild(process.execPath, command, { cwd: project.dir, timeoutMs: 600_000, env }).wallMs;
  };
  build(ESBUILD_PLUGIN_WARM); // fills the cache
  // The texts the warm build hands esbuild, for the bare plugin's side.
  runChild(process.execPath, [CHILD, project.dir, "dump"], { cwd: project.dir, timeoutMs: 600_000, env: warm });
  if (warmup) for (const side of SIDES) build(side); // unmeasured
  const ms = alternate(SIDES, runs, (side) => build(side));
  fs.writeFileSync(edited, original);
  const watch = JSON.parse(
    runChild(process.execPath, [CHILD, project.dir, "watch"], { cwd: project.dir, timeoutMs: 600_000, env: cold })
      .stdout,
  ) as BundlerResult["watch"];
  return {
    tools: toolCount,
    runs,
    ms: Object.fromEntries(SIDES.map((side) => [side, stats(ms[side]!)])),
    ratio: stats(pairRatios(ms[ESBUILD_PLUGIN]!, ms[TSC_NOEMIT]!)),
    noValidatorsRatio: stats(pairRatios(ms[ESBUILD_PLUGIN_NO_VALIDATORS]!, ms[TSC_NOEMIT]!)),
    domRatio: stats(pairRatios(ms[ESBUILD_PLUGIN_DOM]!, ms[TSC_NOEMIT_DOM]!)),
    warmRatio: stats(pairRatios(ms[ESBUILD_PLUGIN_WARM]!, ms[ESBUILD_ALONE]!)),
    editedRatio: stats(pairRatios(ms[ESBUILD_PLUGIN_EDITED]!, ms[ESBUILD_ALONE]!)),
    splicedRatio: stats(pairRatios(ms[ESBUILD_SPLICED]!, ms[ESBUILD_ALONE]!)),
    firstRatio: stats(pairRatios(ms[ESBUILD_PLUGIN_FIRST]!, ms[ESBUILD_PLUGIN]!)),
    watch,
  };
}
