/**
 * The options every build host outside tspc takes (the bundler plugins, Turbopack's loader), as their public
 * declarations show them. Written without a compiler type: a project type-checks these declarations with whatever
 * TypeScript it has, and TypeScript 7 ships no compiler API types (its `ts.TypeChecker` is no type there).
 */
import type { CacheOptions } from "./cache/settings";
import type { TooltypePluginConfig } from "../../plugin-config";

/**
 * A TypeScript compiler API module (`import * as ts from "typescript"` of 5.5 or later, or of
 * `@typescript/typescript6`), seen only as far as its declarations need: typescriptFor (tsconfig.ts) checks the
 * rest at run time.
 */
export interface TypeScriptModule {
  /** The compiler's version (`ts.version`). */
  readonly version: string;
}

/** Options every bundler plugin takes; `cache` and `cacheDir` set the persistent schema cache (docs/building.md). */
export interface ProjectOptions extends CacheOptions {
  /** The tsconfig to analyse with (default: `tsconfig.json` in the bundler's working directory). */
  tsconfig?: string;
  /**
   * The TypeScript compiler API to analyse with: a package name (resolved from the tsconfig's folder) or the module
   * itself. Default `typescript`, or, when that is TypeScript 7 (no JavaScript compiler API), `@typescript/typescript6`
   * (`npm i -D @typescript/typescript6`), else a 5.x/6.x installed under the alias `typescript-6` or `typescript-5`.
   * Name a compiler installed under any other name here.
   */
  typescript?: string | TypeScriptModule;
  /** tooltype's plugin options (`validators`, ...); default: the tooltype entry of the tsconfig's `plugins`. */
  plugin?: TooltypePluginConfig;
}
