/** `tooltype/esbuild`: tooltype's bundler plugin for esbuild (see unplugin.mts). */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
export default tooltype.esbuild;
