/**
 * `tooltype/esbuild`: tooltype's bundler plugin for esbuild (the one unplugin plugin, made for each bundler).
 *
 * @module tooltype/esbuild
 */
import { readFileSync } from "node:fs";
import type { TooltypePluginFactory, TooltypeSetupPlugin } from "./plugin-shapes.mjs";
import { tooltype } from "./unplugin.mjs";

export type {
  TooltypeBundlerOptions,
  TooltypeSetupPlugin,
  TooltypePluginFactory,
  TypeScriptModule,
} from "./plugin-shapes.mjs";

type EsbuildPlugin = ReturnType<typeof tooltype.esbuild>;
type PluginBuild = Parameters<EsbuildPlugin["setup"]>[0];
type OnLoad = PluginBuild["onLoad"];
type OnLoadResult = Awaited<ReturnType<Parameters<OnLoad>[1]>>;

/** The plugin for esbuild: `tooltype(options?)` in the `plugins` of its configuration. */
const esbuild: TooltypePluginFactory<TooltypeSetupPlugin> = (options) => quotingLines(tooltype.esbuild(options));
export default esbuild;

/**
 * unplugin gives esbuild a message's file, line and column but not the text of that line, so esbuild printed an
 * empty line under `tools.ts:12:30:` where the code belongs. The line is read here from the file the message names,
 * only for a load that reports something, and the column is then given in esbuild's unit.
 */
function quotingLines(plugin: EsbuildPlugin): EsbuildPlugin {
  return {
    ...plugin,
    setup(build) {
      const onLoad: OnLoad = (options, callback) =>
        build.onLoad(options, async (args) => withLineText(await callback(args)));
      return plugin.setup({ ...build, onLoad });
    },
  };
}

function withLineText(result: OnLoadResult): OnLoadResult {
  if (result == null) return result;
  const lines = new Map<string, readonly string[] | undefined>();
  for (const message of [...(result.errors ?? []), ...(result.warnings ?? [])]) {
    const location = message.location;
    if (location == null || location.lineText != null || location.file == null || location.line == null) continue;
    const file = location.file;
    if (!lines.has(file)) lines.set(file, linesOf(file));
    const text = lines.get(file)?.[location.line - 1];
    if (text === undefined) continue;
    location.lineText = text;
    // tooltype counts columns in UTF-16 units, as TypeScript does; esbuild counts them in UTF-8 bytes.
    if (location.column != null) location.column = Buffer.byteLength(text.slice(0, location.column));
  }
  return result;
}

function linesOf(file: string): readonly string[] | undefined {
  try {
    return readFileSync(file, "utf8").split(/\r\n|\r|\n/);
  } catch {
    // A message about a file that is not on disk keeps esbuild's own rendering.
    return undefined;
  }
}
