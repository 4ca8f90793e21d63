/**
 * `tooltype/vite`: tooltype's bundler plugin for Vite (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/vite
 */
import type { TooltypeHooksPlugin, TooltypePluginFactory } from "./plugin-shapes.mjs";
import { tooltype } from "./unplugin.mjs";

export type {
  TooltypeHooksPlugin,
  TooltypeBundlerOptions,
  TooltypePluginFactory,
  TypeScriptModule,
} from "./plugin-shapes.mjs";
/** The plugin for Vite: `tooltype(options?)` in the `plugins` of its configuration. */
const vite: TooltypePluginFactory<TooltypeHooksPlugin> = tooltype.vite;
export default vite;
