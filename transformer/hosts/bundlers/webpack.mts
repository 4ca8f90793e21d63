/**
 * `tooltype/webpack`: tooltype's bundler plugin for webpack (and Next.js with webpack) (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/webpack
 */
import { tooltype } from "./unplugin.mjs";

export type { TooltypeBundlerOptions } from "./unplugin.mjs";
/** The plugin for webpack: `tooltype(options?)` in the `plugins` of its configuration. */
export default tooltype.webpack;
