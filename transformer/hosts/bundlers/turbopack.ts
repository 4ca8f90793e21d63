/**
 * `tooltype/turbopack`: tooltype as a webpack-style loader, for Turbopack (Next.js 16 builds with it by default), which
 * takes loaders in `turbopack.rules` but no bundler plugins. It runs the same module transform as the bundler plugins
 * (`transformModule`: the metadata spliced into the module's TypeScript, Turbopack's own TypeScript handling after).
 *
 * Owns what a loader differs in: its options arrive as JSON (`this.getOptions()`), so the compiler is named by package;
 * a TT error fails the module with every error's position, warnings go through `emitWarning`; the files a module's
 * schemas depend on are declared with `addDependency`, and when Turbopack runs the loader again for a module (in
 * `next dev`, after an edit) those files are looked at again before the transform.
 *
 * @module tooltype/turbopack
 */
import type { TooltypePluginConfig } from "../../plugin-config";
import { diagnosticError, formatDiagnostic } from "../diagnostic-format";
import { moduleProjectFor } from "../project/module-project";
import { mightUseTooltype } from "../splice/might-use-tooltype";
import { transformModule } from "../splice/transform-module";
import { moduleCacheFor } from "../project/cache/cached-transform";

/** What `turbopack.rules` may pass to the loader (plain JSON, as Turbopack requires). */
export interface TooltypeLoaderOptions {
  /** The project's tsconfig, relative to the folder Next.js runs in (default `tsconfig.json`). */
  tsconfig?: string;
  /** The package to analyse with (default `typescript`, or its `typescript-5` / `typescript-6` alias on TypeScript 7). */
  typescript?: string;
  /** tooltype's options (`validators`, ...); default: the tooltype entry of the tsconfig's `plugins`. */
  plugin?: TooltypePluginConfig;
  /** false: no persistent schema cache (docs/building.md). */
  cache?: boolean;
  /** The persistent cache's folder (default `node_modules/.cache/tooltype`). */
  cacheDir?: string;
}

/** The part of the webpack loader API this loader uses; Turbopack implements it. */
interface LoaderContext {
  resourcePath: string;
  getOptions?(): unknown;
  async(): (error: Error | null, code?: string, map?: object) => void;
  addDependency?(file: string): void;
  emitWarning?(warning: Error): void;
}

const PACKAGES = /[\\/]node_modules[\\/]/;

/** What each module's schemas depended on the last time it was transformed in this process. */
const dependenciesOf = new Map<string, readonly string[]>();

export default function tooltypeLoader(this: LoaderContext, source: string): void {
  const done = this.async();
  const file = this.resourcePath;
  if (PACKAGES.test(file) || !mightUseTooltype(source)) {
    done(null, source);
    return;
  }
  // Synchronous, as before the other hosts imported TypeScript 7's API ahead: on a Node that cannot require ES
  // modules (before 20.19) this loader on TypeScript 7 fails with TypeScript7NeedsNode's one line.
  transform(this, file, source, done);
}

function transform(
  context: LoaderContext,
  file: string,
  source: string,
  done: (error: Error | null, code?: string, map?: object) => void,
): void {
  try {
    const options = optionsOf(context);
    const cache = moduleCacheFor(options);
    const known = dependenciesOf.get(file);
    // The disk is looked at again on every call: a loader has no build boundary to do it at, and a worker process
    // that transformed other modules before an edit (`next dev`) would otherwise answer this one from what it saw
    // then. A look stats the recorded files once, size and time first; a build's modules each pay it.
    cache?.refresh();
    const looked = cache?.lookup(file, source, () => moduleProjectFor(options));
    let result = typeof looked === "object" ? looked : undefined;
    if (!result) {
      const project = moduleProjectFor(options);
      // Run again for this module: a file its schemas read may have changed since (why Turbopack runs it again), and
      // Turbopack may run it in a worker process that transformed the module before, whose project remembers that
      // file.
      for (const dependency of known ?? []) project.refresh(dependency);
      result = transformModule(project, file, source);
      if (known === undefined) {
        // First time in this process: its project may have read those files for another module, before an edit.
        // Look at them again, and transform again if one changed (next dev served a stale schema otherwise).
        const seen = project.fingerprint(result.dependencies);
        for (const dependency of result.dependencies) project.refresh(dependency);
        if (project.fingerprint(result.dependencies) !== seen) result = transformModule(project, file, source);
      }
      cache?.store(file, source, result, project);
    }
    dependenciesOf.set(file, result.dependencies);
    for (const dependency of result.dependencies) context.addDependency?.(dependency);
    for (const warning of result.diagnostics.filter((d) => d.category === "warning")) {
      const text = formatDiagnostic(warning);
      if (context.emitWarning) context.emitWarning(diagnosticError(text));
      else process.emitWarning(text);
    }
    const errors = result.diagnostics.filter((d) => d.category === "error");
    if (errors.length > 0) done(diagnosticError(errors.map(formatDiagnostic).join("\n")));
    else if (result.code === undefined) done(null, source);
    else done(null, result.code, result.map ? (JSON.parse(result.map.toString()) as object) : undefined);
  } catch (error) {
    done(error instanceof Error ? error : new Error(String(error)));
  }
}

function optionsOf(context: LoaderContext): TooltypeLoaderOptions {
  const given = (context.getOptions?.() ?? {}) as TooltypeLoaderOptions;
  return {
    tsconfig: given.tsconfig,
    typescript: given.typescript,
    plugin: given.plugin,
    cache: given.cache,
    cacheDir: given.cacheDir,
  };
}
