/**
 * Builds the sample app (app.ts) with each bundler and tooltype's plugin for it, as a user's build script would.
 * Each returns how to run the bundle, or throws the bundler's own error when the build fails.
 */
import * as path from "node:path";
import { bunBinary, keepingNodeEnv, run } from "./app";
import { rollupStripTypes } from "./strip-types";

export type Bundler = "vite" | "esbuild" | "rollup" | "rolldown" | "webpack" | "rspack" | "bun" | "tsup" | "tsdown";
export const BUNDLERS: Bundler[] = [
  "vite",
  "esbuild",
  "rollup",
  "rolldown",
  "webpack",
  "rspack",
  "bun",
  "tsup",
  "tsdown",
];

export interface Built {
  command: string;
  args: string[];
  /** Warnings the bundler reported. */
  warnings: string[];
}

/** A plugin entry as each bundler's types would see it; checked by the bundler at run time. */
type PluginFactory = { default: (options?: { tsconfig?: string }) => never };

export async function build(bundler: Bundler, dir: string): Promise<Built> {
  const tsconfig = path.join(dir, "tsconfig.json");
  const entry = path.join(dir, "src", "main.ts");
  const out = path.join(dir, `out-${bundler}`);
  const warnings: string[] = [];
  const node = (file: string): Built => ({ command: process.execPath, args: [path.join(out, file)], warnings });
  switch (bundler) {
    case "vite": {
      const vite = await import("vite");
      const tooltype = (await import("tooltype/vite")) as PluginFactory;
      await keepingNodeEnv(() =>
        vite.build({
          root: dir,
          configFile: false,
          logLevel: "silent",
          customLogger: { ...vite.createLogger("silent"), warn: (m: string) => void warnings.push(m) },
          plugins: [tooltype.default({ tsconfig })],
          ssr: { noExternal: true },
          build: {
            ssr: entry,
            outDir: out,
            minify: false,
            emptyOutDir: true,
            rollupOptions: { output: { format: "esm", entryFileNames: "main.mjs" } },
          },
        }),
      );
      return node("main.mjs");
    }
    case "esbuild": {
      const esbuild = await import("esbuild");
      const tooltype = (await import("tooltype/esbuild")) as PluginFactory;
      const result = await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        platform: "node",
        format: "cjs",
        outfile: path.join(out, "main.cjs"),
        sourcemap: true,
        logLevel: "silent",
        plugins: [tooltype.default({ tsconfig })],
      });
      warnings.push(
        ...result.warnings.map((w) => `${w.text} ${w.location?.file}:${w.location?.line}:${w.location?.column}`),
      );
      return node("main.cjs");
    }
    case "tsup": {
      // tsup hands esbuild the esbuild plugin (docs/building.md#tsup-and-tsdown); its own log says nothing of
      // esbuild's warnings when silent, so a second plugin collects them as a build script would.
      const { build: tsup } = await import("tsup");
      const tooltype = (await import("tooltype/esbuild")) as PluginFactory;
      const collect = {
        name: "collect-warnings",
        setup(b: {
          onEnd(
            callback: (result: {
              warnings: { text: string; location: { file: string; line: number; column: number } | null }[];
            }) => void,
          ): void;
        }) {
          b.onEnd(
            (result) =>
              void warnings.push(
                ...result.warnings.map(
                  (w) => `${w.text} ${w.location?.file}:${w.location?.line}:${w.location?.column}`,
                ),
              ),
          );
        },
      };
      await tsup({
        entry: [entry],
        format: ["cjs"],
        outDir: out,
        outExtension: () => ({ js: ".cjs" }),
        platform: "node",
        tsconfig,
        config: false,
        silent: true,
        esbuildPlugins: [tooltype.default({ tsconfig }), collect as never],
      });
      return node("main.cjs");
    }
    case "tsdown": {
      // tsdown runs Rolldown with the Rolldown plugin (docs/building.md#tsup-and-tsdown).
      const { build: tsdown } = await import("tsdown");
      const tooltype = (await import("tooltype/rolldown")) as PluginFactory;
      await tsdown({
        entry: [entry],
        format: ["cjs"],
        outDir: out,
        platform: "node",
        cwd: dir,
        tsconfig,
        config: false,
        dts: false,
        logLevel: "silent",
        plugins: [tooltype.default({ tsconfig })],
        // tsdown's own log is silent, and Rolldown's with it unless asked for warnings: these come to the build script.
        inputOptions: {
          logLevel: "warn",
          onLog: (level: string, log: Warning) => void (level === "warn" && warnings.push(withLoc(log))),
        },
      } as never);
      return node("main.cjs");
    }
    case "rollup":
    case "rolldown": {
      const bundle =
        bundler === "rollup"
          ? await (await import("rollup")).rollup({
              input: entry,
              external: (id) => id === "tooltype" || id.startsWith("tooltype/"),
              plugins: [((await import("tooltype/rollup")) as PluginFactory).default({ tsconfig }), rollupStripTypes()],
              onwarn: (w) => void warnings.push(withLoc(w)),
            })
          : await (await import("rolldown")).rolldown({
              input: entry,
              platform: "node",
              cwd: dir,
              plugins: [((await import("tooltype/rolldown")) as PluginFactory).default({ tsconfig })],
              onwarn: (w) => void warnings.push(withLoc(w)),
            });
      // A folder, not one file: the bundle has chunks (tooltype's failure path for arguments is behind import()).
      await bundle.write({
        dir: out,
        entryFileNames: "main.cjs",
        chunkFileNames: "[name]-[hash].cjs",
        format: "cjs",
        sourcemap: true,
      });
      await bundle.close();
      return node("main.cjs");
    }
    case "webpack":
    case "rspack": {
      const config = {
        context: dir,
        entry,
        target: "node" as const,
        mode: "none" as const,
        devtool: false as const,
        output: { path: out, filename: "main.cjs", library: { type: "commonjs2" } },
        resolve: { extensions: [".ts", ".js"] },
      };
      if (bundler === "webpack") {
        const webpack = (await import("webpack")).default;
        const tooltype = (await import("tooltype/webpack")) as PluginFactory;
        const compiler = webpack({
          ...config,
          module: { rules: [{ test: /\.ts$/, loader: path.join(__dirname, "strip-loader.js") }] },
          plugins: [tooltype.default({ tsconfig })],
        });
        await compile(compiler, warnings);
      } else {
        const { rspack } = await import("@rspack/core");
        const tooltype = (await import("tooltype/rspack")) as PluginFactory;
        const swc = {
          jsc: {
            parser: { syntax: "typescript" as const, decorators: true },
            transform: { legacyDecorator: true },
            target: "es2022" as const,
          },
        };
        const compiler = rspack({
          ...config,
          module: { rules: [{ test: /\.ts$/, loader: "builtin:swc-loader", options: swc }] },
          plugins: [tooltype.default({ tsconfig })],
        });
        await compile(compiler, warnings);
      }
      return node("main.cjs");
    }
    case "bun": {
      const script = [
        `import tooltype from "tooltype/bun";`,
        `const result = await Bun.build({ entrypoints: [${JSON.stringify(entry)}], outdir: ${JSON.stringify(out)}, target: "bun", plugins: [tooltype({ tsconfig: ${JSON.stringify(tsconfig)} })] });`,
        `for (const log of result.logs) console.error(log.level, log.message, log.position ? log.position.file + ":" + log.position.line + ":" + log.position.column : "");`,
        `process.exit(result.success ? 0 : 1);`,
      ].join("\n");
      const { code, stderr } = await run(bunBinary(), ["-e", script], dir);
      if (code !== 0) throw new Error(stderr);
      // Bun has no warning API for plugins: unplugin writes them to stderr.
      warnings.push(...stderr.split("\n").filter((l) => l.startsWith("warning") || l.startsWith("[unplugin]")));
      return { command: bunBinary(), args: [path.join(out, "main.js")], warnings };
    }
  }
}

