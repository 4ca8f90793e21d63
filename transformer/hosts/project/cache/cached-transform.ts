/**
 * The module transform with the persistent cache in front of it, as every host that hands tooltype one module at a
 * time calls it (the bundler plugins, Turbopack's loader, Bun's preload): the host's project is made only when the
 * cache cannot answer, so a build whose modules all come from the cache never loads or starts a compiler.
 */
import * as path from "node:path";
import { normalize } from "../files";
import type { ProjectOptions } from "../options";
import { tooltypeBuild } from "../tooltype-version";
import type * as transformModuleFile from "../../splice/transform-module";
import type { ModuleProject, ModuleResult } from "../../splice/transform-module";
import { ModuleCache } from "./module-cache";
import { cacheDirFor } from "./settings";

const caches = new Map<string, ModuleCache>();

/** The cache of the project the host's options name (one per setup in a process), or undefined when it is off. */
export function moduleCacheFor(options: ProjectOptions, cwd = process.cwd()): ModuleCache | undefined {
  const where = cachePlaceOf(options, cwd);
  if (where === undefined) return undefined;
  const key = `${where.dir}\0${where.setup}`;
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new ModuleCache(where.dir, where.setup)));
  return cache;
}

/**
 * The cache's folder for the host's options, and the setup that names the project's record there (tooltype's
 * version, the tsconfig, the compiler asked for, tooltype's options as given); undefined when the cache is off.
 */
export function cachePlaceOf(options: ProjectOptions, cwd = process.cwd()): { dir: string; setup: string } | undefined {
  const tsconfig = path.resolve(cwd, options.tsconfig ?? "tsconfig.json");
  const dir = cacheDirFor(tsconfig, options);
  if (dir === undefined) return undefined;
  const compiler =
    typeof options.typescript === "object" ? `module ${options.typescript.version}` : (options.typescript ?? "");
  return { dir, setup: JSON.stringify([tooltypeBuild(), normalize(tsconfig), compiler, options.plugin ?? null]) };
}

/**
 * The module's output from the cache, else read in the host's project (`project` makes it on first call) and
 * recorded. `looked`: what the host's own first lookup (without a project) answered, so it is not asked twice.
 */
export function transformCached(
  cache: ModuleCache | undefined,
  file: string,
  code: string,
  project: () => ModuleProject,
  looked?: "miss" | "undecided",
): ModuleResult {
  if (cache) {
    const hit = looked === "miss" ? "miss" : cache.lookup(file, code, project);
    if (typeof hit === "object") return hit;
  }
  // Loaded here, on the first miss: a build the cache answers loads neither the transform nor the compiler.
  const { transformModule } = require("../../splice/transform-module") as typeof transformModuleFile;
  const made = project();
  const result = transformModule(made, file, code);
  cache?.store(file, code, result, made);
  return result;
}
