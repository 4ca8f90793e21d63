/**
 * tooltype's entry of a TypeScript 7 project's tsconfig, which TypeScript 7's API does not hand back, and what it
 * says to a user of tspc. Apart from the project module (typescript-7.ts), so that `tooltype check` reads it without
 * loading what only a build needs (the splicing of module text, the validator generator).
 */
import * as path from "node:path";
import type * as ts from "typescript";
import type { TooltypePluginConfig } from "../../index";
import { tooltypeEntry } from "./tsconfig";
import { extendedCompilerOptions } from "./tsconfig-extends";

/**
 * What to tell a TypeScript 7 project whose tsconfig lists tooltype's transformer for tspc: ts-patch cannot patch
 * TypeScript 7 and stops before any plugin loads, so no code of tooltype's can explain it there. Undefined when the
 * tsconfig lists no tooltype transformer.
 */
export function tspcOnTypeScript7Note(configPath: string): string | undefined {
  if (pluginEntryOf(configPath).transform === undefined) return undefined;
  return (
    `note: ${configPath} lists tooltype's transformer in compilerOptions.plugins, for tspc (ts-patch). ts-patch cannot patch TypeScript 7: \`tspc\` and \`ts-patch install\` stop with "Cannot read properties of undefined (reading 'LineFeed')" before any plugin loads, and TypeScript 7's own \`tsc\` ignores plugins. ` +
    `Build with \`npx tooltype build\` (tsc with tooltype in it), a bundler plugin or tooltype/register; or, to keep tspc, make TypeScript 6.0 the project's compiler (npm i -D typescript@6).`
  );
}

/**
 * tooltype's entry of the tsconfig's `plugins`, through its `extends` chain as TypeScript merges it (TypeScript 7's
 * API does not hand plugin entries back).
 */
export function pluginEntryOf(configPath: string): TooltypePluginConfig {
  return tooltypeEntry(extendedCompilerOptions(configPath) as ts.CompilerOptions, path.dirname(configPath));
}
