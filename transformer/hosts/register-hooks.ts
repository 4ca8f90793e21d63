/**
 * Node module hooks (loaded by tooltype/register through `module.register`, run in Node's hooks thread).
 *
 * - resolve: a relative specifier that names a missing `x.js` resolves to `x.ts` (as TypeScript sources write it),
 *   and an extensionless one to `x.ts` / `x/index.ts` (bundler-style sources).
 * - load: .ts/.mts/.cts/.tsx files. ES modules are compiled here with the transformer; CommonJS ones go to Node's
 *   CommonJS loader (no source returned), where tooltype/register's require hook compiles them, so `require`
 *   inside them works as usual.
 */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileForNode, nodeFormatOf, TS_EXTENSION, typescriptFileFor } from "./register-compile";

interface ResolveContext {
  parentURL?: string;
}
interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
interface LoadResult {
  format: string;
  source?: string;
  shortCircuit?: boolean;
}

export async function resolve(
  specifier: string,
  context: ResolveContext,
  next: (specifier: string, context: ResolveContext) => Promise<ResolveResult>,
): Promise<ResolveResult> {
  try {
    return await next(specifier, context);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const relative = /^\.{1,2}\//.test(specifier) || specifier.startsWith("file:");
    if (!relative || !context.parentURL?.startsWith("file:") || (code !== "ERR_MODULE_NOT_FOUND" && code !== "ERR_UNSUPPORTED_DIR_IMPORT")) throw error;
    const target = specifier.startsWith("file:") ? fileURLToPath(specifier) : path.resolve(path.dirname(fileURLToPath(context.parentURL)), specifier);
    const found = typescriptFileFor(target);
    if (!found) throw error;
    return { url: pathToFileURL(found).href, shortCircuit: true };
  }
}

export async function load(
  url: string,
  context: { format?: string | null },
  next: (url: string, context: { format?: string | null }) => Promise<LoadResult>,
): Promise<LoadResult> {
  if (!url.startsWith("file:")) return next(url, context);
  const file = fileURLToPath(url);
  if (!TS_EXTENSION.test(file) || file.endsWith(".d.ts")) return next(url, context);
  const format = nodeFormatOf(file);
  if (format === "commonjs") return { format, shortCircuit: true };
  return { format, source: compileForNode(file, format), shortCircuit: true };
}
