/**
 * What the bundler plugin entries (`tooltype/vite`, `/rollup`, `/rolldown`, `/esbuild`, `/webpack`, `/rspack`,
 * `/bun`) declare: their options and the plugin each returns, written out here rather than taken from unplugin.
 * unplugin's types name every bundler's own (`@farmfe/core`, `webpack`, ...), which a project has one of at most,
 * and the options named the compiler's types, which TypeScript 7 does not ship: importing an entry put errors into a
 * project's type-checking unless `skipLibCheck` was on. Each plugin is declared as the part of it that the bundler's
 * `plugins` option requires (its hooks are the bundler's to call), so that it fits that bundler's own plugin type
 * (test/hosts/plugin-types.test.ts) and needs no package besides tooltype (test/package/plugin-declarations.test.ts).
 */
import type { ProjectOptions } from "../project/options.js";

export type { TypeScriptModule } from "../project/options.js";

/** Options of every bundler plugin: the tsconfig, the compiler to analyse with, tooltype's options, which modules. */
export interface TooltypeBundlerOptions extends ProjectOptions {
  /** Modules to transform (default: `.ts`, `.tsx`, `.mts`, `.cts` files). */
  include?: RegExp;
  /** Modules never to transform (default: anything under node_modules). */
  exclude?: RegExp;
}

/** The plugin for Vite, Rollup or Rolldown: an object of hooks, named `tooltype`, which that bundler calls. */
export interface TooltypeHooksPlugin {
  /** `"tooltype"`. */
  name: string;
}

/**
 * The plugin for esbuild or Bun: its `setup` registers its hooks on the build it is given (esbuild's `PluginBuild`,
 * Bun's `PluginBuilder`).
 */
export interface TooltypeSetupPlugin {
  /** `"tooltype"`. */
  name: string;
  /** Registers the plugin's hooks on the build (the bundler calls it). */
  setup(build: unknown): void | Promise<void>;
}

/** The plugin for webpack or Rspack: its `apply` taps the compiler it is given. */
export interface TooltypeCompilerPlugin {
  /** Taps the compiler's hooks (the bundler calls it). */
  apply(compiler: unknown): void;
}

/** A plugin entry's default export: `tooltype(options?)` makes the plugin. */
export type TooltypePluginFactory<P> = (options?: TooltypeBundlerOptions) => P;
