/**
 * The results as Markdown (the targets, then every benchmark's figures with their spread, under a heading that
 * names the machine and the versions), for stdout and RESULTS.md.
 */
import type { BuildResult } from "./build";
import type { ValidatorSizeResult } from "./validator-size";
import type { BundleResult } from "./bundle";
import { INSTALLED_PLUGIN, TSC, TSPC_PLAIN, TSPC_PLUGIN } from "./build";
import { API_ALONE, type Compiler, type TypeScript7Result } from "./typescript-7";
import {
  type BundlerResult,
  ESBUILD_ALONE,
  ESBUILD_PLUGIN,
  ESBUILD_PLUGIN_DOM,
  ESBUILD_PLUGIN_EDITED,
  ESBUILD_SPLICED,
  ESBUILD_PLUGIN_FIRST,
  ESBUILD_PLUGIN_NO_VALIDATORS,
  ESBUILD_PLUGIN_WARM,
  TSC_NOEMIT,
  TSC_NOEMIT_DOM,
} from "./bundler";
import type { ColdStartResult, CompileCacheResult, MemoryResult, Phase } from "./cold-start";
import {
  FLOOR,
  FLOOR_ASYNC,
  FLOOR_PROMISE,
  LANGCHAIN,
  TOOLTYPE,
  TOOLTYPE_TRACED,
  type DispatchResult,
} from "./dispatch";
import { FORMATS } from "./formats";
import { type InterleaveResult, roundRatio, type Stats } from "./harness";
import type { Machine } from "./machine";
import type { SizeFigure } from "./sizes";
import type { ToolSearchFigure } from "./tool-search";
import type { HostileCase } from "./hostile";

export interface Results {
  machine: Machine;
  smoke: boolean;
  dispatch: DispatchResult[];
  coldStart?: ColdStartResult;
  /** The cold start under a node with V8's compile cache, when the run had one. */
  compileCache?: CompileCacheResult;
  memory?: MemoryResult;
  build?: BuildResult;
  /** Bytes of emitted validator code per tool (from the build benchmark's output). */
  validators?: ValidatorSizeResult;
  bundler?: BundlerResult;
  typescript7?: TypeScript7Result;
  /** One call in each format a registry answers (formats.ts). */
  formats?: InterleaveResult;
  bundle?: BundleResult;
  sizes?: SizeFigure[];
  /** Tokens of tool definitions per turn, with and without deferral (tool-search.ts). */
  toolSearch?: ToolSearchFigure[];
  /** The longest block of the event loop per hostile payload (hostile.ts). */
  hostile?: HostileCase[];
  checks: string[];
  /** Wall time of the whole run, s. */
  seconds: number;
  /** 1-minute load average at the end. */
  loadEnd?: number;
}

export interface Target {
  name: string;
  measured: string;
  met: boolean;
}

export function ns(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (value < 1e3) return `${value.toFixed(0)} ns`;
  if (value < 1e6) return `${(value / 1e3).toFixed(value < 1e4 ? 2 : 1)} µs`;
  return `${(value / 1e6).toFixed(2)} ms`;
}

function ms(value: number): string {
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 1000) return `${value.toFixed(1)} ms`;
  return `${(value / 1000).toFixed(2)} s`;
}

function kb(value: number): string {
  return `${(value / 1024).toFixed(1)} KiB`;
}

function bytes(value: number): string {
  const abs = Math.abs(value);
  if (abs < 1024 * 1024) return `${(value / 1024).toFixed(0)} KiB`;
  return `${(value / 2 ** 20).toFixed(2)} MiB`;
}

function ratio(value: number): string {
  return value >= 10 ? `${value.toFixed(0)}x` : `${value.toFixed(2)}x`;
}

function spread(s: Stats, format: (v: number) => string): string {
  return `${format(s.p25)} – ${format(s.p75)}`;
}

