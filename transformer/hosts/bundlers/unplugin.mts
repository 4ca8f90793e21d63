/**
 * tooltype as a bundler plugin (unplugin): one definition for Vite, Rollup, Rolldown, webpack, Rspack and Bun. Each
 * of those entry files only picks its bundler's flavour of the instance made here; esbuild's entry (esbuild.mts)
 * registers esbuild's hooks itself, so that a build the cache answers loads no unplugin.
 *
 * Owns: handing the module's result back as TypeScript with a source map (the bundler's own TypeScript handling runs
 * after), reporting tooltype's diagnostics through the bundler (errors fail the build with file, line and column;
 * warnings are warnings), each position printed once in the bundler's own convention (bundler-message.mts), and watch
 * mode: a module is re-transformed when any file its schemas may depend on changes, every module with tools when a
 * source is made or removed or a global declaration edited (source-watch.mts says which, and what to watch), and each
 * bundler's signals of a build's end, a watch's idleness and the host's end. Which modules go through the
 * transformer, the persistent cache (transformer/hosts/project/cache/), the project made on a miss and TypeScript 7's
 * session opened ahead are plugin-transform.mts's.
 */
import { createUnplugin, type UnpluginInstance } from "unplugin";
import type { TooltypeBundlerOptions } from "./plugin-shapes.mjs";
import { bundlerMessages, bundlerWarning } from "./bundler-message.mjs";
import { declaresGlobally } from "../project/declares-globally.js";
import { readText } from "../project/files.js";
import { PACKAGES, PluginTransform, TYPESCRIPT } from "./plugin-transform.mjs";
import { SourceWatch } from "./source-watch.mjs";

export type { TooltypeBundlerOptions } from "./plugin-shapes.mjs";

/** The part of a Vite dev server's module graph that drops a module's transform. */
interface ModuleGraph {
  getModulesByFile(file: string): Set<ModuleNode> | undefined;
  invalidateModule(module: ModuleNode): void;
}
type ModuleNode = { readonly id: string | null };

/** The part of webpack's and Rspack's compiler the plugin taps (a structural copy: their types are not loaded). */
interface WebpackLikeCompiler {
  watchMode?: boolean;
  modifiedFiles?: ReadonlySet<string>;
  removedFiles?: ReadonlySet<string>;
  webpack?: { NormalModule?: { getCompilationHooks?(compilation: unknown): { needBuild?: Tappable<NeedBuild> } } };
  hooks: {
    watchClose: Tappable<() => void>;
    watchRun: Tappable<(compiler: WebpackLikeCompiler) => void>;
    thisCompilation: Tappable<(compilation: unknown) => void>;
    afterCompile: Tappable<(compilation: WebpackLikeCompilation) => void>;
  };
}
interface Tappable<F> {
  tap(name: string, fn: F): void;
}
type NeedBuild = (module: { resource?: string }) => true | undefined;
interface WebpackLikeCompilation {
  fileDependencies: { add(file: string): void };
  contextDependencies: { add(dir: string): void };
}

