/**
 * Each bundler's own watch mode on the sample app (app.ts), with tooltype's plugin, as a user's watch script starts
 * it: what a test needs to follow it (how many builds started and ended, how often the tools' module was transformed
 * again) and how to run its latest output; and the edits of files the tools' modules do not import that a watch must
 * see (issue 49), played on one watch.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as assert from "uvu/assert";
import { expectDispatch, runApp } from "./app";
import { rollupStripTypes } from "./strip-types";

export type WatchingBundler = "rollup" | "rolldown" | "esbuild" | "webpack" | "rspack";
export const WATCHED_BUNDLERS: WatchingBundler[] = ["rollup", "esbuild", "webpack", "rolldown", "rspack"];

const UNRELATED = (n: number) => `export const unrelated = ${n};\n`;
const DECLARING_GLOBALLY = `${UNRELATED(1)}declare global {\n  interface PlaceExtras {\n    /** Country code */\n    country?: string;\n  }\n}\n`;
const AUGMENTING = `export {};\ndeclare module "./base" {\n  interface Place {\n    /** Country code */\n    country?: string;\n  }\n}\n`;

/**
 * On the app in `dir` (a fresh copy): its `Place` made to extend a global interface, and a module no one imports
 * that declares nothing globally (extra.ts). Under `bundler`'s watch, each of these edits changes the schema of the
 * next output, with no other edit: extra.ts edited into a global declaration adding `country` to that interface, then
 * out of it again; a new module augmenting `Place` with `country`. An edit of extra.ts that declares nothing globally
 * starts a rebuild that transforms no module with tools again.
 */
export async function watchSeesGlobalDeclarations(bundler: WatchingBundler, dir: string): Promise<void> {
  const base = path.join(dir, "src", "base.ts");
  fs.writeFileSync(
    base,
    `${fs.readFileSync(base, "utf8").replace("export interface Place {", "export interface Place extends PlaceExtras {")}` +
      "declare global {\n  interface PlaceExtras {}\n}\n",
  );
  const extra = path.join(dir, "src", "extra.ts");
  fs.writeFileSync(extra, UNRELATED(0));
  const watching = await watchApp(bundler, dir);
  /** Writes `text` to `file` and waits for the rebuild it starts. */
  const edit = async (file: string, text: string) => {
    // A build under way may read the edit, and then no other would follow: the watch is idle first.
    await watching.builtAfter(watching.started() - 1);
    const started = watching.started();
    fs.writeFileSync(file, text);
    await watching.builtAfter(started);
  };
  const dispatch = () => runApp(watching.command, watching.args, dir);
  try {
    await watching.builtAfter(0);
    expectDispatch(await dispatch(), false, `${bundler}: the first build`);
    const first = watching.transforms();
    assert.ok(first >= 1, `${bundler}: the tools' module was transformed`);

    await edit(extra, DECLARING_GLOBALLY);
    expectDispatch(await dispatch(), true, `${bundler}: extra.ts declares PlaceExtras.country`);
    await edit(extra, UNRELATED(2));
    expectDispatch(await dispatch(), false, `${bundler}: extra.ts declares nothing globally again`);
    const before = watching.transforms();
    assert.ok(before > first, `${bundler}: the tools' module was transformed again`);

    await edit(extra, UNRELATED(3));
    assert.is(
      watching.transforms(),
      before,
      `${bundler}: an edit that declares nothing globally transforms no tool module`,
    );

    await edit(path.join(dir, "src", "augment.ts"), AUGMENTING);
    expectDispatch(await dispatch(), true, `${bundler}: a new augmenting module`);
  } finally {
    await watching.close();
  }
}

export interface Watching {
  /** How many builds have started so far. */
  started(): number;
  /** Resolves when a build that started after the first `started` ones has ended; rejects with its error. */
  builtAfter(started: number): Promise<void>;
  /**
   * How often the tools' module (src/tools.ts) was transformed: on Rollup and webpack, how often the bundler ran its
   * transform; on esbuild, Rolldown and Rspack, which run every module's load or transform again on a build that an
   * edit of a file no module reads started (esbuild and Rolldown on any build), how many modules the schema cache did
   * not answer.
   */
  transforms(): number;
  /** How to run the latest output. */
  command: string;
  args: string[];
  close(): Promise<void>;
}

/** A plugin entry as each bundler's types would see it; checked by the bundler at run time. */
type PluginFactory = { default: (options?: { tsconfig?: string }) => never };

/** Counts builds; `builtAfter` waits for the end of one that started after a given count. */
class Builds {
  private begun = 0;
  private ended = 0;
  private failure: unknown;
  private waiting: (() => void)[] = [];

  started = (): number => this.begun;
  start(): void {
    this.begun++;
  }
  end(error?: unknown): void {
    this.ended++;
    if (error !== undefined) this.failure = error;
    for (const wake of this.waiting.splice(0)) wake();
  }
  async builtAfter(started: number): Promise<void> {
    while (this.ended <= started) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }
}