export function targets(results: Results): Target[] {
  const out: Target[] = [];
  for (const { calls, result } of results.dispatch) {
    const label = calls === 1 ? "one call" : `${calls} parallel calls`;
    const ours = result.ns[TOOLTYPE]!.median;
    const overFloor = roundRatio(result, TOOLTYPE, FLOOR).median;
    const bound = calls === 1 ? 1.6 : 1.3;
    out.push({
      name: `Dispatch (${label}) within ${bound}x of the floor`,
      measured: `${ratio(overFloor)} (${ns(ours)} vs ${ns(result.ns[FLOOR]!.median)} per message)`,
      met: overFloor <= bound,
    });
    const faster = result.ratios[LANGCHAIN]!.median;
    out.push({
      name: `Dispatch (${label}) at least 50x faster than LangChain.js`,
      measured: `${ratio(faster)} faster (${ns(ours)} vs ${ns(result.ns[LANGCHAIN]!.median)})`,
      met: faster >= 50,
    });
  }
  if (results.hostile && results.hostile.length > 0) {
    const worst = results.hostile.reduce((a, b) => (b.worstMs > a.worstMs ? b : a));
    out.push({
      name: "No hostile request or call blocks the event loop for more than 100 ms",
      measured: `worst ${ms(worst.worstMs)} (${worst.name}), over ${results.hostile.length} payloads`,
      met: worst.worstMs <= 100,
    });
  }
  if (results.build) {
    const b = results.build;
    out.push({
      name: `Build with the plugin (tsc patched by ts-patch install) within 1.3x of plain tsc (${b.tools} tools)`,
      measured: `${ratio(b.ratio.median)} (${ms(b.ms[INSTALLED_PLUGIN]!.median)} vs ${ms(b.ms[TSC]!.median)}; with tspc's live patching ${ratio(b.tspcRatio.median)}, ${ms(b.ms[TSPC_PLUGIN]!.median)})`,
      met: b.ratio.median <= 1.3,
    });
  }
  if (results.memory) {
    const mem = results.memory;
    out.push({
      name: "Heap per 1,000 registered tools at most half of LangChain.js's",
      measured: `${ratio(mem.ratio.median)} less (${bytes(mem.registeredPer1000.tooltype.median)} vs ${bytes(mem.registeredPer1000.langchain.median)})`,
      met: mem.ratio.median >= 2,
    });
  }
  if (results.bundle) {
    const u = results.bundle;
    out.push({
      name: "Bundle: tooltype and its dependencies under 15 KB gzipped",
      measured: `${kb(u.libraryGzip)} with tooltype/openai (app with one tool: ${kb(u.gzip)} gzipped, ${kb(u.minified)} minified); ${kb(u.mainEntry.libraryGzip)} with the main tooltype entry`,
      met: u.libraryGzip < 15 * 1024,
    });
    out.push({
      name: "Bundle: under 2 KB gzipped per three-parameter tool",
      measured: `${kb(u.perToolGzip)} per tool`,
      met: u.perToolGzip < 2 * 1024,
    });
    const cjs = u.mainEntry.commonJs;
    out.push({
      name: "Bundle: the one-tool CommonJS app on the main entry, one file for Node, at most 60 KB gzipped",
      measured:
        `${(cjs.gzip / 1000).toFixed(1)} KB gzipped (${kb(cjs.gzip)}; ${kb(cjs.minified)} minified); ` +
        `on tooltype/openai ${(u.commonJs.gzip / 1000).toFixed(1)} KB`,
      met: cjs.gzip <= 60 * 1000,
    });
  }
  const small = results.sizes?.find((size) => size.name.startsWith("Small MCP service"));
  if (small) {
    out.push({
      name: "Small MCP service for Workers (three tools, the fetch handler) under 150 KB gzipped",
      measured: `${kb(small.gzip)} gzipped (${kb(small.bytes)} minified)`,
      met: small.gzip < 150 * 1000,
    });
  }
  if (results.validators) {
    const v = results.validators;
    out.push({
      name: "Emitted validator of a three-primitive tool under 1 KB",
      measured: `${v.threePrimitives} bytes`,
      met: v.threePrimitives < 1024,
    });
    out.push({
      name: `Emitted validator per tool: median under 2 KB (${v.tools} generated tools)`,
      measured: `${v.generated.median.toFixed(0)} bytes (p25 – p75 ${v.generated.p25.toFixed(0)} – ${v.generated.p75.toFixed(0)}, max ${v.generated.max})`,
      met: v.generated.median < 2048,
    });
  }
  if (results.bundler) {
    const b = results.bundler;
    out.push({
      name: `esbuild with the tooltype plugin within 1.2x of tsc --noEmit (${b.tools} tools)`,
      measured:
        `${ratio(b.ratio.median)} (${ms(b.ms[ESBUILD_PLUGIN]!.median)} vs ${ms(b.ms[TSC_NOEMIT]!.median)}; ` +
        `with validators: false ${ratio(b.noValidatorsRatio.median)}, ${ms(b.ms[ESBUILD_PLUGIN_NO_VALIDATORS]!.median)}; ` +
        `both with the DOM library and @types/node ${ratio(b.domRatio.median)}, ${ms(b.ms[ESBUILD_PLUGIN_DOM]!.median)} vs ${ms(b.ms[TSC_NOEMIT_DOM]!.median)})`,
      met: b.ratio.median <= 1.2,
    });
    out.push({
      name: `Second build with nothing changed: esbuild + plugin within 1.3x of esbuild alone (persistent cache, ${b.tools} tools)`,
      measured:
        `${ratio(b.warmRatio.median)} (${ms(b.ms[ESBUILD_PLUGIN_WARM]!.median)} vs ${ms(b.ms[ESBUILD_ALONE]!.median)}); ` +
        `the floor of any plugin that hands esbuild these texts (a bare one, the same texts read from files): ` +
        `${ratio(b.splicedRatio.median)}, ${ms(b.ms[ESBUILD_SPLICED]!.median)}`,
      met: b.warmRatio.median <= 1.3,
    });
    out.push({
      name: "One tool module edited, warm cache: faster than a build without the cache",
      measured: `${ms(b.ms[ESBUILD_PLUGIN_EDITED]!.median)}, ${ratio(b.editedRatio.median)} of esbuild alone (without the cache ${ms(b.ms[ESBUILD_PLUGIN]!.median)})`,
      met: b.ms[ESBUILD_PLUGIN_EDITED]!.median < b.ms[ESBUILD_PLUGIN]!.median,
    });
    out.push({
      name: "Cold builds no slower with the cache on (an empty cache filled, against the cache off; within 1.05x)",
      measured: `${ratio(b.firstRatio.median)} (${ms(b.ms[ESBUILD_PLUGIN_FIRST]!.median)} vs ${ms(b.ms[ESBUILD_PLUGIN]!.median)})`,
      met: b.firstRatio.median <= 1.05,
    });
    out.push({
      name: "One changed file re-transformed in watch mode under 300 ms",
      measured: `${ms(b.watch.transformMs)} (the whole esbuild rebuild ${ms(b.watch.rebuildMs)})`,
      met: b.watch.transformMs < 300,
    });
  }
  const watch7 = results.typescript7?.watch;
  if (watch7) {
    for (const compiler of ["7.0", "7.1"] as const) {
      const w = watch7[compiler];
      if (!w) continue; // a smoke run measures one TypeScript 7 release
      out.push({
        name: `Watch mode on TypeScript ${compiler}: one edited module's schema updated within 300 ms`,
        measured:
          `${ms(w.rebuildMs.median)} the whole esbuild rebuild (the edited module's transform ${ms(w.transformMs.median)}); ` +
          `${w.apiProcesses} tsc --api process${w.apiProcesses === 1 ? "" : "es"} for the watch; ` +
          `TypeScript 5.9 ${ms(watch7["5.9"].rebuildMs.median)} (${ms(watch7["5.9"].transformMs.median)})`,
        met: w.rebuildMs.median < 300 && w.apiProcesses <= 1,
      });
      const warm = results.typescript7?.watchWarm?.[compiler];
      if (warm)
        out.push({
          name: `Watch mode on TypeScript ${compiler}, first build from the warm cache: the edit's rebuild within 300 ms`,
          measured: `${ms(warm.rebuildMs.median)} the whole esbuild rebuild (the edited module's transform ${ms(warm.transformMs.median)})`,
          met: warm.rebuildMs.median < 300 && warm.apiProcesses <= 1,
        });
    }
  }
  if (results.coldStart) {
    const c = results.coldStart;
    out.push({
      name: `Cold start to the first dispatch of ${c.called} tools out of ${c.tools.toLocaleString("en")}: at least 10x faster than LangChain.js`,
      measured: `${ratio(c.speedup.median)} faster (${ms(c.phases.tooltype.total.median)} vs ${ms(c.phases.langchain.total.median)})`,
      met: c.speedup.median >= 10,
    });
  }
  return out;
}

