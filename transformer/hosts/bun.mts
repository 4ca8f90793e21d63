/**
 * `tooltype/bun`: tooltype's bundler plugin for Bun (see unplugin.mts).
 *
 * @module tooltype/bun
 */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
/** The plugin for Bun: `tooltype(options?)` in the `plugins` of its configuration. */
export default tooltype.bun;
