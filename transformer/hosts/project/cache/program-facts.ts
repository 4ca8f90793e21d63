/**
 * What a module's cached output was made from, as the program that made it tells: the compiler's version and
 * options, tooltype's version and options, every file of the program (the standard library's and the packages'
 * included), and the files whose change may change which files the program holds or how it resolves them (the
 * tsconfig and what it extends, the compilers' and the packages' package.json, and the folders that hold the
 * project's files and its packages: a file added there may join the program). The cache's key is made of these.
 */
import * as path from "node:path";
import type * as ts from "typescript";
import type { ProjectService } from "../language-service";
import { readJsonc, resolveExtends } from "../tsconfig-extends";
import { tooltypeBuild } from "../tooltype-version";
import type { TypeScript7Project } from "../typescript-7";
import type { FolderKind } from "./file-state";
import { sha256 } from "./sealed-file";
import { sortedKeys } from "../sorted-keys";

export interface ProgramFacts {
  /** What the program is: a module's cached output is used only with a program of the same id. */
  id: string;
  /** Every file whose text the key covers (sorted): the program's files and the files that decide them. */
  tracked: string[];
  /** Files of `tracked` not on disk (TypeScript 7's standard library, inside the compiler: its version covers it). */
  virtual: Set<string>;
  /** Folders whose list of names the key covers, and which kind of list. */
  folders: [folder: string, kind: FolderKind][];
  /** Whether JavaScript files may join the program (`allowJs`): then a new one in a project folder counts. */
  allowJs: boolean;
  /**
   * Files every module depends on: the program's files outside the project (on TypeScript 7, its declaration files
   * too), and the files that decide them.
   */
  shared: string[];
}

/** The compilers a project may pick (hosts/project/tsconfig.ts's `typescriptFor`): installing one changes the pick. */
const COMPILERS = ["typescript", "@typescript/typescript6", "typescript-6", "typescript-5"];

const ofPrograms = new WeakMap<object, ProgramFacts>();

/** The facts of the program the language service holds now (JavaScript API: 5.x, 6.0). */
export function factsOfProgram(
  project: Pick<ProjectService, "tsconfig" | "ts">,
  program: ts.Program,
  plugin: unknown,
): ProgramFacts {
  let facts = ofPrograms.get(program);
  if (facts) return facts;
  const files = program.getSourceFiles();
  const external = files
    .filter(
      (f) =>
        program.isSourceFileDefaultLibrary(f) ||
        program.isSourceFileFromExternalLibrary(f) ||
        f.fileName.includes("/node_modules/"),
    )
    .map((f) => f.fileName);
  facts = factsOf(
    project.tsconfig,
    project.ts.version,
    program.getCompilerOptions(),
    plugin,
    files.map((f) => f.fileName),
    external,
    // The compiler's own package.json: a compiler found beside tooltype rather than in the project's node_modules.
    path.resolve(path.dirname(project.ts.sys.getExecutingFilePath()), "..", "package.json"),
  );
  ofPrograms.set(program, facts);
  return facts;
}

/** The facts of a TypeScript 7 project's current program. */
export function factsOfTypeScript7(project: TypeScript7Project): ProgramFacts {
  // Through sourceFiles(): a session opened here records its files' versions, as the project's own reads do.
  project.sourceFiles();
  const session = project.openSession();
  const known = ofPrograms.get(session);
  if (known && (known as ProgramFacts & { generation?: number }).generation === session.generation) return known;
  const files = session.sourceFileNames();
  const facts = factsOf(
    project.tsconfig,
    session.ts.version,
    session.compilerOptions(),
    project.plugin,
    files,
    files.filter((f) => /\.d\.[cm]?ts$/.test(f) || f.includes("/node_modules/") || !isOnDisk(f)),
    path.join(project.packageDir, "package.json"),
  );
  ofPrograms.set(session, Object.assign(facts, { generation: session.generation }));
  return facts;
}