export function markdown(results: Results): string {
  const m = results.machine;
  const lines: string[] = [];
  lines.push(
    results.smoke ? "# tooltype benchmarks (smoke run: tiny sizes, figures meaningless)" : "# tooltype benchmarks",
  );
  lines.push("");
  lines.push(
    `Latest \`npm run bench\` run, ${m.date}, on ${m.cpu} (${m.cores} cores, ${m.memory}), ${m.os}; ` +
      `Node ${m.node}; ${Object.entries(m.versions)
        .map(([name, v]) => `${name} ${v}`)
        .join(", ")}. ` +
      `Run time ${results.seconds.toFixed(0)} s; load average ${m.load.toFixed(2)} at the start` +
      (results.loadEnd !== undefined ? `, ${results.loadEnd.toFixed(2)} at the end.` : "."),
  );
  lines.push("");
  lines.push(
    "Every figure is a median over several runs. Each ratio is measured per round, with the two sides run next to " +
      "each other (alternating order, in the same process for dispatch, in fresh processes for cold start, memory and " +
      "builds), and then median'd; so a ratio is not always the quotient of the two medians shown.",
  );
  lines.push("");
  lines.push("## Targets");
  lines.push("");
  lines.push("| Target | Measured | Met |");
  lines.push("|---|---|---|");
  for (const t of targets(results)) lines.push(`| ${t.name} | ${t.measured} | ${t.met ? "yes" : "**no**"} |`);
  lines.push("");
  lines.push(
    "The floor is the issue's: `JSON.parse`, a precompiled ajv validator, a direct call and the message object built " +
      "by hand, with no promise. `dispatch` returns a promise, so the dispatch sections also show the floor returned " +
      "as one promise (the least a Promise-returning dispatch can cost) and a hand-written async dispatcher.",
  );
  lines.push("");

  for (const { calls, result } of results.dispatch) {
    lines.push(
      `## Dispatch: one Chat Completions message with ${calls === 1 ? "one call" : `${calls} parallel calls`}`,
    );
    lines.push("");
    lines.push(
      'A three-parameter tool (`city: string`, `days: Int & Min<1> & Max<14>`, `unit: "celsius" | "fahrenheit"`), ' +
        "arguments as JSON text, validation on. ns per message (all its calls answered); " +
        `${result.rounds} interleaved rounds; ratio = that variant's time / tooltype's, per round.`,
    );
    lines.push("");
    lines.push("| Variant | ns per message (median) | p25 – p75 | time / tooltype | messages per batch |");
    lines.push("|---|---|---|---|---|");
    for (const label of [TOOLTYPE, FLOOR, FLOOR_PROMISE, FLOOR_ASYNC, LANGCHAIN, TOOLTYPE_TRACED]) {
      const s = result.ns[label]!;
      lines.push(
        `| ${label} | ${ns(s.median)} | ${spread(s, ns)} | ${ratio(result.ratios[label]!.median)} | ${result.opsPerBatch[label]} |`,
      );
    }
    lines.push("");
    const r = (a: string, b: string): string => ratio(roundRatio(result, a, b).median);
    lines.push(
      `Per round: tooltype / floor ${r(TOOLTYPE, FLOOR)} (target ≤ ${calls === 1 ? "1.6" : "1.3"}x); tooltype / floor returned as a promise ` +
        `${r(TOOLTYPE, FLOOR_PROMISE)}; tooltype / async floor ${r(TOOLTYPE, FLOOR_ASYNC)}; LangChain.js / tooltype ` +
        `${r(LANGCHAIN, TOOLTYPE)} (target ≥ 50x); traced / untraced ${r(TOOLTYPE_TRACED, TOOLTYPE)} (a registered ` +
        "tracer provider and the SDK's batch processor: what tracing costs; without a provider, the tooltype row).",
    );
    lines.push("");
  }

  if (results.formats) {
    const f = results.formats;
    lines.push("## Dispatch: one call in each format");
    lines.push("");
    lines.push(
      "The same call of the same tool as one message of each format, dispatched by one registry (Chat Completions and " +
        "the Responses API carry the arguments as JSON text, the others parsed; each answer in its own format). " +
        `ns per message; ${f.rounds} interleaved rounds; ratio = that format's time / the Chat Completions message's, per round.`,
    );
    lines.push("");
    lines.push("| Format | ns per message (median) | p25 – p75 | time / Chat Completions |");
    lines.push("|---|---|---|---|");
    for (const format of FORMATS) {
      const s = f.ns[format]!;
      lines.push(`| ${format} | ${ns(s.median)} | ${spread(s, ns)} | ${ratio(f.ratios[format]!.median)} |`);
    }
    lines.push("");
  }

  if (results.coldStart) {
    const c = results.coldStart;
    lines.push(`## Cold start: ${c.tools.toLocaleString("en")} tools, first dispatch of ${c.called}`);
    lines.push("");
    lines.push(
      "A fresh `node` process per run: import the library and the generated tools, register them, export them in " +
        "OpenAI's format (LangChain.js: `convertToOpenAITool`), then one Chat Completions message per called tool. " +
        `ms measured inside the process (node's own start-up excluded); ${c.runs} runs per side, alternating.`,
    );
    lines.push("");
    const phases: Phase[] = ["import", "register", "export", "dispatch", "total"];
    lines.push(`| Side | ${phases.join(" | ")} |`);
    lines.push(`|---|${phases.map(() => "---").join("|")}|`);
    for (const side of ["tooltype", "langchain"] as const) {
      const name = side === "tooltype" ? "tooltype" : "LangChain.js";
      lines.push(`| ${name} | ${phases.map((p) => ms(c.phases[side][p].median)).join(" | ")} |`);
    }
    lines.push("");
    lines.push(
      `LangChain.js / tooltype total, per pair of runs: ${ratio(c.speedup.median)} (p25 – p75 ${spread(c.speedup, ratio)}).`,
    );
    lines.push("");
    const budget = c.phases.langchain.total.median / 10;
    const metadata = c.phases.tooltype.import.median - c.references.plainTools.median;
    lines.push(
      `What the time is made of, from two references run in the same rounds (import only, ${c.runs} ${c.runs === 1 ? "run" : "runs"} each): ` +
        `tooltype's main entry alone (\`require("tooltype")\`) ${ms(c.references.runtime.median)}; the same tools compiled ` +
        `by plain tsc, without any tooltype metadata (their imports load the runtime too), ${ms(c.references.plainTools.median)}. ` +
        `So the compiled metadata (schemas, validators, descriptions) costs about ${ms(metadata)} of tooltype's import, and ` +
        `register, export and the first calls ${ms(c.phases.tooltype.total.median - c.phases.tooltype.import.median)}. ` +
        `10x LangChain.js's total leaves ${ms(budget)} for everything, of which the plain tools and the runtime take ` +
        `${ms(c.references.plainTools.median)}.`,
    );
    lines.push("");
    const left = budget - c.references.plainTools.median;
    const reading = c.compileOnly.plugin.median - c.compileOnly.plain.median;
    lines.push(
      `V8 compiling the tools' files without running any of them (the same rounds): ${ms(c.compileOnly.plugin.median)} as ` +
        `built with the plugin, ${ms(c.compileOnly.plain.median)} as built by plain tsc. Reading the text of the metadata ` +
        `alone, the schemas and validators that each tool carries in its own module, thus costs about ${ms(reading)}, ` +
        (left > 0
          ? `${left < reading ? "more than" : "against"} the ${ms(left)} that 10x leaves beyond the plain tools and the runtime.`
          : `while 10x leaves nothing beyond the plain tools and the runtime.`),
    );
    lines.push("");
    const cc = results.compileCache;
    if (cc) {
      lines.push(
        `With V8's compile cache (\`NODE_COMPILE_CACHE\` or \`module.enableCompileCache()\`, node ${cc.node}; a cache ` +
          `warmed by one run per side, ${cc.runs} ${cc.runs === 1 ? "run" : "runs"} per side and setting, alternating): total ms per run.`,
      );
      lines.push("");
      lines.push("| Side | no cache | warm cache |");
      lines.push("|---|---|---|");
      for (const side of ["tooltype", "langchain"] as const) {
        lines.push(
          `| ${side === "tooltype" ? "tooltype" : "LangChain.js"} | ${ms(cc.totals[side].cold.median)} | ${ms(cc.totals[side].cached.median)} |`,
        );
      }
      lines.push("");
      lines.push(
        `tooltype without / with the cache, per round: ${ratio(cc.saving.median)} (p25 – p75 ${spread(cc.saving, ratio)}); ` +
          `LangChain.js / tooltype, both with it: ${ratio(cc.speedup.median)} (p25 – p75 ${spread(cc.speedup, ratio)}).`,
      );
      lines.push("");
    }
  }

  if (results.build) {
    const b = results.build;
    lines.push(`## Build: ${b.tools} tools in ${b.files} files`);
    lines.push("");
    lines.push(
      "Varied parameter types (strings, numbers, `Int` with bounds, booleans, enums, arrays, nested interfaces, " +
        "optional, nullable, `Date`, records), half `tool()` functions, half `@tool` methods. Wall time of the whole " +
        `compiler process, ${b.runs} runs each, alternating, after one unmeasured run of each.`,
    );
    lines.push("");
    lines.push("| Command | Wall time (median) | p25 – p75 |");
    lines.push("|---|---|---|");
    for (const side of [INSTALLED_PLUGIN, TSPC_PLUGIN, TSC, TSPC_PLAIN])
      lines.push(`| ${side} | ${ms(b.ms[side]!.median)} | ${spread(b.ms[side]!, ms)} |`);
    lines.push("");
    lines.push(
      `tsc patched by \`ts-patch install\` + plugin / tsc, per round: ${ratio(b.ratio.median)} (p25 – p75 ${spread(b.ratio, ratio)}); ` +
        `tspc + plugin / tsc: ${ratio(b.tspcRatio.median)} (p25 – p75 ${spread(b.tspcRatio, ratio)}); ` +
        `what \`ts-patch install\` saves (tspc + plugin / patched tsc + plugin): ${ratio(b.installSaving.median)}; ` +
        `ts-patch alone (tspc without plugin / tsc): ${ratio(b.patchRatio.median)}; the plugin alone (tspc + plugin / ` +
        `tspc without plugin): ${ratio(b.pluginRatio.median)}.`,
    );
    lines.push("");
  }

  if (results.typescript7) {
    const t = results.typescript7;
    lines.push(`## TypeScript 7 and 5.9: ${t.tools} tools`);
    lines.push("");
    lines.push(
      "The build's project as a project of each compiler alone, each command in a fresh process, alternating, " +
        `${t.runs} runs each. "The API alone" (TypeScript 7 only) opens the project through TypeScript 7's API, fetches ` +
        "every file's AST and asks the questions tooltype's reader asks before reading, and reads no tool: the floor " +
        "of `tooltype check` on that compiler. Ratios are to the same compiler's `tsc --noEmit`.",
    );
    lines.push("");
    lines.push(
      `| Compiler | esbuild + plugin | tooltype check | ${API_ALONE} | its tsc --noEmit | against its tsc: plugin; check; ${API_ALONE} |`,
    );
    lines.push("|---|---|---|---|---|---|");
    for (const compiler of Object.keys(t.ms) as Compiler[]) {
      const m = t.ms[compiler];
      const own = m["tsc --noEmit"].median;
      const alone = m[API_ALONE];
      lines.push(
        `| TypeScript ${compiler} | ${ms(m["esbuild + plugin"].median)} | ${ms(m["tooltype check"].median)} | ${alone ? ms(alone.median) : "—"} | ${ms(own)} | ` +
          `${[m["esbuild + plugin"], m["tooltype check"], alone].map((s) => (s ? ratio(s.median / own) : "—")).join("; ")} |`,
      );
    }
    lines.push("");
    lines.push(
      "The second build with nothing changed, every module from the persistent schema cache (TypeScript 7: no `tsc --api` process), against esbuild alone on the same project:",
    );
    lines.push("");
    lines.push("| Compiler | esbuild + plugin, warm cache | esbuild alone | ratio |");
    lines.push("|---|---|---|---|");
    for (const compiler of Object.keys(t.ms) as Compiler[]) {
      const m = t.ms[compiler];
      const warmMs = m["esbuild + plugin, warm cache"].median;
      const aloneMs = m["esbuild alone"].median;
      lines.push(`| TypeScript ${compiler} | ${ms(warmMs)} | ${ms(aloneMs)} | ${ratio(warmMs / aloneMs)} |`);
    }
    lines.push("");
    lines.push(
      "`tooltype check` a second time with nothing changed, its report from the persistent cache (no compiler loaded), against the same compiler's `tsc --noEmit`:",
    );
    lines.push("");
    lines.push("| Compiler | tooltype check, warm cache | its tsc --noEmit | ratio |");
    lines.push("|---|---|---|---|");
    for (const compiler of Object.keys(t.ms) as Compiler[]) {
      const m = t.ms[compiler];
      const warmMs = m["tooltype check, warm cache"].median;
      const own = m["tsc --noEmit"].median;
      lines.push(`| TypeScript ${compiler} | ${ms(warmMs)} | ${ms(own)} | ${ratio(warmMs / own)} |`);
    }
    lines.push("");
    if (t.onCacheNode) {
      const c = t.onCacheNode;
      lines.push(
        `Under node ${c.node}, whose compile cache the \`tooltype\` command turns on (the same rounds; the cache warm from ` +
          "an earlier run, and turned off with `NODE_DISABLE_COMPILE_CACHE=1`):",
      );
      lines.push("");
      lines.push(
        "| Compiler | tooltype check, compile cache | tooltype check, no compile cache | its tsc --noEmit | against its tsc: with; without the cache |",
      );
      lines.push("|---|---|---|---|---|");
      for (const compiler of Object.keys(c.ms) as Compiler[]) {
        const m = c.ms[compiler];
        const own = m["tsc --noEmit"].median;
        const withCache = m["tooltype check, compile cache"].median;
        const without = m["tooltype check, no compile cache"].median;
        lines.push(
          `| TypeScript ${compiler} | ${ms(withCache)} | ${ms(without)} | ${ms(own)} | ${ratio(withCache / own)}; ${ratio(without / own)} |`,
        );
      }
      lines.push("");
    }
    for (const [watch, first] of [
      [t.watch, "its first build reading every module (no schema cache)"],
      [t.watchWarm, "its first build answered by the warm schema cache (the session opened while idle)"],
    ] as const) {
      if (!watch) continue;
      lines.push(
        `Watch mode (a live esbuild context with the plugin, ${first}; one tool module's JSDoc edited, then rebuilt), ${t.runs} ` +
          "rounds alternating the compilers; on TypeScript 7 the rebuild updates the watch's `tsc --api` session " +
          "with the changed file:",
      );
      lines.push("");
      lines.push("| Compiler | the rebuild | the edited module's transform | tsc --api processes per watch |");
      lines.push("|---|---|---|---|");
      for (const compiler of Object.keys(watch) as Compiler[]) {
        const w = watch[compiler];
        lines.push(
          `| TypeScript ${compiler} | ${ms(w.rebuildMs.median)} (p25 – p75 ${spread(w.rebuildMs, ms)}) | ${ms(w.transformMs.median)} | ${compiler === "5.9" ? "—" : w.apiProcesses} |`,
        );
      }
      lines.push("");
    }
  }
  if (results.memory) {
    const mem = results.memory;
    lines.push(`## Memory: heap retained per 1,000 registered tools`);
    lines.push("");
    lines.push(
      `A fresh \`node --expose-gc\` process per run: heap used after GC with the library loaded is the baseline; ` +
        `then ${mem.tools.toLocaleString("en")} tools are registered, then the first dispatch of ${mem.called} of them runs; ` +
        `figures are scaled to 1,000 tools. ${mem.runs} runs per side.`,
    );
    lines.push("");
    lines.push("| Side | Registered | After first dispatch of the called tools | Library baseline |");
    lines.push("|---|---|---|---|");
    for (const side of ["tooltype", "langchain"] as const) {
      const name = side === "tooltype" ? "tooltype" : "LangChain.js";
      lines.push(
        `| ${name} | ${bytes(mem.registeredPer1000[side].median)} | ${bytes(mem.dispatchedPer1000[side].median)} | ${bytes(mem.baseline[side].median)} |`,
      );
    }
    lines.push("");
    lines.push(`LangChain.js / tooltype retained per registered tool: ${ratio(mem.ratio.median)}.`);
    lines.push("");
  }

  if (results.bundle) {
    const u = results.bundle;
    lines.push("## Bundle: an app dispatching compiled tools in OpenAI's format");
    lines.push("");
    lines.push(
      `\`tool()\` functions of three strings, a \`ToolRegistry\`, \`toOpenAITools()\` and \`dispatch()\`, compiled with tspc ` +
        `and the plugin, bundled by esbuild ${u.esbuild} (minified, ES module, platform node, code splitting; gzip level 9; entry and the chunks it imports statically). ` +
        `One tool: ${kb(u.minified)} minified, ${kb(u.gzip)} gzipped; tooltype and its dependencies ${kb(u.libraryGzip)} ` +
        `gzipped; each further tool ${kb(u.perToolGzip)} gzipped. The app imports \`tooltype/openai\`; written against the main \`tooltype\` ` +
        `entry it is ${kb(u.mainEntry.gzip)} gzipped (tooltype and its dependencies ${kb(u.mainEntry.libraryGzip)}); as a CommonJS app ` +
        `(\`require("tooltype")\`, which takes the entry's whole namespace) bundled into one file for Node, lazily loaded parts included, ` +
        `${kb(u.mainEntry.commonJs.gzip)} gzipped (${kb(u.mainEntry.commonJs.minified)} minified; on \`tooltype/openai\` ` +
        `${kb(u.commonJs.gzip)} gzipped, ${kb(u.commonJs.minified)} minified). Minified bytes per package in the one-tool bundle:`,
    );
    lines.push("");
    lines.push("| Package | Minified |");
    lines.push("|---|---|");
    for (const d of u.dependencies) lines.push(`| ${d.name} | ${kb(d.bytes)} |`);
    lines.push("");
    lines.push("| tooltype module | Minified |");
    lines.push("|---|---|");
    for (const d of u.modules.slice(0, 12)) lines.push(`| ${d.name} | ${kb(d.bytes)} |`);
    lines.push("");
  }

  if (results.hostile && results.hostile.length > 0) {
    lines.push("## Hostile input");
    lines.push("");
    lines.push(
      "Each payload of the security review at the largest size the default limits let through; the longest the event loop was blocked in any run (`monitorEventLoopDelay`, 1 ms resolution), and the slowest run's wall time.",
    );
    lines.push("");
    lines.push("| Payload | Longest block | Wall time |");
    lines.push("|---|---|---|");
    for (const c of results.hostile) lines.push(`| ${c.name} | ${ms(c.worstMs)} | ${ms(c.totalMs)} |`);
    lines.push("");
  }

  if (results.toolSearch && results.toolSearch.length > 0) {
    lines.push("## Tool search");
    lines.push("");
    lines.push(
      "Tokens of the tool definitions one request carries (the tools array as JSON, o200k_base via js-tiktoken; what an API adds around them is not counted).",
    );
    lines.push("");
    lines.push("| Request | Tools whole | Tokens | Bytes |");
    lines.push("|---|---|---|---|");
    for (const row of results.toolSearch)
      lines.push(`| ${row.name} | ${row.tools} | ${row.tokens.toLocaleString("en-US")} | ${bytes(row.bytes)} |`);
    lines.push("");
  }

  if (results.sizes && results.sizes.length > 0) {
    lines.push("## Sizes");
    lines.push("");
    lines.push("| Bundle | Minified | gzip |");
    lines.push("|---|---|---|");
    for (const size of results.sizes) lines.push(`| ${size.name} | ${bytes(size.bytes)} | ${bytes(size.gzip)} |`);
    lines.push("");
  }
  lines.push("## Checks done before timing");
  lines.push("");
  for (const check of results.checks) lines.push(`- ${check}`);
  lines.push("");
  return lines.join("\n");
}

