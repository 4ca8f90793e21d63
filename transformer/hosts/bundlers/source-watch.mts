/**
 * What a bundler's watch mode is told to watch beyond the files a build read, and when a change must run the modules
 * with tools again (issue 49). The Rollup, Rolldown, esbuild, webpack and Rspack watchers watch only the files a build
 * read, and run a module's transform again only when a file it registered changed; yet a project file the tools'
 * modules do not import changes their schemas when it is edited into a global declaration (or out of one), and so
 * does a file made or removed where the tsconfig takes files in. So every project source file and the folders that
 * hold them are watched, and such a change (and only such a change: an edit of any other file runs what it ran
 * before) runs every module with tools again, which the cache then answers or misses as it decides.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { declaresGlobally } from "../project/declares-globally.js";
import { normalize, readText } from "../project/files.js";

/** The project's source files as the latest build knew them, and (when known) those that declared globally then. */
export interface ProjectSources {
  files: readonly string[];
  globals?: ReadonlySet<string>;
}

/** What the watcher is told: the files, every folder (for esbuild's listing watch), and the folders safe to watch whole. */
export interface Watched {
  files: string[];
  /** Every folder below the tsconfig's that holds a source file, or a folder that does (for a listing watch). */
  folders: string[];
  /**
   * The folders a watcher that watches a folder and everything below it (Rollup's, webpack's) may take: those below
   * the tsconfig's folder without a node_modules folder of their own, and none inside another (a build's output or
   * the packages would otherwise start rebuilds).
   */
  trees: string[];
}

/** Files whose text can declare types for the program (as the cache counts them). */
const SOURCE = /\.[cm]?[jt]sx?$/;
const PACKAGES = /\/node_modules\//;

export class SourceWatch {
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();
  private readonly globals = new Set<string>();
  /** Each file's size and mtime and each folder's names, as last looked at (`scan`, for a watcher that says nothing). */
  private readonly stamps = new Map<string, string>();
  private rerun = false;
  private readonly configDir: string;

  constructor(tsconfig: string) {
    this.configDir = normalize(path.dirname(tsconfig));
  }

