/**
 * The options of tooltype's plugin entry in tsconfig, which every host hands the core. A file of its own, naming no
 * compiler type: the declarations of the bundler plugins and Turbopack's loader show it, and a project type-checks
 * those with whatever TypeScript it has (TypeScript 7 ships no compiler API types).
 */

/** The plugin entry from tsconfig (ts-patch passes it through). */
export interface TooltypePluginConfig {
  transform?: string;
  /**
   * Compile each tool's validator to code at build time (default `true`). With `false` the emitted JavaScript is
   * smaller and the runtime compiles validators on first use, which needs `new Function`.
   */
  validators?: boolean;
  /**
   * Compile a validator of each tool's return type too, which `checkResults` then runs without ajv. Default: for a
   * tool whose options say `checkResults: true`, and for every tool when the build runs with `NODE_ENV=test` (Vitest
   * and Jest set it), where results are checked by default; elsewhere the metadata stays as small as without it.
   */
  resultValidators?: boolean;
  /**
   * tspc and `tooltype build` on 5.x/6.0: `false` turns the persistent schema cache off for the project (the bundler
   * plugins take `cache` among their own options). Default on, unless `TOOLTYPE_CACHE=0`.
   */
  cache?: boolean;
  /** tspc and `tooltype build` on 5.x/6.0: the schema cache's folder, relative to the tsconfig's. */
  cacheDir?: string;
  [option: string]: unknown;
}