interface Warning {
  message: string;
  id?: string;
  loc?: { file?: string; line: number; column: number };
}

/** A Rollup or Rolldown warning with its place: the message, then its `loc` as Rollup's command line prints it. */
function withLoc(w: Warning): string {
  return w.loc ? `${w.message} ${path.basename(w.loc.file ?? w.id ?? "")} (${w.loc.line}:${w.loc.column})` : w.message;
}

interface Compiler {
  run(
    callback: (
      error: Error | null,
      stats?: {
        hasErrors(): boolean;
        toJson(o: object): { errors?: { message: string }[]; warnings?: { message: string }[] };
      },
    ) => void,
  ): void;
  close(callback: (error?: Error | null) => void): void;
}

/** Runs a webpack or Rspack compiler; a build with errors throws them (their text), warnings are collected. */
function compile(compiler: unknown, warnings: string[]): Promise<void> {
  const c = compiler as Compiler;
  return new Promise((resolve, reject) => {
    c.run((error, stats) => {
      c.close(() => undefined);
      if (error) return reject(error);
      const json = stats!.toJson({ all: false, errors: true, warnings: true });
      warnings.push(...(json.warnings ?? []).map((w) => w.message));
      if (stats!.hasErrors()) return reject(new Error((json.errors ?? []).map((e) => e.message).join("\n")));
      resolve();
    });
  });
}
