/**
 * One side of the bundler benchmark in its own process:
 * `node bundler-child.js <project> plugin|plain|watch [tsconfig]`.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * (the plugin reads tsconfig.plain.json unless a tsconfig is given).
 * plugin / plain: bundle src/index.ts with esbuild, with or without tooltype's plugin, and check the output.
 * watch: a live esbuild context with the plugin; after one build, a tool's description in group-00.ts changes and
 * the context rebuilds; prints `{ rebuildMs, transformMs, apiProcesses, idleMs }` as JSON (transformMs: the changed
 * module's transform; apiProcesses: on TypeScript 7, the `tsc --api` processes seen after each build, one when the
 * rebuild updated the first build's session). Between the two builds the watch is idle as a user's is before an edit:
 * until a `tsc --api` process runs (at once when the first build read types; the plugin opens one when idle after a
 * first build the schema cache answered), at most IDLE_MAX_MS; idleMs is that wait. The file is put back afterwards,
 * so every run edits the same text.
 * dump: the plugin's build (with the warm schema cache the caller names), each TypeScript module's text as the plugin
 * hands it to esbuild written to `<project>/.bench-spliced/<name>`. spliced: esbuild with a bare plugin whose onLoad
 * returns those texts as they are, read from there (the floor of any plugin in JavaScript that hands esbuild them).
 */
async function main(): Promise<void> {
  const [dir, mode, tsconfig = path.join(dir, "tsconfig.plain.json")] = process.argv.slice(2) as [
    string,
    "plugin" | "plain" | "watch" | "dump" | "spliced",
    string?,
  ];
  const splicedDir = path.join(dir, ".bench-spliced");
  const esbuild = await import("esbuild");
  const tooltype = (
    (await import("tooltype/esbuild")) as { default: (options: { tsconfig: string }) => import("esbuild").Plugin }
  ).default;
  const outfile = path.join(dir, `out-esbuild-${mode}-${path.basename(tsconfig, ".json")}`, "index.js");
  const changed = path.join(dir, "src", "group-00.ts");
  let transformMs = 0;
  const timing: import("esbuild").Plugin = {
    name: "bench-timing",
    setup(build) {
      build.onStart(() => void (transformMs = 0));
    },
  };
  const options: import("esbuild").BuildOptions = {
    entryPoints: [path.join(dir, "src", "index.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile,
    logLevel: "silent",
    plugins:
      mode === "plain"
        ? []
        : mode === "spliced"
          ? [splicedTexts(splicedDir)]
          : mode === "dump"
            ? [dumped(tooltype({ tsconfig }), splicedDir)]
            : [timing, timed(tooltype({ tsconfig }), changed, (ms) => (transformMs = ms))],
  };
  // Tool descriptions come from JSDoc, which esbuild drops from code: only compiled metadata carries them.
  const metas = (): number => (fs.readFileSync(outfile, "utf8").match(/\(generated tool \d+\)/g) ?? []).length;
  if (mode !== "watch") {
    await esbuild.build(options);
    const carries = mode !== "plain";
    if (metas() > 0 !== carries)
      throw new Error(`bundler bench: the ${mode} bundle ${carries ? "lacks" : "carries"} compiled metadata`);
    return;
  }
  const context = await esbuild.context(options);
  const seen = new Set<number>();
  await context.rebuild();
  const idleStart = Date.now();
  while (onTypeScript7(dir) && apiProcesses().length === 0 && Date.now() - idleStart < IDLE_MAX_MS)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const idleMs = Date.now() - idleStart;
  for (const pid of apiProcesses()) seen.add(pid);
  const text = fs.readFileSync(changed, "utf8");
  const edited = text.replace(/\/\*\*\n \* /, "/**\n * Changed in watch mode. ");
  if (edited === text) throw new Error("bundler bench: found no JSDoc to change in group-00.ts");
  let rebuildMs: number;
  try {
    fs.writeFileSync(changed, edited);
    const start = process.hrtime.bigint();
    await context.rebuild();
    rebuildMs = Number(process.hrtime.bigint() - start) / 1e6;
    for (const pid of apiProcesses()) seen.add(pid);
    await context.dispose();
    if (!fs.readFileSync(outfile, "utf8").includes("Changed in watch mode."))
      throw new Error("bundler bench: the rebuild kept the old description");
  } finally {
    fs.writeFileSync(changed, text);
  }
  process.stdout.write(JSON.stringify({ rebuildMs, transformMs, apiProcesses: seen.size, idleMs }));
}

/** The longest a watch waits between its first build and the edit (a user's pause; 5.9 opens no process). */
const IDLE_MAX_MS = 5000;

/** Whether the project's `typescript` is TypeScript 7 (whose reader is a `tsc --api` process). */
function onTypeScript7(dir: string): boolean {
  const manifest = require.resolve("typescript/package.json", { paths: [dir] });
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version.startsWith("7.");
}

/** The `tsc --api` processes this process started and that still run (Linux's /proc; none elsewhere). */
function apiProcesses(): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      return parent === process.pid && args.includes("--api") ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

type OnLoadCallback = Parameters<import("esbuild").PluginBuild["onLoad"]>[1];

/** The plugin with each of its onLoad callbacks run through `around` (the callback, its arguments). */
function aroundOnLoad(
  plugin: import("esbuild").Plugin,
  around: (callback: OnLoadCallback, args: import("esbuild").OnLoadArgs) => ReturnType<OnLoadCallback>,
): import("esbuild").Plugin {
  return {
    name: plugin.name,
    setup(build) {
      const onLoad = build.onLoad.bind(build);
      const wrapped = new Proxy(build, {
        get(target, key) {
          if (key !== "onLoad") return Reflect.get(target, key) as unknown;
          return (options: import("esbuild").OnLoadOptions, callback: OnLoadCallback) =>
            onLoad(options, (args) => around(callback, args));
        },
      });
      return plugin.setup(wrapped);
    },
  };
}

/** Times the plugin's onLoad of one file (where unplugin runs the transform under esbuild). */
function timed(plugin: import("esbuild").Plugin, file: string, record: (ms: number) => void): import("esbuild").Plugin {
  return aroundOnLoad(plugin, async (callback, args) => {
    const start = process.hrtime.bigint();
    const result = await callback(args);
    if (args.path === file) record(Number(process.hrtime.bigint() - start) / 1e6);
    return result;
  });
}

/** The plugin, each module's text it hands esbuild written to `into` (TypeScript modules it changed only). */
function dumped(plugin: import("esbuild").Plugin, into: string): import("esbuild").Plugin {
  fs.rmSync(into, { recursive: true, force: true });
  fs.mkdirSync(into, { recursive: true });
  return aroundOnLoad(plugin, async (callback, args) => {
    const result = await callback(args);
    if (result?.contents !== undefined && /\.tsx?$/.test(args.path))
      fs.writeFileSync(path.join(into, path.basename(args.path)), result.contents);
    return result;
  });
}

/** A bare plugin: each TypeScript module whose text `dumped` wrote is handed to esbuild as that text, read per load. */
function splicedTexts(from: string): import("esbuild").Plugin {
  const names = new Set(fs.readdirSync(from));
  if (names.size === 0) throw new Error(`bundler bench: no spliced texts in ${from} (run the dump first)`);
  return {
    name: "bench-spliced-texts",
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, (args) => {
        const name = path.basename(args.path);
        return names.has(name) ? { contents: fs.readFileSync(path.join(from, name)), loader: "ts" } : undefined;
      });
    },
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
