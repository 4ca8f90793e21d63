/**
 * Where the persistent schema cache lives for a project, or that it is off: the host's options first (`cache:
 * false`, `cacheDir`), then the environment (`TOOLTYPE_CACHE=0`, `TOOLTYPE_CACHE_DIR`), then the ecosystem's place
 * for such caches, `node_modules/.cache/tooltype` in the nearest node_modules above the tsconfig. With no
 * node_modules there, or one that cannot be written, the cache is off: a shared temporary folder would be a place
 * another user could write entries into, and the entries hold code that lands in the build's output.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The cache's settings a host takes (the bundler plugins' options). */
export interface CacheOptions {
  /** false: no persistent cache for this build. Default true (unless `TOOLTYPE_CACHE=0`). */
  cache?: boolean;
  /** The cache's folder (default: `node_modules/.cache/tooltype` beside the project). */
  cacheDir?: string;
}

/** The folder the cache of the project of `tsconfig` uses, or undefined when the cache is off. */
export function cacheDirFor(tsconfig: string, options: CacheOptions = {}): string | undefined {
  if (options.cache === false) return undefined;
  if (options.cache !== true && process.env.TOOLTYPE_CACHE === "0") return undefined;
  const given = options.cacheDir ?? (process.env.TOOLTYPE_CACHE_DIR || undefined);
  if (given !== undefined) return writable(path.resolve(path.dirname(tsconfig), given));
  for (let dir = path.dirname(path.resolve(tsconfig)); ; dir = path.dirname(dir)) {
    const modules = path.join(dir, "node_modules");
    if (isDirectory(modules)) return writable(path.join(modules, ".cache", "tooltype"));
    if (path.dirname(dir) === dir) return undefined;
  }
}

function writable(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
