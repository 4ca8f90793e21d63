/**
 * tooltype as a bundler plugin (unplugin): one definition for Vite, Rollup, Rolldown, esbuild, webpack, Rspack and
 * Bun. Each of those entry files only picks its bundler's flavour of the instance made here.
 *
 * Owns: which modules go through the transformer (TypeScript outside node_modules that mentions tooltype), handing
 * the result back as TypeScript with a source map (the bundler's own TypeScript handling runs after), reporting
 * tooltype's diagnostics through the bundler (errors fail the build with file, line and column; warnings are
 * warnings), each position printed once in the bundler's own convention (bundler-message.mts), and watch mode: a module is re-transformed when any file its schemas may depend on changes.
 * A module the persistent cache (transformer/hosts/project/cache/) holds is answered without making the project at all;
 * on esbuild, without unplugin's layer either (esbuild-cache-hit.mts), and only TypeScript makes the trip to JavaScript.
 * A watch or dev server whose builds the cache answered opens TypeScript 7's session when idle (session-ahead.mts).
 */
import { createUnplugin, type UnpluginInstance } from "unplugin";
import type { TooltypeBundlerOptions } from "./plugin-shapes.mjs";
import { bundlerMessages, bundlerWarning } from "./bundler-message.mjs";
import type { ModuleProject, ModuleResult } from "../splice/transform-module.js";
import { mightUseTooltype } from "../splice/might-use-tooltype.js";
import { moduleCacheFor, transformCached } from "../project/cache/cached-transform.js";
import type { CachedModuleResult, ModuleCache } from "../project/cache/module-cache.js";
import { esbuildHit } from "./esbuild-cache-hit.mjs";
import { declaresGlobally } from "../project/declares-globally.js";
import { readText } from "../project/files.js";
import { SessionAhead } from "./session-ahead.mjs";

export type { TooltypeBundlerOptions } from "./plugin-shapes.mjs";

const TYPESCRIPT = /\.[cm]?tsx?$/;

/** The part of a Vite dev server's module graph that drops a module's transform. */
interface ModuleGraph {
  getModulesByFile(file: string): Set<ModuleNode> | undefined;
  invalidateModule(module: ModuleNode): void;
}
type ModuleNode = { readonly id: string | null };
const PACKAGES = /[\\/]node_modules[\\/]|\0/;

