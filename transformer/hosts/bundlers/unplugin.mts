/**
 * tooltype as a bundler plugin (unplugin): one definition for Vite, Rollup, Rolldown, webpack, Rspack and Bun. Each
 * of those entry files only picks its bundler's flavour of the instance made here; esbuild's entry (esbuild.mts)
 * registers esbuild's hooks itself, so that a build the cache answers loads no unplugin.
 *
 * Owns: handing the module's result back as TypeScript with a source map (the bundler's own TypeScript handling runs
 * after), reporting tooltype's diagnostics through the bundler (errors fail the build with file, line and column;
 * warnings are warnings), each position printed once in the bundler's own convention (bundler-message.mts), and watch
 * mode: a module is re-transformed when any file its schemas may depend on changes, and each bundler's signals of a
 * build's end, a watch's idleness and the host's end. Which modules go through the transformer, the persistent
 * cache (transformer/hosts/project/cache/), the project made on a miss and TypeScript 7's session opened ahead are
 * plugin-transform.mts's.
 */
import { createUnplugin, type UnpluginInstance } from "unplugin";
import type { TooltypeBundlerOptions } from "./plugin-shapes.mjs";
import { bundlerMessages, bundlerWarning } from "./bundler-message.mjs";
import { declaresGlobally } from "../project/declares-globally.js";
import { readText } from "../project/files.js";
import { PACKAGES, PluginTransform, TYPESCRIPT } from "./plugin-transform.mjs";

export type { TooltypeBundlerOptions } from "./plugin-shapes.mjs";

/** The part of a Vite dev server's module graph that drops a module's transform. */
interface ModuleGraph {
  getModulesByFile(file: string): Set<ModuleNode> | undefined;
  invalidateModule(module: ModuleNode): void;
}
type ModuleNode = { readonly id: string | null };

export const tooltype: UnpluginInstance<TooltypeBundlerOptions | undefined, false> = createUnplugin(
  (given: TooltypeBundlerOptions | undefined, meta) => {
    const options = given ?? {};
    const modules = new PluginTransform(options);
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
    const onWebpackLike = (c: {
      watchMode?: boolean;
      hooks: { watchClose: { tap(name: string, fn: () => void): void } };
    }): void => {
      compiler = c;
      c.hooks.watchClose.tap("tooltype", finish);
    };
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
      },
      writeBundle() {
        if (builtFromCache) modules.idle();
        builtFromCache = false;
      },
      rollup: { closeWatcher: finish },
      vite: {
        closeWatcher: finish,
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
      },
      watchChange(id, change) {
        modules.changed(id);
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
          const file = id.replace(/[?#].*$/, "");
          if (!modules.takes(file, code)) return null;
          const answer = modules.lookup(file, code);
          // Vite's dev server transforms on request, and has no build end until it closes: idle after its last one.
          if (typeof answer === "object" && serving && !modules.hasProject) modules.idle();
          const result = await modules.transform(file, code, answer);
          for (const dependency of result.dependencies) this.addWatchFile(dependency);
          if (result.dependencies.length > 0) withTools.add(file);
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
