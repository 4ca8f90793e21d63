/**
 * `tooltype/rollup`: tooltype's bundler plugin for Rollup (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/rollup
 */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
/** The plugin for Rollup: `tooltype(options?)` in the `plugins` of its configuration. */
export default tooltype.rollup;
