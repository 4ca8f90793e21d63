/**
 * Node's module hooks for tooltype/register, in the two forms Node offers (tooltype/register picks one):
 *
 * - `resolveSync` / `loadSync`, for `module.registerHooks`: in the main thread, for `import` and `require` alike.
 *   Every .ts, .mts, .cts and .tsx file is compiled here with the transformer, ES module or CommonJS, and its source
 *   returned, so a hook registered before tooltype's (tsx's) never sees it.
 * - `resolve` / `load`, for `module.register` (Node's hooks thread, where `registerHooks` is missing or unreliable):
 *   ES modules are compiled here; CommonJS ones go to Node's CommonJS loader (no source returned), where
 *   tooltype/register's require hook compiles them, so `require` inside them works as usual.
 *
 * Both resolve a relative specifier that names a missing `x.js` to `x.ts` (as TypeScript sources write it), and an
 * extensionless one to `x.ts` / `x/index.ts` (bundler-style sources).
 */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileForNode, type NodeFormat, nodeFormatOf, TS_EXTENSION, typescriptFileFor } from "./register-compile";
import type * as ts7Module from "./register-ts7";
import { requireFollowsSyncLoad } from "./sync-hooks";

interface ResolveContext {
  parentURL?: string;
}
interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
interface LoadContext {
  format?: string | null;
}
interface LoadResult {
  format: string;
  source?: string;
  shortCircuit?: boolean;
}

/** Not found by `import` (ERR_MODULE_NOT_FOUND, a folder) or by `require` through the hooks (MODULE_NOT_FOUND). */
const NOT_FOUND = new Set(["ERR_MODULE_NOT_FOUND", "ERR_UNSUPPORTED_DIR_IMPORT", "MODULE_NOT_FOUND"]);

/** The TypeScript file a relative specifier that Node could not resolve stands for, as a resolve result. */
function typescriptResolution(specifier: string, context: ResolveContext, error: unknown): ResolveResult | undefined {
  const code = (error as { code?: string } | null)?.code;
  const relative = /^\.{1,2}\//.test(specifier) || specifier.startsWith("file:");
  if (!relative || !context.parentURL?.startsWith("file:") || code === undefined || !NOT_FOUND.has(code))
    return undefined;
  const target = specifier.startsWith("file:")
    ? fileURLToPath(specifier)
    : path.resolve(path.dirname(fileURLToPath(context.parentURL)), specifier);
  const found = typescriptFileFor(target);
  return found === undefined ? undefined : { url: pathToFileURL(found).href, shortCircuit: true };
}

/** The TypeScript source file behind `url` and the format Node loads it as, or undefined for anything else. */
function typescriptSource(url: string): { file: string; format: NodeFormat } | undefined {
  if (!url.startsWith("file:")) return undefined;
  const file = fileURLToPath(url);
  if (!TS_EXTENSION.test(file) || file.endsWith(".d.ts")) return undefined;
  return { file, format: nodeFormatOf(file) };
}

/**
 * CommonJS output `loadSync` made, kept until Node's CommonJS loader asks tooltype's require hook for the same file:
 * from Node 23 on, an `import` of a CommonJS module runs both (the hook's source, then the loader's extension
 * handler, which tooltype's replaces), and the file is compiled once. Node 22 never asks, so nothing is kept there.
 */
const handedOver = new Map<string, string>();
const handOver = requireFollowsSyncLoad(process.versions.node);

/** Tests only: how many compiled sources are waiting for the require hook (none once modules have loaded). */
export function keptSources(): number {
  return handedOver.size;
}

/** The JavaScript `loadSync` just compiled for `file` as CommonJS, once; undefined when it did not. */
export function takeCompiled(file: string): string | undefined {
  const js = handedOver.get(file);
  if (js !== undefined) handedOver.delete(file);
  return js;
}

export function resolveSync(
  specifier: string,
  context: ResolveContext,
  next: (specifier: string, context: ResolveContext) => ResolveResult,
): ResolveResult {
  try {
    return next(specifier, context);
  } catch (error) {
    const found = typescriptResolution(specifier, context, error);
    if (found === undefined) throw error;
    return found;
  }
}

export function loadSync(
  url: string,
  context: LoadContext,
  next: (url: string, context: LoadContext) => LoadResult,
): LoadResult {
  const ts = typescriptSource(url);
  if (ts === undefined) return next(url, context);
  const source = compileForNode(ts.file, ts.format);
  if (ts.format === "commonjs" && handOver) handedOver.set(ts.file, source);
  return { format: ts.format, source, shortCircuit: true };
}

export async function resolve(
  specifier: string,
  context: ResolveContext,
  next: (specifier: string, context: ResolveContext) => Promise<ResolveResult>,
): Promise<ResolveResult> {
  try {
    return await next(specifier, context);
  } catch (error) {
    const found = typescriptResolution(specifier, context, error);
    if (found === undefined) throw error;
    return found;
  }
}

export async function load(
  url: string,
  context: LoadContext,
  next: (url: string, context: LoadContext) => Promise<LoadResult>,
): Promise<LoadResult> {
  const ts = typescriptSource(url);
  if (ts === undefined) return next(url, context);
  if (ts.format === "commonjs") return { format: ts.format, shortCircuit: true };
  // TypeScript 7's API is ES modules, which this thread cannot require before Node 20.19: imported first. (Loaded
  // here: a module the persistent cache answers needs neither.)
  await (require("./register-ts7") as typeof ts7Module).preloadTypeScript7Of(ts.file);
  return { format: ts.format, source: compileForNode(ts.file, ts.format), shortCircuit: true };
}