export const tooltype: UnpluginInstance<TooltypeBundlerOptions | undefined, false> = createUnplugin(
  (given: TooltypeBundlerOptions | undefined, meta) => {
    const options = given ?? {};
    let project: ModuleProject | undefined;
    /**
     * What a module the cache does not hold needs (the project, the compiler, the transform), imported at the first
     * such module: a build whose modules all come from the cache loads none of it.
     */
    let ready: Promise<typeof import("../project/module-project.js")> | undefined;
    /** TypeScript 7's project class, once loaded (a project can only be one after it is). */
    let typeScript7: typeof import("../project/typescript-7.js").TypeScript7Project | undefined;
    /** The persistent cache (null when off), found at the first module: the project is made only on a miss. */
    let cache: ModuleCache | null | undefined;
    const include = options.include ?? TYPESCRIPT;
    const exclude = options.exclude ?? PACKAGES;
    /** In Vite's dev server, whose end is its closeBundle. */
    let serving = false;
    /** Vite's dev server's module graphs, one per environment (client, ssr). */
    let graphs: (() => ModuleGraph[]) | undefined;
    /** The modules whose tools (or diagnostics) the transform wrote: the ones a file made may change. */
    const withTools = new Set<string>();
    /** On esbuild, what the cache answered for a module its hit path handed on to unplugin's (with the text read). */
    const looked = new Map<string, { code: string; answer: CachedModuleResult | "miss" | "undecided" | undefined }>();
    const lookup = (file: string, code: string): CachedModuleResult | "miss" | "undecided" | undefined => {
      if (cache === undefined) {
        // One cache per project in the process, shared by this build's plugin and any earlier one's (a second
        // `build()` in the same process): what an earlier build saw of the disk is looked at again.
        cache = moduleCacheFor(options) ?? null;
        cache?.refresh();
      }
      return cache?.lookup(file, code);
    };
    /** webpack's and Rspack's compiler, which says whether it watches. */
    let compiler: { watchMode?: boolean } | undefined;
    const load = () =>
      (ready ??= (async () => {
        const [loaded, ts7] = await Promise.all([
          import("../project/module-project.js"),
          import("../project/typescript-7.js"),
        ]);
        typeScript7 = ts7.TypeScript7Project;
        await loaded.preloadModuleProject(options);
        return loaded;
      })());
    // In a watch whose builds the cache answered, TypeScript 7's session opens when the host is idle, so that the
    // first edit finds it open (a project on the JavaScript API is not made ahead).
    const ahead = new SessionAhead(async (wanted) => {
      if (project !== undefined) return;
      const loaded = await load();
      if (project !== undefined || !wanted()) return;
      const ts7 = loaded.typeScript7ModuleProjectFor(options);
      if (ts7 === undefined) return;
      project = ts7;
      ts7.openAhead();
      cache?.projectOpened();
    });
    /** A watch's build ended with every module from the cache and no project made: its output written, open one. */
    let builtFromCache = false;
    // A TypeScript 7 project's `tsc --api` process lives as long as the build, or the watch, that uses it.
    const finish = (): void => {
      ahead.cancel();
      if (typeScript7 && project instanceof typeScript7) {
        project.close();
        project = undefined;
      }
    };
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
        // esbuild's builds end in onDispose (a build() call, or a context's dispose()), which cancels the opening: a
        // build() disposes as soon as its onEnd callbacks (this one among them) return, well within IDLE_MS.
        const watching =
          meta.framework === "esbuild" ||
          (meta.framework === "webpack" || meta.framework === "rspack"
            ? compiler?.watchMode === true
            : (this as { meta?: { watchMode?: boolean } }).meta?.watchMode === true);
        if (!watching) finish();
        // The output is still to be written: the session opens once it is (writeBundle), not in the middle of it.
        else builtFromCache = project === undefined && cache != null;
      },
      writeBundle() {
        if (builtFromCache) ahead.idle();
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
      esbuild: {
        // unplugin's filter is every module by default, each one a round trip from esbuild to JavaScript: with the
        // default include, only TypeScript makes it (a Go regular expression, so only the default's).
        onLoadFilter: options.include === undefined ? TYPESCRIPT : undefined,
        setup(build) {
          build.onDispose(finish);
          // Registered before unplugin's own onLoad: a hit is answered here; anything else goes on to it.
          const withMap = Boolean(build.initialOptions.sourcemap);
          build.onLoad({ filter: options.include === undefined ? TYPESCRIPT : /.*/ }, (args) => {
            const file = args.path;
            if (args.namespace !== "file" || args.suffix || !include.test(file) || exclude.test(file)) return undefined;
            const code = readText(file);
            if (code === undefined || !mightUseTooltype(code)) return undefined;
            const answer = lookup(file, code);
            const hit = typeof answer === "object" ? esbuildHit(file, answer, withMap) : undefined;
            if (hit) {
              if (hit.watchFiles.length > 0) withTools.add(file);
              return hit;
            }
            looked.set(file, { code, answer });
            return undefined;
          });
        },
      },
      // A (re)build starts: files may have changed on disk since the last one.
      buildStart() {
        ahead.cancel();
        project?.refresh();
        cache?.refresh();
      },
      watchChange(id, change) {
        project?.refresh(id);
        cache?.refresh();
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
        filter: { id: { include, exclude }, code: /tooltype|\btool\b|structuredOutput/ },
        async handler(code, id) {
          const file = id.replace(/[?#].*$/, "");
          if (!include.test(file) || exclude.test(file) || !mightUseTooltype(code)) return null;
          // esbuild's hit path looked this text up already: not asked twice (a hit counted twice, a miss read twice).
          const early = looked.get(file);
          looked.delete(file);
          const answer = early?.code === code ? early.answer : lookup(file, code);
          let result: ModuleResult | undefined = typeof answer === "object" ? answer : undefined;
          // Vite's dev server transforms on request, and has no build end until it closes: idle after its last one.
          if (result && serving && project === undefined) ahead.idle();
          if (!result) {
            // TypeScript 7's API is ES modules: imported before the first module's synchronous read, so that it
            // loads on Nodes that cannot require them (before 20.19). Neither is loaded while the cache answers.
            const { moduleProjectFor } = await load();
            result = transformCached(
              cache ?? undefined,
              file,
              code,
              () => (project ??= moduleProjectFor(options)),
              typeof answer === "string" ? answer : undefined,
            );
          }
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
