/**
 * Which project a host's module transform reads types in: TypeScript 7's API when the project's `typescript` is
 * TypeScript 7 and nothing beside it has the JavaScript API (and no compiler was named), else the language service
 * on the JavaScript API.
 */
import * as path from "node:path";
import { projectFor } from "./language-service";
import type { ProjectOptions } from "./options";
import type { ModuleProject } from "../splice/transform-module";
import { preloadTypeScript7For, type TypeScript7Project, typeScript7ProjectFor } from "./typescript-7";

export function moduleProjectFor(options: ProjectOptions, cwd = process.cwd()): ModuleProject {
  return typeScript7ModuleProjectFor(options, cwd) ?? projectFor(options, cwd);
}

/**
 * The TypeScript 7 project `moduleProjectFor` gives for these options, or undefined when it gives the language
 * service, which is then not made: a watch opens TypeScript 7's session ahead (session-ahead.mts), nothing else.
 */
export function typeScript7ModuleProjectFor(
  options: ProjectOptions,
  cwd = process.cwd(),
): TypeScript7Project | undefined {
  if (options.typescript !== undefined && options.typescript !== "typescript") return undefined;
  return typeScript7ProjectFor(path.resolve(cwd, options.tsconfig ?? "tsconfig.json"), options.plugin);
}

/**
 * Loads ahead what `moduleProjectFor` will need that only an asynchronous import loads on every Node (TypeScript 7's
 * API, ES modules): the bundler hosts await it before their first module.
 */
export async function preloadModuleProject(options: ProjectOptions, cwd = process.cwd()): Promise<void> {
  if (options.typescript === undefined || options.typescript === "typescript")
    await preloadTypeScript7For(path.resolve(cwd, options.tsconfig ?? "tsconfig.json"));
}
