/**
 * A tsconfig's compiler options as TypeScript merges them along its `extends` chain, read from the files themselves:
 * the TypeScript 7 path's way to tooltype's plugin entry, which TypeScript 7's API does not hand back (7.0 drops
 * `plugins`, 7.1 keeps only each entry's `name`). The JavaScript API's path gets the same options from TypeScript's
 * own parse; this follows its rules, so both paths read the same entry.
 *
 * Owns: resolving an `extends` name as TypeScript does (a rooted or `./` `../` path, `.json` added when the file does
 * not exist; a package name through node_modules, by the package's `exports` when it has them, else its `tsconfig`
 * field or tsconfig.json), the order of an `extends` array (later ones override earlier ones, the file's own options
 * override them all), and reading a tsconfig's JSON with comments and trailing commas.
 */
import * as fs from "node:fs";
import * as path from "node:path";

type Json = Record<string, unknown>;

/**
 * The compiler options of `configPath` with those of the configs it extends beneath them, option by option: the
 * nearest config that sets an option gives all of it (a `plugins` list is never merged with a base's). A config that
 * cannot be found or read adds nothing (TypeScript 7 reports it when it opens the project); a cycle is cut.
 */
export function extendedCompilerOptions(configPath: string): Json {
  return optionsOf(path.resolve(configPath), new Set());
}

function optionsOf(configPath: string, seen: Set<string>): Json {
  if (seen.has(configPath)) return {};
  seen.add(configPath);
  const config = readJsonc(configPath);
  if (!config) return {};
  const merged: Json = {};
  const extended =
    typeof config.extends === "string" ? [config.extends] : Array.isArray(config.extends) ? config.extends : [];
  for (const name of extended) {
    if (typeof name !== "string") continue;
    const base = resolveExtends(name, path.dirname(configPath));
    if (base) Object.assign(merged, optionsOf(base, new Set(seen)));
  }
  const own = config.compilerOptions;
  return own && typeof own === "object" ? Object.assign(merged, own) : merged;
}

/** The file an `extends` name points at from a config in `fromDir`, or undefined when there is none. */
export function resolveExtends(name: string, fromDir: string): string | undefined {
  const given = name.split("\\").join("/");
  if (path.isAbsolute(given) || given.startsWith("./") || given.startsWith("../")) {
    const file = path.resolve(fromDir, given);
    if (isFile(file)) return file;
    return !file.endsWith(".json") && isFile(`${file}.json`) ? `${file}.json` : undefined;
  }
  const [packageName, rest] = splitPackageName(given);
  if (!packageName) return undefined;
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const packageDir = path.join(dir, "node_modules", packageName);
    if (isDirectory(packageDir)) {
      const found = fromPackage(packageDir, rest);
      if (found) return found;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** `@scope/name/sub/path` → [`@scope/name`, `sub/path`]; `name` → [`name`, ``]. */
function splitPackageName(name: string): [string | undefined, string] {
  const parts = name.split("/");
  const count = name.startsWith("@") ? 2 : 1;
  if (parts.length < count || parts.slice(0, count).some((p) => p === "")) return [undefined, ""];
  return [parts.slice(0, count).join("/"), parts.slice(count).join("/")];
}

function fromPackage(packageDir: string, rest: string): string | undefined {
  const manifest = readJsonc(path.join(packageDir, "package.json"));
  if (manifest && manifest.exports !== undefined && manifest.exports !== null) {
    const target = exportTarget(manifest.exports, rest === "" ? "." : `./${rest}`);
    const file = target === undefined ? undefined : path.resolve(packageDir, target);
    return file !== undefined && isFile(file) ? file : undefined;
  }
  const candidate = rest === "" ? packageDir : path.join(packageDir, rest);
  if (rest !== "") {
    if (candidate.endsWith(".json") && isFile(candidate)) return candidate;
    if (isFile(`${candidate}.json`)) return `${candidate}.json`;
  }
  const folderManifest = rest === "" ? manifest : readJsonc(path.join(candidate, "package.json"));
  if (typeof folderManifest?.tsconfig === "string") {
    const field = path.resolve(candidate, folderManifest.tsconfig);
    if (isFile(field)) return field;
  }
  const inside = path.join(candidate, "tsconfig.json");
  return isFile(inside) ? inside : undefined;
}

/** The conditions TypeScript resolves an `extends` package's `exports` with (NodeNext, as `require`). */
const CONDITIONS = new Set(["require", "types", "node", "default"]);

/** The target `exports` maps `subpath` (`.` or `./…`) to, with `*` patterns; undefined when it maps none. */
function exportTarget(exports: unknown, subpath: string): string | undefined {
  const isSubpathMap =
    typeof exports === "object" &&
    exports !== null &&
    !Array.isArray(exports) &&
    Object.keys(exports).some((k) => k.startsWith("."));
  if (!isSubpathMap) return subpath === "." ? conditionalTarget(exports, "") : undefined;
  const map = exports as Json;
  if (!subpath.includes("*") && Object.hasOwn(map, subpath)) return conditionalTarget(map[subpath], "");
  // The longest pattern prefix wins, as in Node's resolution.
  const patterns = Object.keys(map)
    .filter((k) => k.split("*").length === 2)
    .sort((a, b) => b.indexOf("*") - a.indexOf("*") || b.length - a.length);
  for (const key of patterns) {
    const [before, after] = key.split("*") as [string, string];
    if (subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= key.length - 1) {
      return conditionalTarget(map[key], subpath.slice(before.length, subpath.length - after.length));
    }
  }
  return undefined;
}

function conditionalTarget(target: unknown, star: string): string | undefined {
  if (typeof target === "string") return target.split("*").join(star);
  if (Array.isArray(target)) {
    for (const item of target) {
      const found = conditionalTarget(item, star);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof target === "object" && target !== null) {
    for (const [condition, value] of Object.entries(target)) {
      if (!CONDITIONS.has(condition)) continue;
      const found = conditionalTarget(value, star);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A JSON file as tsconfig files are written (comments, trailing commas), or undefined when it cannot be read. */
export function readJsonc(file: string): Json | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const json = JSON.parse(
      raw
        .replace(/^\uFEFF/, "")
        .replace(/\/\*[\s\S]*?\*\/|("(?:\\.|[^"\\])*")|\/\/.*$/gm, (m, s: string | undefined) => s ?? "")
        .replace(
          /("(?:\\.|[^"\\])*")|,(\s*[}\]])/g,
          (m, s: string | undefined, close: string | undefined) => s ?? close ?? m,
        ),
    ) as unknown;
    return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Json) : undefined;
  } catch {
    return undefined;
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
