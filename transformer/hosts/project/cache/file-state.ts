/**
 * What the cache knows of a file or a folder on disk, cheaply: a file's content hash, re-read only when its size or
 * modification time differ from the recorded ones (as bundlers' persistent caches do), and a folder's list of names
 * (a file added beside the project's files may join the program: a new root, or a module augmentation).
 */
import * as fs from "node:fs";
import { sha256 } from "./sealed-file";

/** A file as recorded: its name, size, mtime (ms) and content hash; "missing" for a file that did not exist. */
export type FileState = [name: string, size: number, mtimeMs: number, hash: string];

/** The hash of a file that is not on disk: TypeScript 7's standard library lives inside the compiler. */
export const NOT_ON_DISK = "not-on-disk";
export const MISSING = "missing";

/** The state of `name` now; `known` (its recorded state) spares reading a file whose size and mtime did not change. */
export function fileState(name: string, known?: FileState, virtual = false): FileState {
  if (virtual) return [name, -1, -1, NOT_ON_DISK];
  let stat: fs.Stats;
  try {
    stat = fs.statSync(name);
  } catch {
    return [name, -1, -1, MISSING];
  }
  if (known && known[1] === stat.size && known[2] === stat.mtimeMs && known[3] !== MISSING) return known;
  let text: Buffer;
  try {
    text = fs.readFileSync(name);
  } catch {
    return [name, -1, -1, MISSING];
  }
  return [name, stat.size, stat.mtimeMs, sha256(text)];
}

/**
 * A folder's names that can change the program, hashed ("missing" when it is not a readable folder). In a folder of
 * packages (node_modules, @types), every package. In a folder of the project, the files TypeScript may take in
 * (TypeScript's extensions, JavaScript's with `allowJs`) and the subfolders that hold such files: a bundler's output
 * folder of JavaScript or a `.cache` folder appearing beside the sources changes nothing. Names starting with a dot
 * are left out, as TypeScript's wildcards leave them out.
 */
export function folderState(dir: string, kind: FolderKind, allowJs: boolean): string {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return MISSING;
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    if (kind === "packages") names.push(entry.name);
    else if (entry.isDirectory()) {
      if (!IGNORED_FOLDERS.has(entry.name) && holdsSources(`${dir}/${entry.name}`, allowJs, { left: WALK_BUDGET }))
        names.push(`${entry.name}/`);
    } else if (isSource(entry.name, allowJs)) names.push(entry.name);
  }
  return sha256(names.sort().join("\n"));
}

export type FolderKind = "project" | "packages";

/** Folders TypeScript's wildcards never enter. */
const IGNORED_FOLDERS = new Set(["node_modules", "bower_components", "jspm_packages"]);
/** How many entries a walk for sources looks at before it takes the folder for one that holds some. */
const WALK_BUDGET = 2000;

function isSource(name: string, allowJs: boolean): boolean {
  return /\.[cm]?tsx?$/.test(name) || (allowJs && /\.[cm]?jsx?$/.test(name)) || name === "package.json";
}

function holdsSources(dir: string, allowJs: boolean, budget: { left: number }): boolean {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (--budget.left < 0) return true;
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) {
      if (!IGNORED_FOLDERS.has(entry.name) && holdsSources(`${dir}/${entry.name}`, allowJs, budget)) return true;
    } else if (isSource(entry.name, allowJs)) return true;
  }
  return false;
}

/** A folder the key covers, its kind, and its listing's state, as a record keeps it. */
export type FolderState = [folder: string, kind: FolderKind, state: string];

/** Whether a value read from a cache file is a FileState (cache files are checked field by field before use). */
export function isFileState(value: unknown): value is FileState {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    typeof value[0] === "string" &&
    typeof value[1] === "number" &&
    typeof value[2] === "number" &&
    typeof value[3] === "string"
  );
}

/** Whether a value read from a cache file is a FolderState. */
export function isFolderState(value: unknown): value is FolderState {
  return (
    Array.isArray(value) &&
    value.length === 3 &&
    typeof value[0] === "string" &&
    (value[1] === "project" || value[1] === "packages") &&
    typeof value[2] === "string"
  );
}
