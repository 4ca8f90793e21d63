/**
 * `tooltype/rolldown`: tooltype's bundler plugin for Rolldown (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/rolldown
 */
import type { TooltypeHooksPlugin, TooltypePluginFactory } from "./plugin-shapes.mjs";
import { tooltype } from "./unplugin.mjs";

export type {
  TooltypeHooksPlugin,
  TooltypeBundlerOptions,
  TooltypePluginFactory,
  TypeScriptModule,
} from "./plugin-shapes.mjs";
/** The plugin for Rolldown: `tooltype(options?)` in the `plugins` of its configuration. */
const rolldown: TooltypePluginFactory<TooltypeHooksPlugin> = tooltype.rolldown;
export default rolldown;
