/**
 * The files a module's schemas may depend on, on TypeScript 7, whose API resolves no import cheaply: the project
 * files the module reaches through any chain of imports, as their texts name them, plus the project's files that
 * declare globally (declares-globally.ts). A type the reader walks can come from any file a visited declaration's
 * file imports, without the reader seeing that file's declarations (an alias flattened into a union of literals, a
 * `keyof`, a `typeof`), so a module's imports are followed as the JavaScript API's path (dependencies.ts) follows
 * them. Resolved as a superset of what TypeScript resolves (a relative specifier is every project file of that name
 * before its first dot, in that folder, and the index files of a folder of that name); a specifier that may name a project file by a path this does not follow (`paths`, `baseUrl`,
 * `rootDirs`, `#imports`, the project's own package name, a package linked in from elsewhere) makes the answer
 * "every project file", as before.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { declaresGlobally } from "./declares-globally";

/** What a file's text says: whether it declares globally, and the modules and files it names. */
export interface TextFacts {
  global: boolean;
  specifiers: string[];
  references: string[];
}

/** Import and export `from`, side-effect imports, `import()`, `require()`, JSDoc `@import`, `/// <reference path>`. */
const NAMED =
  /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(["'`])([^"'`\r\n]*)\1|<reference\s+path\s*=\s*(["'])([^"'\r\n]*)\3/g;

export function textFacts(text: string): TextFacts {
  const specifiers: string[] = [];
  const references: string[] = [];
  for (const match of text.matchAll(NAMED)) {
    if (match[2] !== undefined) specifiers.push(match[2]);
    else if (match[4] !== undefined) references.push(match[4]);
  }
  return { global: declaresGlobally(text), specifiers, references };
}

/** "every": some import may reach any project file. */
export type Reached = Set<string> | "every";

/** The imports among one list of project files: made again when the list changes (a file made or removed). */
export class TextImportGraph {
  /** Project files by folder and the part of their name before the first dot (`src/query` for src/query.d.ts). */
  private readonly byStem = new Map<string, string[]>();
  private readonly direct = new Map<string, string[] | "every">();
  private readonly nonRelativeEvery: boolean;
  private readonly packages = new Map<string, boolean>();

  constructor(
    readonly files: readonly string[],
    options: Record<string, unknown>,
    private readonly factsOf: (file: string) => TextFacts | undefined,
  ) {
    for (const file of files) {
      const key = stemOf(file);
      const list = this.byStem.get(key);
      if (list) list.push(file);
      else this.byStem.set(key, [file]);
    }
    this.nonRelativeEvery =
      options.paths !== undefined || options.baseUrl !== undefined || options.rootDirs !== undefined;
  }

  /** The project files `file` reaches through its imports (itself left out), or "every". */
  reachedFrom(file: string): Reached {
    const seen = new Set<string>([file]);
    const queue = [file];
    while (queue.length > 0) {
      const next = this.importsOf(queue.pop()!);
      if (next === "every") return "every";
      for (const target of next) {
        if (seen.has(target)) continue;
        seen.add(target);
        queue.push(target);
      }
    }
    seen.delete(file);
    return seen;
  }

  /** The project files that declare globally: every module may read their declarations. */
  globals(): string[] {
    return this.files.filter((file) => this.factsOf(file)?.global ?? true);
  }

  private importsOf(file: string): string[] | "every" {
    let known = this.direct.get(file);
    if (known === undefined) this.direct.set(file, (known = this.resolveAll(file)));
    return known;
  }

  private resolveAll(file: string): string[] | "every" {
    const facts = this.factsOf(file);
    if (!facts) return "every";
    const dir = path.posix.dirname(file);
    const found = new Set<string>();
    const names = [
      ...facts.specifiers.map((s) => [s, false] as const),
      ...facts.references.map((r) => [r, true] as const),
    ];
    for (const [name, isPath] of names) {
      if (isPath || name.startsWith(".") || path.isAbsolute(name)) {
        const base = path.resolve(dir, name).split(path.sep).join("/");
        const named = this.byStem.get(stemOf(base)) ?? [];
        // A folder (no file of that name) with a package.json resolves through its "types" or "exports": anywhere.
        if (named.length === 0 && fs.existsSync(`${base}/package.json`)) return "every";
        for (const target of [...named, ...(this.byStem.get(`${base}/index`) ?? [])]) found.add(target);
      } else if (this.mayNameProjectFile(name, dir)) return "every";
    }
    return [...found];
  }

  /** Whether a non-relative specifier may resolve to a project file rather than to a package or a built-in. */
  private mayNameProjectFile(name: string, dir: string): boolean {
    if (this.nonRelativeEvery || name.startsWith("#")) return true;
    if (name.startsWith("node:") || name === "") return false;
    const parts = name.split("/");
    const packageName = parts[0]!.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
    const key = `${dir}\0${packageName}`;
    let answer = this.packages.get(key);
    if (answer === undefined) this.packages.set(key, (answer = this.ownOrLinked(packageName, dir)));
    return answer;
  }

  /**
   * The package is the project's own (its package.json's name), or linked in from a folder outside node_modules
   * (a workspace's) that holds project files: files whose nearest package.json is the linked folder's.
   */
  private ownOrLinked(packageName: string, dir: string): boolean {
    const linked = linkedFolder(packageName, dir);
    if (linked === true) return true;
    return (
      linked !== undefined &&
      this.files.some((file) => file.startsWith(`${linked}/`) && this.packageFolderOf(file) === linked)
    );
  }

  private readonly packageFolders = new Map<string, string | undefined>();

  /** The folder of the nearest package.json above a file (or a folder's, for `dir`). */
  private packageFolderOf(file: string, dir = path.posix.dirname(file)): string | undefined {
    if (this.packageFolders.has(dir)) return this.packageFolders.get(dir);
    const parent = path.posix.dirname(dir);
    const found = fs.existsSync(`${dir}/package.json`)
      ? dir
      : parent === dir
        ? undefined
        : this.packageFolderOf(dir, parent);
    this.packageFolders.set(dir, found);
    return found;
  }
}

/** True for the project's own package name; else the real folder of a package linked from outside node_modules. */
function linkedFolder(packageName: string, dir: string): string | true | undefined {
  let ownChecked = false;
  for (let at = dir; ; at = path.dirname(at)) {
    if (!ownChecked) {
      try {
        const manifest = JSON.parse(fs.readFileSync(path.join(at, "package.json"), "utf8")) as { name?: unknown };
        ownChecked = true;
        if (manifest.name === packageName) return true;
      } catch {
        // No package.json here (or not JSON): the nearest one is further up.
      }
    }
    const installed = path.join(at, "node_modules", packageName);
    if (fs.existsSync(installed)) {
      try {
        const real = fs.realpathSync(installed);
        return real.split(path.sep).includes("node_modules") ? undefined : real.split(path.sep).join("/");
      } catch {
        return true;
      }
    }
    if (path.dirname(at) === at) return undefined;
  }
}

function stemOf(file: string): string {
  const slash = file.lastIndexOf("/");
  const name = file.slice(slash + 1);
  const dot = name.indexOf(".", 1);
  return file.slice(0, slash + 1) + (dot < 0 ? name : name.slice(0, dot));
}