/** The summary docs/performance.md shows between its bench markers: machine, one row per benchmark, one line per target. */
export function performanceSummary(results: Results): string {
  const m = results.machine;
  const lines: string[] = [];
  lines.push(
    `From the latest \`npm run bench\` run (${m.date.slice(0, 10)}; ${m.cpu}, ${m.cores} cores, load average ` +
      `${m.load.toFixed(1)}; Node ${m.node}; ${Object.entries(m.versions)
        .map(([name, v]) => `${name} ${v}`)
        .join(", ")}). ` +
      "Medians; each ratio measured per round with both sides side by side. Every figure, with its spread: " +
      // In code, not a link: bench/ is not in the package, where these docs are read too (test/docs/links.test.ts).
      "`bench/RESULTS.md` in the repository.",
  );
  lines.push("");
  lines.push("| Benchmark | tooltype | Compared with | Ratio |");
  lines.push("|---|---|---|---|");
  for (const { calls, result } of results.dispatch) {
    const ours = result.ns[TOOLTYPE]!.median;
    lines.push(
      `| Dispatch, ${calls === 1 ? "1 call" : `${calls} parallel calls`} (per message) | ${ns(ours)} | ` +
        `floor ${ns(result.ns[FLOOR]!.median)}; LangChain.js ${ns(result.ns[LANGCHAIN]!.median)} | ` +
        `${ratio(roundRatio(result, TOOLTYPE, FLOOR).median)} the floor's time; ${ratio(roundRatio(result, LANGCHAIN, TOOLTYPE).median)} faster than LangChain.js |`,
    );
  }
  if (results.coldStart) {
    const c = results.coldStart;
    lines.push(
      `| Cold start: import, register ${c.tools.toLocaleString("en")} tools, export, first dispatch of ${c.called} | ` +
        `${ms(c.phases.tooltype.total.median)}${results.compileCache ? ` (node ${results.compileCache.node} with a warm compile cache: ${ms(results.compileCache.totals.tooltype.cached.median)})` : ""} | ` +
        `LangChain.js ${ms(c.phases.langchain.total.median)}; the same tools built by plain tsc ${ms(c.references.plainTools.median)} to import | ${ratio(c.speedup.median)} faster |`,
    );
  }
  if (results.build) {
    const b = results.build;
    lines.push(
      `| Build, ${b.tools} tools | tsc patched by ts-patch install + plugin ${ms(b.ms[INSTALLED_PLUGIN]!.median)}; tspc + plugin ${ms(b.ms[TSPC_PLUGIN]!.median)} | tsc ${ms(b.ms[TSC]!.median)} | ` +
        `${ratio(b.ratio.median)}; tspc ${ratio(b.tspcRatio.median)} (ts-patch's live patching alone ${ratio(b.patchRatio.median)}) |`,
    );
  }
  if (results.bundler) {
    const b = results.bundler;
    lines.push(
      `| Bundle, ${b.tools} tools | esbuild + plugin ${ms(b.ms[ESBUILD_PLUGIN]!.median)} | tsc --noEmit ${ms(b.ms[TSC_NOEMIT]!.median)} | ` +
        `${ratio(b.ratio.median)} (esbuild alone ${ms(b.ms[ESBUILD_ALONE]!.median)}; watch re-transform ${ms(b.watch.transformMs)}) |`,
    );
    lines.push(
      `| Bundle again, ${b.tools} tools, persistent cache | nothing changed ${ms(b.ms[ESBUILD_PLUGIN_WARM]!.median)}; one tool module edited ${ms(b.ms[ESBUILD_PLUGIN_EDITED]!.median)} | esbuild alone ${ms(b.ms[ESBUILD_ALONE]!.median)} | ` +
        `${ratio(b.warmRatio.median)}; ${ratio(b.editedRatio.median)} (first build into an empty cache ${ratio(b.firstRatio.median)} of one without it) |`,
    );
  }
  if (results.memory) {
    const mem = results.memory;
    lines.push(
      `| Heap retained per 1,000 registered tools | ${bytes(mem.registeredPer1000.tooltype.median)} | ` +
        `LangChain.js ${bytes(mem.registeredPer1000.langchain.median)} | ${ratio(mem.ratio.median)} less |`,
    );
  }
  if (results.bundle) {
    const u = results.bundle;
    const deps = u.dependencies
      .filter((d) => d.name !== "app")
      .map((d) => `${d.name} ${kb(d.bytes)}`)
      .join(", ");
    lines.push(
      `| Bundle (esbuild, minified, gzipped): app dispatching one compiled tool in OpenAI's format | ` +
        `${kb(u.libraryGzip)} tooltype/openai + dependencies (main entry: ${kb(u.mainEntry.libraryGzip)}); ${kb(u.perToolGzip)} per tool | minified: ${deps} | targets 15 KB; 2 KB per tool |`,
    );
  }
  if (results.bundle) {
    const cjs = results.bundle.mainEntry.commonJs;
    lines.push(
      `| Size: one-tool CommonJS app on the main entry, esbuild --minify into one file for Node | ` +
        `${kb(cjs.minified)} (gzip ${kb(cjs.gzip)}) | on tooltype/openai: ${kb(results.bundle.commonJs.minified)} ` +
        `(gzip ${kb(results.bundle.commonJs.gzip)}) | target 60 KB gzipped |`,
    );
  }
  for (const size of results.sizes ?? [])
    lines.push(`| Size: ${size.name} | ${bytes(size.bytes)} (gzip ${bytes(size.gzip)}) | — | — |`);
  lines.push("");
  for (const t of targets(results)) lines.push(`- ${t.met ? "Met" : "**Not met**"}: ${t.name}: ${t.measured}.`);
  return lines.join("\n");
}
