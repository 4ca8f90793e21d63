/** `tooltype/vite`: tooltype's bundler plugin for Vite (see unplugin.mts). */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
export default tooltype.vite;
