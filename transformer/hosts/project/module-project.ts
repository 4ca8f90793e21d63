/**
 * Which project a host's module transform reads types in: TypeScript 7's API when the project's `typescript` is
 * TypeScript 7 and nothing beside it has the JavaScript API (and no compiler was named), else the language service
 * on the JavaScript API.
 */
import * as path from "node:path";
import { projectFor } from "./language-service";
import type { ProjectOptions } from "./options";
import type { ModuleProject } from "../splice/transform-module";
import { preloadTypeScript7For, typeScript7ProjectFor } from "./typescript-7";

export function moduleProjectFor(options: ProjectOptions, cwd = process.cwd()): ModuleProject {
  if (options.typescript === undefined || options.typescript === "typescript") {
    const ts7 = typeScript7ProjectFor(path.resolve(cwd, options.tsconfig ?? "tsconfig.json"), options.plugin);
    if (ts7) return ts7;
  }
  return projectFor(options, cwd);
}

/**
 * Loads ahead what `moduleProjectFor` will need that only an asynchronous import loads on every Node (TypeScript 7's
 * API, ES modules): the bundler hosts await it before their first module.
 */
export async function preloadModuleProject(options: ProjectOptions, cwd = process.cwd()): Promise<void> {
  if (options.typescript === undefined || options.typescript === "typescript")
    await preloadTypeScript7For(path.resolve(cwd, options.tsconfig ?? "tsconfig.json"));
}
