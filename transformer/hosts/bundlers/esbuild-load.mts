/**
 * A module's result handed to esbuild's onLoad as unplugin handed it (the module's text with its source map inline,
 * the loader its extension names, the files it depends on to watch), from the text and the map's as the cache holds
 * them, bytes: unplugin's layer would read the file again, and parse and print the map once more. The map is left out
 * when the build writes none: esbuild reads a module's inline map only to make its output's.
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
  contents: string | Uint8Array;
  loader: string;
  resolveDir: string;
  watchFiles: string[];
  /** Folders whose names esbuild's watch looks at (a file made or removed there starts a rebuild). */
  watchDirs?: string[];
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
 * (esbuild loads the file itself). `withMap`: the build writes source maps. A cached result is handed on as the bytes
 * the cache read (esbuild takes a module's contents as bytes too), so its text is never decoded here.
 */
export function esbuildLoad(file: string, result: CachedModuleResult, withMap: boolean): EsbuildLoad | undefined {
  const bytes = result.codeBytes;
  if (bytes === undefined && result.code === undefined) return undefined;
  return {
    contents:
      bytes === undefined ? withInlineMap(result.code!, result, withMap) : withInlineMapBytes(bytes, result, withMap),
    loader: LOADERS[path.extname(file).toLowerCase()] ?? "js",
    resolveDir: path.dirname(file),
    watchFiles: [...result.dependencies],
  };
}

const MAP_URL = "\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,";

function withInlineMap(code: string, result: ModuleResult, withMap: boolean): string {
  const map = withMap ? result.map?.toString() : undefined;
  return map === undefined ? code : `${code}${MAP_URL}${Buffer.from(map).toString("base64")}`;
}

function withInlineMapBytes(code: Uint8Array, result: CachedModuleResult, withMap: boolean): Uint8Array {
  const map = withMap ? result.mapBytes : undefined;
  if (map === undefined) return code;
  const url = `${MAP_URL}${Buffer.from(map.buffer, map.byteOffset, map.byteLength).toString("base64")}`;
  return Buffer.concat([code, Buffer.from(url, "latin1")]);
}
