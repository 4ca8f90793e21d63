/**
 * `tooltype/rspack`: tooltype's bundler plugin for Rspack (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/rspack
 */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
/** The plugin for Rspack: `tooltype(options?)` in the `plugins` of its configuration. */
export default tooltype.rspack;
