/** `tooltype/rollup`: tooltype's bundler plugin for Rollup (see unplugin.mts). */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
export default tooltype.rollup;