export async function watchApp(bundler: WatchingBundler, dir: string): Promise<Watching> {
  const tsconfig = path.join(dir, "tsconfig.json");
  const entry = path.join(dir, "src", "main.ts");
  const tools = path.join(dir, "src", "tools.ts");
  const out = path.join(dir, `out-watch-${bundler}`);
  const builds = new Builds();
  let transforms = 0;
  const node = (file: string) => ({ command: process.execPath, args: [path.join(out, file)] });
  /** The schema cache's misses, for a plugin of this test build (its cache is the one this process reads). */
  const misses = async () => {
    const { moduleCacheFor } = await import("../../transformer/hosts/project/cache/cached-transform.js");
    return () => moduleCacheFor({ tsconfig })?.counts.misses ?? 0;
  };
  const counting = {
    name: "test-count-transforms",
    transform(_code: string, id: string) {
      if (id === tools) transforms++;
      return null;
    },
  };
  switch (bundler) {
    case "rollup":
    case "rolldown": {
      const output = {
        dir: out,
        entryFileNames: "main.cjs",
        chunkFileNames: "[name]-[hash].cjs",
        format: "cjs" as const,
      };
      const watcher =
        bundler === "rollup"
          ? (await import("rollup")).watch({
              input: entry,
              external: (id) => id === "tooltype" || id.startsWith("tooltype/"),
              plugins: [
                ((await import("tooltype/rollup")) as PluginFactory).default({ tsconfig }),
                rollupStripTypes(),
                counting,
              ],
              output,
              onwarn: () => undefined,
              watch: { clearScreen: false },
            })
          : (await import("rolldown")).watch({
              input: entry,
              platform: "node",
              cwd: dir,
              plugins: [(await import("../../transformer/hosts/bundlers/rolldown.mjs")).default({ tsconfig })],
              output,
              onwarn: () => undefined,
            } as never);
      watcher.on("event", (event: { code: string; error?: unknown; result?: { close(): Promise<void> } | null }) => {
        if (event.code === "BUNDLE_START") builds.start();
        else if (event.code === "BUNDLE_END") {
          void event.result?.close();
          builds.end();
        } else if (event.code === "ERROR") {
          void event.result?.close();
          builds.end(event.error);
        }
      });
      const counted = bundler === "rollup" ? () => transforms : await misses();
      return { ...node("main.cjs"), ...follow(builds, counted), close: () => watcher.close() };
    }
    case "esbuild": {
      const esbuild = await import("esbuild");
      // The plugin of this test build, so that its schema cache's counts are the ones read here.
      const { default: tooltype } = await import("../../transformer/hosts/bundlers/esbuild.mjs");
      const context = await esbuild.context({
        entryPoints: [entry],
        bundle: true,
        platform: "node",
        format: "cjs",
        outfile: path.join(out, "main.cjs"),
        logLevel: "silent",
        plugins: [
          tooltype({ tsconfig }),
          {
            name: "test-builds",
            setup(build: import("esbuild").PluginBuild) {
              build.onStart(() => builds.start());
              build.onEnd((result) =>
                builds.end(result.errors.length > 0 ? new Error(result.errors[0]!.text) : undefined),
              );
            },
          },
        ],
      });
      await context.watch();
      return { ...node("main.cjs"), ...follow(builds, await misses()), close: () => context.dispose() };
    }
    case "webpack":
    case "rspack": {
      const config = {
        context: dir,
        entry,
        target: "node" as const,
        mode: "none" as const,
        // A watch keeps its modules between builds (the default in development mode, not in "none").
        cache: true,
        devtool: false as const,
        output: { path: out, filename: "main.cjs", library: { type: "commonjs2" } },
        resolve: { extensions: [".ts", ".js"] },
      };
      const count = {
        apply(compiler: WebpackLike) {
          compiler.hooks.watchRun.tap("test-builds", () => builds.start());
          compiler.hooks.compilation.tap("test-count-transforms", (compilation) =>
            compilation.hooks.buildModule.tap("test-count-transforms", (module) => {
              if (module.resource === tools) transforms++;
            }),
          );
        },
      };
      const compiler = (bundler === "webpack"
        ? (await import("webpack")).default({
            ...config,
            module: { rules: [{ test: /\.ts$/, loader: path.join(__dirname, "strip-loader.js") }] },
            plugins: [((await import("tooltype/webpack")) as PluginFactory).default({ tsconfig }), count as never],
          })
        : (await import("@rspack/core")).rspack({
            ...config,
            module: {
              rules: [
                {
                  test: /\.ts$/,
                  loader: "builtin:swc-loader",
                  options: {
                    jsc: {
                      parser: { syntax: "typescript", decorators: true },
                      transform: { legacyDecorator: true },
                      target: "es2022",
                    },
                  },
                },
              ],
            },
            plugins: [
              (await import("../../transformer/hosts/bundlers/rspack.mjs")).default({ tsconfig }),
              count as never,
            ],
          })) as unknown as WebpackLike;
      const watching = compiler.watch({ aggregateTimeout: 20 }, (error, stats) =>
        builds.end(error ?? (stats?.hasErrors() ? new Error(stats.toString({ all: false, errors: true })) : undefined)),
      );
      return {
        ...node("main.cjs"),
        ...follow(builds, bundler === "webpack" ? () => transforms : await misses()),
        close: () => new Promise<void>((resolve) => watching.close(() => resolve())),
      };
    }
  }
}

function follow(builds: Builds, transforms: () => number) {
  return {
    started: builds.started,
    builtAfter: (started: number) => builds.builtAfter(started),
    transforms,
  };
}

/** The part of webpack's and Rspack's compiler the tests use. */
interface WebpackLike {
  hooks: {
    watchRun: { tap(name: string, fn: () => void): void };
    compilation: {
      tap(
        name: string,
        fn: (compilation: {
          hooks: { buildModule: { tap(name: string, fn: (module: { resource?: string }) => void): void } };
        }) => void,
      ): void;
    };
  };
  watch(
    options: { aggregateTimeout: number },
    handler: (error: Error | null, stats?: { hasErrors(): boolean; toString(o: object): string }) => void,
  ): { close(callback: () => void): void };
}
