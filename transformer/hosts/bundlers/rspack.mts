/**
 * `tooltype/rspack`: tooltype's bundler plugin for Rspack (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/rspack
 */
import type { TooltypeCompilerPlugin, TooltypePluginFactory } from "./plugin-shapes.mjs";
import { tooltype } from "./unplugin.mjs";

export type {
  TooltypeCompilerPlugin,
  TooltypeBundlerOptions,
  TooltypePluginFactory,
  TypeScriptModule,
} from "./plugin-shapes.mjs";
/** The plugin for Rspack: `tooltype(options?)` in the `plugins` of its configuration. */
const rspack: TooltypePluginFactory<TooltypeCompilerPlugin> = tooltype.rspack;
export default rspack;
