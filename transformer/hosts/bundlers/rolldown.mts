/**
 * `tooltype/rolldown`: tooltype's bundler plugin for Rolldown (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/rolldown
 */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
/** The plugin for Rolldown: `tooltype(options?)` in the `plugins` of its configuration. */
export default tooltype.rolldown;
