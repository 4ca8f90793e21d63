/**
 * `tooltype/rollup`: tooltype's bundler plugin for Rollup (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/rollup
 */
import type { TooltypeHooksPlugin, TooltypePluginFactory } from "./plugin-shapes.mjs";
import { tooltype } from "./unplugin.mjs";

export type {
  TooltypeHooksPlugin,
  TooltypeBundlerOptions,
  TooltypePluginFactory,
  TypeScriptModule,
} from "./plugin-shapes.mjs";
/** The plugin for Rollup: `tooltype(options?)` in the `plugins` of its configuration. */
const rollup: TooltypePluginFactory<TooltypeHooksPlugin> = tooltype.rollup;
export default rollup;
