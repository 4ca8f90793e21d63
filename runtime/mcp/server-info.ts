/**
 * The name and version an MCP server introduces itself with when its options give none: the app's own, from the
 * package.json nearest to its main module (one outside node_modules), else to the working directory, so that a client lists the server under
 * a true name rather than tooltype's. Read once per process, and never fatally: where there is no file system (a
 * Worker, a browser build) or no such package.json, `tooltype-server` and tooltype's version.
 */

/** tooltype's own version (test/mcp/server-info.test.ts checks it against package.json). */
export const TOOLTYPE_VERSION = "0.1.0";

/** What a server without a name of its own is called. */
export const FALLBACK_SERVER_NAME = "tooltype-server";

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
}

/** The part of `node:fs` read here. */
interface FileSystem {
  statSync(file: string, options: { throwIfNoEntry: false }): { isFile(): boolean; size: number } | undefined;
  readFileSync(file: string, encoding: "utf8"): string;
}

/** The part of `node:path` used here. */
interface Paths {
  dirname(file: string): string;
  join(...parts: string[]): string;
  resolve(...parts: string[]): string;
}

/** A package.json bigger than this is no app's manifest: not read. */
const MAX_MANIFEST_BYTES = 1_000_000;

let found: ServerInfo | undefined;

/** The app's name and version (see the header), looked up on the first call. */
export function defaultServerInfo(): ServerInfo {
  found ??= lookUp();
  return found;
}

function lookUp(): ServerInfo {
  const fallback = { name: FALLBACK_SERVER_NAME, version: TOOLTYPE_VERSION };
  try {
    const node = (
      globalThis as { process?: { getBuiltinModule?(id: string): unknown; argv?: string[]; cwd?(): string } }
    ).process;
    // process.getBuiltinModule (Node 20.16 and 22.3 on, Bun, Deno) reaches node:fs from any build of tooltype,
    // CommonJS or a bundle, without an import a bundler would have to resolve.
    const fs = node?.getBuiltinModule?.("node:fs") as FileSystem | undefined;
    const path = node?.getBuiltinModule?.("node:path") as Paths | undefined;
    if (!fs || !path) return fallback;
    const main = node?.argv?.[1];
    // A main module inside node_modules is a tool that runs the app (tsx, a test runner), whose package is not it.
    const mainDir = main && !/[\\/]node_modules[\\/]/.test(main) ? path.dirname(path.resolve(main)) : undefined;
    const starts = [mainDir, node?.cwd?.()];
    for (const start of starts) {
      const manifest = start === undefined ? undefined : nearestManifest(fs, path, start);
      if (manifest) return { name: manifest.name, version: manifest.version ?? TOOLTYPE_VERSION };
    }
  } catch {
    // Anything unexpected about the file system or the process: the fallback.
  }
  return fallback;
}

/** The nearest package.json at or above `dir` that names a package; its version when it has one. */
function nearestManifest(
  fs: FileSystem,
  path: Paths,
  dir: string,
): { name: string; version: string | undefined } | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const file = path.join(at, "package.json");
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isFile() && stat.size <= MAX_MANIFEST_BYTES) {
      const manifest = parsed(fs.readFileSync(file, "utf8"));
      // A package.json without a name (`{ "type": "module" }` in a build folder) is not the app's: look further up.
      if (manifest) return manifest;
    }
    if (path.dirname(at) === at) return undefined;
  }
}

function parsed(text: string): { name: string; version: string | undefined } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { name, version } = value as { name?: unknown; version?: unknown };
  if (typeof name !== "string" || name.length === 0 || name.length > 214) return undefined;
  return {
    name,
    version: typeof version === "string" && version.length > 0 && version.length <= 256 ? version : undefined,
  };
}

/** Forget what was found (tests). @internal */
export function forgetServerInfo(): void {
  found = undefined;
}
