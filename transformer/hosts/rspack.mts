/** `tooltype/rspack`: tooltype's bundler plugin for Rspack (see unplugin.mts). */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
export default tooltype.rspack;
