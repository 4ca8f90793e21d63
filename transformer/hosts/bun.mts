/** `tooltype/bun`: tooltype's bundler plugin for Bun (see unplugin.mts). */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
export default tooltype.bun;