/** A module's file, without the query a bundler may add to its id. */
const fileOf = (id: string): string => id.replace(/[?#].*$/, "");

export const tooltype: UnpluginInstance<TooltypeBundlerOptions | undefined, false> = createUnplugin(
  (given: TooltypeBundlerOptions | undefined, meta) => {
    const options = given ?? {};
    const modules = new PluginTransform(options);
    const watch = new SourceWatch(modules.tsconfig);
    /** This (re)build runs every module with tools again: a source was made or removed, or a global one edited. */
    let rerun = false;
    /** In Vite's dev server, whose end is its closeBundle. */
    let serving = false;
    /** Vite's dev server's module graphs, one per environment (client, ssr). */
    let graphs: (() => ModuleGraph[]) | undefined;
    /** The modules whose tools (or diagnostics) the transform wrote: the ones a file made may change. */
    const withTools = new Set<string>();
    /** webpack's and Rspack's compiler, which says whether it watches. */
    let compiler: { watchMode?: boolean } | undefined;
    /** A watch's build ended with every module from the cache and no project made: its output written, open one. */
    let builtFromCache = false;
    // A TypeScript 7 project's `tsc --api` process lives as long as the build, or the watch, that uses it.
    const finish = (): void => modules.finish();
    const onWebpackLike = (c: WebpackLikeCompiler): void => {
      compiler = c;
      c.hooks.watchClose.tap("tooltype", finish);
      // Before a rebuild: its changed files (made ones among them) say whether every module with tools runs again.
      c.hooks.watchRun.tap("tooltype", (running) => {
        for (const file of [...(running.modifiedFiles ?? []), ...(running.removedFiles ?? [])])
          for (const source of watch.changed(file)) modules.changed(source);
        rerun = watch.takeRerun();
        // Rspack builds again the modules whose files are named modified (it has no hook that asks per module).
        if (rerun && meta.framework === "rspack")
          running.modifiedFiles = new Set([...(running.modifiedFiles ?? []), ...withTools]);
      });
      // webpack asks its needBuild hook about each module whose files did not change.
      c.hooks.thisCompilation.tap("tooltype", (compilation) => {
        c.webpack?.NormalModule?.getCompilationHooks?.(compilation).needBuild?.tap("tooltype", (module) =>
          rerun && module.resource !== undefined && withTools.has(fileOf(module.resource)) ? true : undefined,
        );
      });
      // In a watch, the project's sources and their folders are watched too (not as any module's dependencies).
      c.hooks.afterCompile.tap("tooltype", (compilation) => {
        const sources = c.watchMode ? modules.sources() : undefined;
        if (sources === undefined) return;
        const { files, trees } = watch.update(sources);
        for (const file of files) compilation.fileDependencies.add(file);
        for (const dir of trees) compilation.contextDependencies.add(dir);
      });
    };
    /**
     * Rollup and `vite build --watch` on Rollup: every module with tools runs again when `rerun` says so. (Rolldown's
     * watch has no such hook: it runs every module's transform on each rebuild, and the cache answers.)
     */
    const shouldTransformCachedModule = ({ id }: { id: string }): true | null =>
      rerun && withTools.has(fileOf(id)) ? true : null;
    return {
      name: "tooltype",
      enforce: "pre",
      buildEnd() {
        // Bun's builds end with the process.
        if (meta.framework === "bun") return;
        const watching =
          meta.framework === "webpack" || meta.framework === "rspack"
            ? compiler?.watchMode === true
            : (this as { meta?: { watchMode?: boolean } }).meta?.watchMode === true;
        if (!watching) finish();
        // The output is still to be written: the session opens once it is (writeBundle), not in the middle of it.
        else builtFromCache = !modules.hasProject && modules.caches;
        // Rollup's and Rolldown's watch: the project's sources and their folders, watched for the whole build (a file
        // registered here is no module's dependency). webpack's and Rspack's are registered after their compile.
        const sources = watching && !serving && !compiler ? modules.sources() : undefined;
        if (sources !== undefined) {
          const { files, trees } = watch.update(sources);
          for (const file of [...files, ...trees]) this.addWatchFile(file);
        }
      },
      writeBundle() {
        if (builtFromCache) modules.idle();
        builtFromCache = false;
      },
      rollup: { closeWatcher: finish, shouldTransformCachedModule },
      vite: {
        closeWatcher: finish,
        shouldTransformCachedModule,
        // Vite's dev server ends its plugins with buildEnd (in watch mode, which keeps the session) and closeBundle:
        // the latter ends the session there. In `vite build` closeBundle comes after buildEnd, which ended it already.
        configureServer(server: { environments: Record<string, { moduleGraph: ModuleGraph }> }) {
          serving = true;
          graphs = () => Object.values(server.environments).map((environment) => environment.moduleGraph);
        },
        closeBundle() {
          if (serving) finish();
        },
      },
      rolldown: { closeWatcher: finish },
      webpack: onWebpackLike as never,
      rspack: onWebpackLike as never,
      // A (re)build starts: files may have changed on disk since the last one.
      buildStart() {
        modules.buildStart();
        if (!compiler) rerun = watch.takeRerun();
      },
      watchChange(id, change) {
        modules.changed(id);
        // webpack's and Rspack's changes are looked at in their watchRun, before the build (this runs within it).
        if (!compiler) for (const source of watch.changed(id)) if (source !== id) modules.changed(source);
        // A module made (one augmenting an interface the tools use), or one edited to declare globally, is no file the
        // tools' modules depend on yet, so Vite's dev server would not transform them again: their next load does.
        const source = graphs !== undefined && TYPESCRIPT.test(id) && !PACKAGES.test(id);
        if (
          source &&
          (change?.event === "create" || (change?.event === "update" && declaresGlobally(readText(id) ?? "")))
        ) {
          for (const graph of graphs!())
            for (const file of withTools)
              for (const module of graph.getModulesByFile(file) ?? []) graph.invalidateModule(module);
        }
      },
      transform: {
        filter: {
          id: { include: modules.include, exclude: modules.exclude },
          code: /tooltype|\btool\b|structuredOutput/,
        },
        async handler(code, id) {
          const file = fileOf(id);
          if (!modules.takes(file, code)) return null;
          const answer = modules.lookup(file, code);
          // Vite's dev server transforms on request, and has no build end until it closes: idle after its last one.
          if (typeof answer === "object" && serving && !modules.hasProject) modules.idle();
          const result = await modules.transform(file, code, answer);
          for (const dependency of result.dependencies) this.addWatchFile(dependency);
          if (result.dependencies.length > 0 || result.code !== undefined || result.diagnostics.length > 0)
            withTools.add(file);
          const errors = result.diagnostics.filter((d) => d.category === "error");
          for (const warning of result.diagnostics.filter((d) => d.category === "warning"))
            this.warn(bundlerWarning(meta.framework, warning));
          // One failure carrying every error: the first one's position, the others' in its text.
          if (errors.length > 0) this.error(bundlerMessages(meta.framework, errors));
          return result.code === undefined ? null : { code: result.code, map: result.map };
        },
      },
    };
  },
);
