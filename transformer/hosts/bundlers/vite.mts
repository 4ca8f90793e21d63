/**
 * `tooltype/vite`: tooltype's bundler plugin for Vite (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/vite
 */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
/** The plugin for Vite: `tooltype(options?)` in the `plugins` of its configuration. */
export default tooltype.vite;
