/**
 * `tooltype/webpack`: tooltype's bundler plugin for webpack (and Next.js with webpack) (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/webpack
 */
import type { TooltypeCompilerPlugin, TooltypePluginFactory } from "./plugin-shapes.mjs";
import { tooltype } from "./unplugin.mjs";

export type {
  TooltypeCompilerPlugin,
  TooltypeBundlerOptions,
  TooltypePluginFactory,
  TypeScriptModule,
} from "./plugin-shapes.mjs";
/** The plugin for webpack: `tooltype(options?)` in the `plugins` of its configuration. */
const webpack: TooltypePluginFactory<TooltypeCompilerPlugin> = tooltype.webpack;
export default webpack;