  /** A build read the project (`sources`): what to watch from now on. `stamp`: remember each file's state (`scan`). */
  update(sources: ProjectSources, stamp = false): Watched {
    for (const name of sources.files) {
      const file = normalize(name);
      if (this.files.has(file)) continue;
      this.files.add(file);
      const global = sources.globals ? sources.globals.has(name) : declaresGloballyNow(file);
      if (global) this.globals.add(file);
      if (stamp) this.stamps.set(file, stampOf(file));
      for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
        if (this.folders.has(dir)) break;
        this.folders.add(dir);
        this.stamps.set(`${dir}/`, listingOf(dir));
        if (dir === this.configDir || !this.inside(dir) || path.posix.dirname(dir) === dir) break;
      }
    }
    // Not the tsconfig's folder nor those above it: they hold the build's output and the packages, whose changes
    // would start rebuilds (a file made directly beside the tsconfig is read at the next rebuild another edit starts).
    const folders = [...this.folders].filter((dir) => this.inside(dir)).sort();
    const safe = folders.filter((dir) => !hasPackages(dir));
    const trees = safe.filter((dir) => !safe.some((other) => other !== dir && dir.startsWith(`${other}/`)));
    return { files: [...this.files], folders, trees };
  }

  /**
   * The watcher saw `file` change (made, edited or removed: the disk says which, whatever the watcher called it, so
   * that an editor's save by renaming a new file over the old one is an edit). A source made or removed in the
   * project, or an edit of one that declares globally now or did before, runs the modules with tools again at the
   * next build. Returns the project's sources that changed (the file, or what was made or removed in a folder), which
   * the project is to be told of.
   */
  changed(file: string): string[] {
    const name = normalize(file);
    // A folder named as changed (webpack's and Rspack's watchers name a folder whose names changed): what was made
    // or removed in it.
    if (this.folders.has(name)) return this.listingChanged(name);
    return this.sourceChanged(name) ? [name] : [];
  }

  private sourceChanged(name: string): boolean {
    if (!SOURCE.test(name) || PACKAGES.test(name)) return false;
    const known = this.files.has(name);
    if (!fs.existsSync(name)) {
      if (!known && !this.folders.has(path.posix.dirname(name))) return false;
      this.files.delete(name);
      this.globals.delete(name);
      this.rerun = true;
      return true;
    }
    if (!known) {
      // Made: where the tsconfig may take it in (beside the project's sources, or below the tsconfig).
      if (!this.folders.has(path.posix.dirname(name)) && !this.inside(name)) return false;
      this.files.add(name);
      if (declaresGloballyNow(name)) this.globals.add(name);
      this.rerun = true;
      return true;
    }
    const now = declaresGloballyNow(name);
    if (now || this.globals.has(name)) this.rerun = true;
    if (now) this.globals.add(name);
    else this.globals.delete(name);
    return true;
  }

  /**
   * For a watcher that does not say what changed (esbuild): each project file whose size or mtime changed, and each
   * name made or removed in a project folder, since the last look, told to `changed`. Returns the files it told.
   */
  scan(): string[] {
    const told: string[] = [];
    for (const file of [...this.files]) {
      const stamp = stampOf(file);
      if (this.stamps.get(file) === stamp) continue;
      this.stamps.set(file, stamp);
      if (this.sourceChanged(file)) told.push(file);
    }
    for (const dir of [...this.folders]) told.push(...this.listingChanged(dir));
    return told;
  }

  /** The sources made in `dir` (or in a folder made there) since its names were last looked at, told to `changed`. */
  private listingChanged(dir: string): string[] {
    const before = this.stamps.get(`${dir}/`);
    const listing = listingOf(dir);
    if (before === listing) return [];
    this.stamps.set(`${dir}/`, listing);
    if (before === undefined) return [];
    const told: string[] = [];
    const was = new Set(before.split("\n"));
    for (const name of listing.split("\n")) {
      if (was.has(name) || name === "") continue;
      for (const file of name.endsWith("/") ? sourcesBelow(`${dir}/${name.slice(0, -1)}`) : [`${dir}/${name}`]) {
        if (this.files.has(file) || !this.sourceChanged(file)) continue;
        this.stamps.set(file, stampOf(file));
        told.push(file);
      }
    }
    // Removed: a file that was known is no longer listed.
    const now = new Set(listing.split("\n"));
    for (const name of was) {
      const file = `${dir}/${name}`;
      if (name === "" || now.has(name) || !this.files.has(file)) continue;
      if (this.sourceChanged(file)) told.push(file);
    }
    return told;
  }

  /** Whether this build must run the modules with tools again; asked once per build. */
  takeRerun(): boolean {
    const rerun = this.rerun;
    this.rerun = false;
    return rerun;
  }

  private inside(name: string): boolean {
    return name.startsWith(`${this.configDir}/`);
  }
}

/** Whether the file's text declares globally now, as the cache tests it (a file it cannot read counts). */
function declaresGloballyNow(file: string): boolean {
  const text = readText(file);
  return text === undefined || declaresGlobally(text);
}

const GONE = "gone";

function stampOf(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return GONE;
  }
}

/** A folder's sources and subfolders (dot names left out, as TypeScript's wildcards leave them), one per line. */
function listingOf(dir: string): string {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return GONE;
  }
  return entries
    .filter((e) => !e.name.startsWith(".") && e.name !== "node_modules" && (e.isDirectory() || SOURCE.test(e.name)))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort()
    .join("\n");
}

/** The sources in a folder made since the last look, and below it. */
function sourcesBelow(dir: string): string[] {
  try {
    return (fs.readdirSync(dir, { recursive: true }) as string[])
      .map((name) => `${dir}/${name.split(path.sep).join("/")}`)
      .filter((file) => SOURCE.test(file) && !PACKAGES.test(`${file}`) && !/\/\./.test(file.slice(dir.length)));
  } catch {
    return [];
  }
}

function hasPackages(dir: string): boolean {
  return fs.existsSync(`${dir}/node_modules`);
}
