/**
 * `tooltype/esbuild`: tooltype's bundler plugin for esbuild. It registers esbuild's hooks itself rather than through
 * unplugin (as the other bundlers' entries do): a build whose modules the persistent cache answers then loads
 * nothing but the cache's modules (unplugin and its picomatch were about 50 ms of such a process's start), and a
 * module reaches tooltype in one trip (one read of it). What unplugin gave esbuild, it still gets: TT errors and
 * warnings as esbuild's, with the source line and UTF-8 columns, the files each module depends on to watch, the
 * source map inline, the `include` and `exclude` options, TypeScript 7's session opened ahead in a watch and ended by
 * `dispose()`. A watch also watches every project source and its folders (source-watch.mts): esbuild runs every
 * module's onLoad on each rebuild, so a file made or edited into a global declaration reaches the tools' modules
 * through the cache's own checks.
 *
 * @module tooltype/esbuild
 */
import { readFileSync } from "node:fs";
import type { TooltypePluginFactory, TooltypeSetupPlugin } from "./plugin-shapes.mjs";
import type { BundlerMessage } from "./bundler-message.mjs";
import { type EsbuildLoad, type EsbuildMessage, esbuildLoad } from "./esbuild-load.mjs";
import { PluginTransform, TYPESCRIPT } from "./plugin-transform.mjs";
import { SourceWatch } from "./source-watch.mjs";
import { readText } from "../project/files.js";

export type {
  TooltypeBundlerOptions,
  TooltypeSetupPlugin,
  TooltypePluginFactory,
  TypeScriptModule,
} from "./plugin-shapes.mjs";

/** The part of esbuild's PluginBuild the plugin uses (a structural copy: esbuild's types are not loaded). */
interface EsbuildBuild {
  initialOptions: { sourcemap?: unknown };
  onStart(callback: () => void): void;
  onEnd(callback: () => void): void;
  onDispose(callback: () => void): void;
  onLoad(
    options: { filter: RegExp },
    callback: (args: { path: string; namespace: string; suffix: string }) => Promise<EsbuildLoad | undefined>,
  ): void;
}

/** The plugin for esbuild: `tooltype(options?)` in the `plugins` of its configuration. */
const esbuild: TooltypePluginFactory<TooltypeSetupPlugin> = (options = {}) => ({
  name: "tooltype",
  setup(given) {
    const build = given as EsbuildBuild;
    const modules = new PluginTransform(options);
    const withMap = Boolean(build.initialOptions.sourcemap);
    const watch = new SourceWatch(modules.tsconfig);
    /** The project's sources were handed to esbuild's watch in this build (with its first load result). */
    let watchListed = false;
    // A (re)build starts: files may have changed on disk since the last one. esbuild does not say which: the files
    // made, removed or edited among the project's sources are found here and told to the project.
    build.onStart(() => {
      modules.buildStart();
      for (const file of watch.scan()) modules.changed(file);
      // esbuild runs every module's onLoad on each build: nothing more to ask for.
      watch.takeRerun();
      watchListed = false;
    });
    /**
     * The first load result of a build carries every project source and the folders holding them (a watch rebuilds
     * when one changes, or when a file is made or removed there; a one-shot build ignores them).
     */
    const listed = (load: EsbuildLoad): EsbuildLoad => {
      const sources = watchListed ? undefined : modules.sources();
      if (sources === undefined) return load;
      watchListed = true;
      const { files, folders } = watch.update(sources, true);
      return { ...load, watchFiles: [...load.watchFiles, ...files], watchDirs: folders };
    };
    // Every build ends here, a one-shot `build()`'s too; its dispose follows at once and cancels the opening (well
    // within IDLE_MS), so the session opens only in a context (a watch) whose build the cache answered.
    build.onEnd(() => {
      if (!modules.hasProject && modules.caches) modules.idle();
    });
    // A TypeScript 7 project's `tsc --api` process lives as long as the build, or the context, that uses it.
    build.onDispose(() => modules.finish());
    // Each module esbuild loads is a round trip from esbuild to JavaScript: with the default include, only
    // TypeScript makes it (a Go regular expression, so only the default's).
    build.onLoad({ filter: options.include === undefined ? TYPESCRIPT : /.*/ }, async (args) => {
      // A module of another plugin's namespace, or with a query, is named as unplugin named it: by its id.
      const plain = args.namespace === "file" && !args.suffix;
      const id = plain ? args.path : args.path + args.suffix;
      const file = plain ? id : id.replace(/[?#].*$/, "");
      if (!plain && (!modules.include.test(id) || modules.exclude.test(id))) return undefined;
      const code = readText(args.path);
      if (code === undefined || !modules.takes(file, code)) return undefined;
      const result = await modules.transform(file, code);
      // Nothing spliced in: esbuild loads the file itself, unless there is something to report (a tool whose only
      // edit an error stopped), which needs a load result to carry it: the module's own text then.
      const load =
        esbuildLoad(args.path, result, withMap) ??
        (result.diagnostics.length > 0
          ? esbuildLoad(
              args.path,
              { code, map: undefined, diagnostics: result.diagnostics, dependencies: result.dependencies },
              false,
            )
          : undefined);
      if (load === undefined) return undefined;
      if (result.diagnostics.length === 0) return listed(load);
      // Loaded with the first diagnostic: a build without any (a warm one) does not load the formatting.
      const { bundlerMessages, bundlerWarning } = await import("./bundler-message.mjs");
      const errors = result.diagnostics.filter((d) => d.category === "error");
      const warnings = result.diagnostics.filter((d) => d.category === "warning");
      const lines = new Map<string, readonly string[] | undefined>();
      return {
        ...listed(load),
        // One failure carrying every error: the first one's position, the others' in its text.
        errors: errors.length > 0 ? [esbuildMessage(bundlerMessages("esbuild", errors), lines)] : [],
        warnings: warnings.map((d) => esbuildMessage(bundlerWarning("esbuild", d), lines)),
      };
    });
  },
});
export default esbuild;

/**
 * A message as esbuild prints it: under `tools.ts:12:30:`, the text of that line, which esbuild does not read
 * itself. The line is read from the file the message names, and the column given in esbuild's unit.
 */
function esbuildMessage(message: BundlerMessage, lines: Map<string, readonly string[] | undefined>): EsbuildMessage {
  const { file, line, column } = message.loc;
  if (!lines.has(file)) lines.set(file, linesOf(file));
  const text = lines.get(file)?.[line - 1];
  return {
    id: message.id,
    pluginName: message.plugin,
    text: message.message,
    location:
      text === undefined
        ? { file, line, column }
        : // tooltype counts columns in UTF-16 units, as TypeScript does; esbuild counts them in UTF-8 bytes.
          { file, line, column: Buffer.byteLength(text.slice(0, column)), lineText: text },
    notes: [],
  };
}

function linesOf(file: string): readonly string[] | undefined {
  try {
    return readFileSync(file, "utf8").split(/\r\n|\r|\n/);
  } catch {
    // A message about a file that is not on disk keeps esbuild's own rendering.
    return undefined;
  }
}
