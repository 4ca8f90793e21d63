/**
 * `tooltype/bun`: tooltype's bundler plugin for Bun (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/bun
 */
import { tooltype } from "../bundlers/unplugin.mjs";

export type { TooltypeBundlerOptions } from "../bundlers/unplugin.mjs";
/** The plugin for Bun: `tooltype(options?)` in the `plugins` of its configuration. */
export default tooltype.bun;
