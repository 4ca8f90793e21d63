/**
 * `tooltype/bun`: tooltype's bundler plugin for Bun (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/bun
 */
import type { TooltypePluginFactory, TooltypeSetupPlugin } from "../bundlers/plugin-shapes.mjs";
import { tooltype } from "../bundlers/unplugin.mjs";

export type {
  TooltypeBundlerOptions,
  TooltypeSetupPlugin,
  TooltypePluginFactory,
  TypeScriptModule,
} from "../bundlers/plugin-shapes.mjs";
/** The plugin for Bun: `tooltype(options?)` in the `plugins` of its configuration. */
const bun: TooltypePluginFactory<TooltypeSetupPlugin> = tooltype.bun;
export default bun;
