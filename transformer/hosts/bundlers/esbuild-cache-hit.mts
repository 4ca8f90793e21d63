/**
 * A module's result handed to esbuild's onLoad as unplugin handed it (the module's text with its source map inline,
 * the loader its extension names, the files it depends on to watch), from the map's text when the cache holds it:
 * unplugin's layer would read the file again and parse and print the map once more. The map is left out when the
 * build writes none: esbuild reads a module's inline map only to make its output's.
 */
import * as path from "node:path";
import type { ModuleResult } from "../splice/transform-module.js";
import type { CachedModuleResult } from "../project/cache/module-cache.js";

/** A message as esbuild's onLoad takes it (a structural copy of its PartialMessage: esbuild's types are not loaded). */
export interface EsbuildMessage {
  id?: string;
  pluginName?: string;
  text: string;
  location: { file: string; line: number; column: number; lineText?: string } | null;
  notes: [];
}

/** What esbuild's onLoad takes from tooltype (a structural copy of its OnLoadResult). */
export interface EsbuildLoad {
  contents: string;
  loader: string;
  resolveDir: string;
  watchFiles: string[];
  errors?: EsbuildMessage[];
  warnings?: EsbuildMessage[];
}

/** The loader of each extension, as unplugin picks it (any other: "js"). */
const LOADERS: Readonly<Record<string, string>> = {
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
  ".ts": "ts",
  ".cts": "ts",
  ".mts": "ts",
  ".tsx": "tsx",
  ".css": "css",
  ".less": "css",
  ".stylus": "css",
  ".scss": "css",
  ".sass": "css",
  ".json": "json",
  ".txt": "text",
};

/**
 * The load result of the module at `file` (esbuild's path) for `result`, or undefined when nothing was spliced in
 * (esbuild loads the file itself). `withMap`: the build writes source maps.
 */
export function esbuildLoad(
  file: string,
  result: ModuleResult | CachedModuleResult,
  withMap: boolean,
): EsbuildLoad | undefined {
  if (result.code === undefined) return undefined;
  const map = withMap ? (("mapText" in result ? result.mapText : undefined) ?? result.map?.toString()) : undefined;
  return {
    contents:
      map === undefined
        ? result.code
        : `${result.code}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(map).toString("base64")}`,
    loader: LOADERS[path.extname(file).toLowerCase()] ?? "js",
    resolveDir: path.dirname(file),
    watchFiles: [...result.dependencies],
  };
}
