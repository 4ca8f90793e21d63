/**
 * `tooltype/esbuild`: tooltype's bundler plugin for esbuild (see unplugin.mts).
 *
 * @module tooltype/esbuild
 */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
/** The plugin for esbuild: `tooltype(options?)` in the `plugins` of its configuration. */
export default tooltype.esbuild;
