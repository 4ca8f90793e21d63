/**
 * The project every host outside `tspc` analyses (the bundler plugins' project service, the `tooltype` CLI, the Node
 * register hook): its tsconfig and the TypeScript compiler API that reads it.
 *
 * Owns: finding and reading the tsconfig (a missing file or option errors become one readable `ProjectError`),
 * picking tooltype's entry out of `compilerOptions.plugins` (so `validators: false` means the same everywhere),
 * choosing the TypeScript module to analyse with (when `typescript` is TypeScript 7, which has no JavaScript API, a
 * 5.x/6.x under a known alias, else a message saying what to install), and the program the CLI and the register hook
 * make from the tsconfig.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { TS } from "../../compat";
import type { TooltypePluginConfig } from "../../plugin-config";
import type { TypeScriptModule } from "./options";
import { formatDiagnostics } from "../diagnostic-format";

/** A project that cannot be analysed: no tsconfig, an unreadable one, option errors, no usable compiler. */
export class ProjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProjectError";
  }
}

/**
 * Where a project on TypeScript 7 keeps a compiler with the JavaScript API, looked for when `typescript` itself has
 * none: `@typescript/typescript6`, the TypeScript team's package of the 6.0 API for projects on TypeScript 7 (what
 * docs/building.md installs), then the aliases of earlier advice (`typescript-6`, `typescript-5@npm:typescript@5.9`).
 */
export const COMPILER_ALIASES = ["@typescript/typescript6", "typescript-6", "typescript-5"] as const;

/** The install commands the errors give for a compiler tooltype can analyse with. */
const INSTALL = "npm i -D typescript@5.9";
const INSTALL_ALIAS = "npm i -D @typescript/typescript6";

/**
 * The TypeScript compiler API to analyse with. `choice` is a package name or the module itself; by default
 * `typescript`. Looked for in the project's folder first, then from tooltype's (a workspace's hoisted packages):
 * the first with a JavaScript API, 5.5 or later preferred. By default, when `typescript` is TypeScript 7 (npm's
 * latest, which has no JavaScript API), the aliases in COMPILER_ALIASES are looked for next, so a project checked by
 * TypeScript 7 needs no option. No usable compiler is an error saying what to install.
 */
export function typescriptFor(projectDir: string, choice: string | TypeScriptModule = "typescript"): TS {
  // A module handed in is the caller's compiler, taken as it is (the public option types it without its API).
  if (typeof choice === "object") return choice as TS;
  const names = choice === "typescript" ? [choice, ...COMPILER_ALIASES] : [choice];
  // Loaded one by one and only as far as needed: each TypeScript package costs a tenth of a second to load.
  let older: TS | undefined;
  let noApi: Partial<TS> | undefined;
  for (const from of [projectDir, __dirname]) {
    for (const name of names) {
      let tsi: Partial<TS>;
      try {
        tsi = require(require.resolve(name, { paths: [from] })) as Partial<TS>;
      } catch {
        continue; // not installed there: the next name, then the next place
      }
      if (typeof tsi.createProgram !== "function" || typeof tsi.createLanguageService !== "function") {
        if (name === choice) noApi ??= tsi;
        continue;
      }
      const [major = 0, minor = 0] = (tsi.version ?? "0").split(".").map(Number);
      if (major > 5 || (major === 5 && minor >= 5)) return tsi as TS;
      older ??= tsi as TS;
    }
  }
  if (older) return older;
  if (noApi) {
    const fix =
      choice === "typescript"
        ? `install the TypeScript team's 6.0 API package next to it (${INSTALL_ALIAS}), where tooltype looks for it by itself`
        : `install the TypeScript team's 6.0 API package next to it (${INSTALL_ALIAS}) and name it instead ({ typescript: "@typescript/typescript6" })`;
    throw new ProjectError(
      `tooltype: the package "${choice}" (TypeScript ${String(noApi.version)}) has no JavaScript compiler API, which tooltype analyses with. ` +
        `TypeScript 7 can keep checking your project: ${fix}. Or make TypeScript 5.9 the project's compiler: ${INSTALL}.`,
    );
  }
  throw new ProjectError(
    `tooltype: cannot load the TypeScript package "${choice}" from ${projectDir}. Install it: ${choice === "typescript" ? INSTALL : `npm i -D ${choice}`}`,
  );
}

/**
 * Whether the project itself (its folder, not tooltype's) has a compiler with the JavaScript API under `typescript`
 * or one of COMPILER_ALIASES. Without one, a project whose `typescript` is TypeScript 7 is read through its API.
 */
export function hasJavaScriptApiCompiler(projectDir: string): boolean {
  for (const name of ["typescript", ...COMPILER_ALIASES]) {
    try {
      const manifest = require.resolve(`${name}/package.json`, { paths: [projectDir] });
      const version = (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version?: string }).version ?? "";
      if (Number(version.split(".")[0]) < 7) return true;
    } catch {
      // not installed there: the next name
    }
  }
  return false;
}

/** The tsconfig.json nearest to `fromDir` (itself or a parent), like tsc without `-p`. */
export function findTsconfig(tsi: TS, fromDir: string): string | undefined {
  return tsi.findConfigFile(fromDir, tsi.sys.fileExists, "tsconfig.json");
}

