/** `tooltype/rolldown`: tooltype's bundler plugin for Rolldown (see unplugin.mts). */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
export default tooltype.rolldown;
