/**
 * A module the persistent cache answers, handed to esbuild as unplugin would hand it (the module's text with its
 * source map inline, the loader its extension names), from the map's text as the cache holds it: on esbuild, a hit
 * skips unplugin's layer, which would read the file again and parse and print the map once more. The map is left out
 * when the build writes none: esbuild reads a module's inline map only to make its output's.
 */
import * as path from "node:path";
import type { CachedModuleResult } from "../project/cache/module-cache.js";

/** What esbuild's onLoad takes from a hit (a structural copy of its OnLoadResult: esbuild's types are not loaded). */
export interface EsbuildHit {
  contents: string;
  loader: "ts" | "tsx";
  resolveDir: string;
  watchFiles: string[];
}

/**
 * The load result of `file` for `result`, or undefined when unplugin's way is needed: nothing spliced in (esbuild
 * loads the file itself), diagnostics to report, or an extension whose loader unplugin picks otherwise.
 */
export function esbuildHit(file: string, result: CachedModuleResult, withMap: boolean): EsbuildHit | undefined {
  if (result.code === undefined || result.diagnostics.length > 0) return undefined;
  const extension = path.extname(file).toLowerCase();
  const loader =
    extension === ".tsx"
      ? "tsx"
      : extension === ".ts" || extension === ".mts" || extension === ".cts"
        ? "ts"
        : undefined;
  if (loader === undefined) return undefined;
  const map = withMap ? (result.mapText ?? result.map?.toString()) : undefined;
  return {
    contents:
      map === undefined
        ? result.code
        : `${result.code}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(map).toString("base64")}`,
    loader,
    resolveDir: path.dirname(file),
    watchFiles: [...result.dependencies],
  };
}