export interface Tsconfig {
  /** The tsconfig file, absolute. */
  configPath: string;
  parsed: ts.ParsedCommandLine;
  /** tooltype's entry of `compilerOptions.plugins`, or `{}` when the tsconfig does not list it. */
  pluginConfig: TooltypePluginConfig;
}

export interface ReadOptions {
  /** What to do when there is no tsconfig at the path, a sentence: how this host is given another one. */
  hint: string;
  /** The host brings roots of its own: a tsconfig whose `include` matches nothing is fine. */
  rootsGiven?: boolean;
}

/** Reads `configPath` (a tsconfig file, or a folder holding tsconfig.json). */
export function readTsconfig(tsi: TS, configPath: string, { hint, rootsGiven = false }: ReadOptions): Tsconfig {
  const file = resolveConfigPath(tsi, configPath, hint);
  const read = tsi.readConfigFile(file, tsi.sys.readFile);
  if (read.error) throw new ProjectError(`tooltype: Cannot read ${file}:\n${formatDiagnostics(tsi, [read.error])}`);
  const parsed = tsi.parseJsonConfigFileContent(read.config, tsi.sys, path.dirname(file), undefined, file);
  // 18003: "No inputs were found".
  const errors = parsed.errors.filter(
    (d) => d.category === tsi.DiagnosticCategory.Error && !(d.code === 18003 && rootsGiven),
  );
  if (errors.length > 0) throw new ProjectError(`tooltype: ${file} has errors:\n${formatDiagnostics(tsi, errors)}`);
  return { configPath: file, parsed, pluginConfig: tooltypeEntry(parsed.options, path.dirname(file)) };
}

function resolveConfigPath(tsi: TS, configPath: string, hint: string): string {
  const absolute = path.resolve(configPath);
  if (tsi.sys.directoryExists(absolute)) {
    const inside = path.join(absolute, "tsconfig.json");
    if (tsi.sys.fileExists(inside)) return inside;
    throw new ProjectError(`tooltype: No tsconfig.json in ${absolute}. ${hint}`);
  }
  if (!tsi.sys.fileExists(absolute)) {
    throw new ProjectError(`tooltype: Cannot find ${absolute}. ${hint}`);
  }
  return absolute;
}

/** This build's transformer as a plugins entry names it: the tspc plugin, or the compiler core it wraps. */
const OWN_TRANSFORMER = [
  path.resolve(__dirname, "..", "tspc", "plugin.js"),
  path.resolve(__dirname, "..", "..", "index.js"),
];

/**
 * The plugins entry that names tooltype's transformer: by package name (`tooltype/transformer`), by a path into a
 * build of it (tspc's plugin, or the compiler core it wraps), or by a path to this very build.
 */
export function tooltypeEntry(options: ts.CompilerOptions, configDir: string): TooltypePluginConfig {
  const plugins = (options.plugins ?? []) as unknown as TooltypePluginConfig[];
  const entry = plugins.find((p) => {
    const transform = p.transform;
    if (typeof transform !== "string") return false;
    if (/^tooltype\/transformer(\/index(\.js)?)?$/.test(transform)) return true;
    if (/(^|\/)dist\/transformer(\/index(\.js)?|\/hosts\/tspc\/plugin(\.js)?)?$/.test(transform.split("\\").join("/")))
      return true;
    return (
      transform.startsWith(".") && OWN_TRANSFORMER.includes(path.resolve(configDir, transform).replace(/\.ts$/, ".js"))
    );
  });
  return entry ?? {};
}

export interface TsconfigProgram extends Tsconfig {
  program: ts.Program;
}

/**
 * The program of a tsconfig read with `readTsconfig`. `overrides` replace compiler options, or make the replacements
 * from the tsconfig's options (hosts that emit in memory); `extraRoots` adds files the tsconfig does not include (an
 * entry run by the register hook); `oldProgram`, the last build's in watch mode, lends the files that did not change.
 */
export function createTsconfigProgram(
  tsi: TS,
  config: Tsconfig,
  overrides: ts.CompilerOptions | ((options: ts.CompilerOptions) => ts.CompilerOptions) = {},
  extraRoots: readonly string[] = [],
  oldProgram?: ts.Program,
): TsconfigProgram {
  const { parsed } = config;
  const options = { ...parsed.options, ...(typeof overrides === "function" ? overrides(parsed.options) : overrides) };
  const roots = [...new Set([...parsed.fileNames, ...extraRoots.map((f) => path.resolve(f))])];
  const host = tsi.createCompilerHost(options, true);
  const program = tsi.createProgram({
    rootNames: roots,
    options,
    host,
    projectReferences: parsed.projectReferences,
    oldProgram,
  });
  return { ...config, program };
}

/** The project's own source files: no declaration files, no default libraries, nothing from node_modules. */
export function projectSourceFiles(program: ts.Program): ts.SourceFile[] {
  return program
    .getSourceFiles()
    .filter(
      (sf) =>
        !sf.isDeclarationFile &&
        !program.isSourceFileFromExternalLibrary(sf) &&
        !program.isSourceFileDefaultLibrary(sf),
    );
}