function factsOf(
  tsconfig: string,
  compilerVersion: string,
  options: object,
  plugin: unknown,
  files: string[],
  external: string[],
  compilerManifest: string,
): ProgramFacts {
  const configDir = path.dirname(tsconfig);
  const deciding = new Set<string>([...configChain(tsconfig), compilerManifest]);
  const folders = new Map<string, FolderKind>();
  const manifests = new Map<string, string | undefined>();
  const modulesDirs = new Set<string>();
  for (let dir = configDir; ; dir = path.dirname(dir)) {
    const modules = path.join(dir, "node_modules");
    modulesDirs.add(modules);
    deciding.add(path.join(dir, "package.json"));
    if (path.dirname(dir) === dir) break;
  }
  for (const name of COMPILERS) {
    for (const modules of modulesDirs) deciding.add(path.join(modules, name, "package.json"));
  }
  for (const modules of modulesDirs) {
    for (const dir of [modules, path.join(modules, "@types"), path.join(modules, "@typescript")])
      folders.set(dir.split(path.sep).join("/"), "packages");
  }
  const externalSet = new Set(external);
  for (const file of files) {
    if (!isOnDisk(file)) continue;
    if (externalSet.has(file)) {
      const manifest = packageManifestOf(file, manifests);
      if (manifest) deciding.add(manifest);
      continue;
    }
    // The project's folders up to the tsconfig's (or to the root, for a file outside it): a new name in any of them
    // may be a new root file, a new import target, or a folder of new files.
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (!folders.has(dir)) folders.set(dir, "project");
      deciding.add(path.join(dir, "package.json"));
      if (dir === configDir || path.dirname(dir) === dir || !dir.startsWith(configDir)) break;
    }
  }
  const normalized = (names: Iterable<string>): string[] => [...names].map((n) => n.split(path.sep).join("/"));
  const decidingNames = normalized(deciding);
  const tracked = [...new Set([...files, ...decidingNames])].sort();
  const shared = [...new Set([...external, ...decidingNames])];
  const id = sha256(
    JSON.stringify([
      tooltypeBuild(),
      compilerVersion,
      sortedKeys(options),
      sortedKeys(plugin ?? null),
      tracked,
      [...folders].sort(),
    ]),
  );
  const allowJs = (options as { allowJs?: unknown }).allowJs === true;
  return {
    id,
    tracked,
    virtual: new Set(files.filter((f) => !isOnDisk(f))),
    folders: [...folders].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    allowJs,
    shared,
  };
}

/** TypeScript 7 names its standard library files by a path inside the compiler (`bundled:///libs/...`). */
function isOnDisk(file: string): boolean {
  return path.isAbsolute(file) && !file.includes("://");
}

/** The tsconfig and every config it extends, as TypeScript follows `extends`. */
function configChain(tsconfig: string): string[] {
  const chain: string[] = [];
  const visit = (file: string): void => {
    if (chain.includes(file)) return;
    chain.push(file);
    const config = readJsonc(file);
    const names =
      typeof config?.extends === "string" ? [config.extends] : Array.isArray(config?.extends) ? config.extends : [];
    for (const name of names) {
      if (typeof name !== "string") continue;
      const base = resolveExtends(name, path.dirname(file));
      if (base) visit(base);
    }
  };
  visit(path.resolve(tsconfig));
  return chain;
}

/** The package.json of the package a file in node_modules belongs to (its `types`, `exports` decide resolution). */
function packageManifestOf(file: string, known: Map<string, string | undefined>): string | undefined {
  const modules = file.lastIndexOf("/node_modules/");
  if (modules < 0) return undefined;
  const rest = file.slice(modules + "/node_modules/".length).split("/");
  const packageDir =
    file.slice(0, modules + "/node_modules/".length) + rest.slice(0, rest[0]?.startsWith("@") ? 2 : 1).join("/");
  let manifest = known.get(packageDir);
  if (!known.has(packageDir)) {
    manifest = `${packageDir}/package.json`;
    known.set(packageDir, manifest);
  }
  return manifest;
}
