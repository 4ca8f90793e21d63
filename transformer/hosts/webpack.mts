/** `tooltype/webpack`: tooltype's bundler plugin for webpack (and Next.js with webpack) (see unplugin.mts). */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
export default tooltype.webpack;
