/**
 * Compiles one TypeScript file for Node with tooltype's transformer: what `tooltype/register` runs for each .ts,
 * .mts, .cts or .tsx file Node loads (in the module hooks' thread for `import`, in the main thread for `require`).
 *
 * Owns: one program per (tsconfig, output module kind), reused for every file of the process; the module kind Node
 * will load the file as; emitting the file with an inline source map; turning TT errors into an exception that
 * stops the run (a tool with an error has no correct schema) and printing TT warnings once; and the persistent
 * cache in front of all that (program-answers.ts): a module whose program's files all are as they were when it was
 * compiled gets the same JavaScript and warnings from disk, and no compiler, transformer or program is loaded.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { TS } from "../../compat";
import type * as coreModule from "../../index";
import { formatByCategory, stopOnErrors } from "../diagnostic-format";
import { factsOfProgram, type ProgramFacts } from "../project/cache/program-facts";
import { type ProgramAnswers, programAnswersFor } from "../project/cache/program-answers";
import type * as ts7Module from "./register-ts7";
import {
  createTsconfigProgram,
  findTsconfig,
  ProjectError,
  readTsconfig,
  typescriptFor,
  type TsconfigProgram,
} from "../project/tsconfig";

import { nearestTsconfig, nodeFormatOf, type NodeFormat } from "../project/files";

export { nodeFormatOf, type NodeFormat };

/** The extensions the hook compiles (declaration files are never loaded). */
export const TS_EXTENSION = /\.(ts|mts|cts|tsx)$/;

/**
 * The TypeScript file a missing JavaScript path stands for: `x.js` → `x.ts` / `x.tsx` (TypeScript sources import
 * each other by their output name), `x.mjs` → `x.mts`, `x.cjs` → `x.cts`; an extensionless `x` (bundler-style
 * sources) → `x.ts`, `x.tsx`, `x/index.ts`, `x/index.tsx`.
 */
export function typescriptFileFor(target: string): string | undefined {
  const match = /\.([mc]?)js$/.exec(target);
  const stem = match ? target.slice(0, -match[0].length) : target;
  const candidates = !match
    ? [`${stem}.ts`, `${stem}.tsx`, path.join(stem, "index.ts"), path.join(stem, "index.tsx")]
    : match[1]
      ? [`${stem}.${match[1]}ts`]
      : [`${stem}.ts`, `${stem}.tsx`];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

/** In-memory emit: no declarations, no build info, no output folder; the map inline so stack traces point at .ts. */
const EMIT_OVERRIDES: ts.CompilerOptions = {
  noEmit: false,
  emitDeclarationOnly: false,
  declaration: false,
  declarationMap: false,
  composite: false,
  incremental: false,
  tsBuildInfoFile: undefined,
  sourceMap: false,
  inlineSourceMap: true,
  inlineSources: true,
  noEmitOnError: false,
  outFile: undefined,
};

interface Project extends TsconfigProgram {
  tsi: TS;
  /** tooltype's transformer for this program, made once (its caches live as long as the program)... */
  transformer: ts.TransformerFactory<ts.SourceFile>;
  /** ...with the diagnostics of the file being emitted collected here. */
  diagnostics: ts.Diagnostic[];
}

/** Per folder of a loaded file: the compiler to use and the tsconfig that governs it (looked up once). */
const folders = new Map<string, { tsi: TS; configPath: string | undefined }>();
/** By tsconfig path and format: one program each for the whole process. */
const projects = new Map<string, Project>();

/**
 * Node-style module options (node16, nodenext...) already emit what Node loads, file by file; any other `module`
 * setting is replaced by the format Node will load this file as.
 */
function moduleOverride(tsi: TS, module: ts.ModuleKind | undefined, format: NodeFormat): ts.CompilerOptions {
  if (module !== undefined && module >= tsi.ModuleKind.Node16 && module <= tsi.ModuleKind.NodeNext) return {};
  return { module: format === "module" ? tsi.ModuleKind.ESNext : tsi.ModuleKind.CommonJS };
}

/**
 * TypeScript keeps standard decorators as written for `target: ESNext` (what `tsc --init` writes), and no Node
 * release parses them: the latest named year instead, which is ESNext less the decorators.
 */
function decoratorTarget(tsi: TS, options: ts.CompilerOptions): ts.CompilerOptions {
  if (options.experimentalDecorators || options.target !== tsi.ScriptTarget.ESNext) return {};
  const years = Object.values(tsi.ScriptTarget).filter(
    (v): v is number => typeof v === "number" && v < tsi.ScriptTarget.ESNext,
  );
  return { target: Math.max(...years) };
}

function projectFor(fileName: string, format: NodeFormat): { project: Project; sourceFile: ts.SourceFile } {
  const dir = path.dirname(fileName);
  let found = folders.get(dir);
  if (!found) {
    const tsi = typescriptFor(dir);
    found = { tsi, configPath: findTsconfig(tsi, dir) };
    folders.set(dir, found);
  }
  const { tsi, configPath } = found;
  if (!configPath) {
    throw new ProjectError(
      `tooltype/register: no tsconfig.json in ${dir} or any folder above it. tooltype reads types with a TypeScript program made from the project's tsconfig.json; create one (npx tsc --init) next to package.json.`,
    );
  }
  const overrides = (options: ts.CompilerOptions): ts.CompilerOptions => ({
    ...EMIT_OVERRIDES,
    ...moduleOverride(tsi, options.module, format),
    ...decoratorTarget(tsi, options),
  });
  const make = (roots: string[]): Project => {
    // Roots of its own: the entry may be a script the tsconfig does not include.
    const config = readTsconfig(tsi, configPath, {
      hint: "Create one next to package.json (npx tsc --init).",
      rootsGiven: true,
    });
    const made = createTsconfigProgram(tsi, config, overrides, roots);
    const diagnostics: ts.Diagnostic[] = [];
    const { default: tooltypeTransformer } = require("../../index") as typeof coreModule;
    const transformer = tooltypeTransformer(made.program, made.pluginConfig, {
      ts: tsi,
      addDiagnostic: (d) => diagnostics.push(d),
    });
    return { ...made, tsi, transformer, diagnostics };
  };
  const key = `${configPath}\0${format}`;
  let project = projects.get(key) ?? make([fileName]);
  projects.set(key, project);
  let sourceFile = project.program.getSourceFile(fileName);
  if (!sourceFile) {
    // A file the tsconfig does not include (a script run directly): the same project with it as one more root.
    project = make([...project.program.getRootFileNames(), fileName]);
    projects.set(key, project);
    sourceFile = project.program.getSourceFile(fileName);
    if (!sourceFile)
      throw new ProjectError(
        `tooltype/register: TypeScript did not load ${fileName} into the program of ${configPath}.`,
      );
  }
  return { project, sourceFile };
}

let compiles = 0;
let made = 0;

/** Tests only: how many files `compileForNode` has compiled in this process (from the cache or not). */
export function compileCount(): number {
  return compiles;
}

/** Tests only: how many of those a compiler compiled (the others came from the persistent cache). */
export function madeCount(): number {
  return made;
}

/** The JavaScript Node runs for `fileName`, with tooltype's metadata in it. Throws on TT errors. */
export function compileForNode(fileName: string, format: NodeFormat): string {
  compiles++;
  const file = path.resolve(fileName);
  const answers = answersFor(file);
  // The answer is the file's JavaScript for this format, and its warnings as printed (paths relative to the folder).
  const name = `${format}\0${file}`;
  const input = answers ? `${process.cwd()}\0${fs.readFileSync(file, "utf8")}` : "";
  const cached = compiledOf(answers?.lookup(name, input));
  if (cached) {
    stopOnErrors("tooltype/register", fileName, [], cached.warnings);
    return cached.js;
  }
  made++;
  const { js, warnings, facts } = compile(fileName, format, answers !== undefined);
  if (answers && facts) answers.store(name, input, { js, warnings }, facts);
  return js;
}

/** Compiles the file with the project's compiler; errors throw, warnings print (and come back for the cache). */
function compile(
  fileName: string,
  format: NodeFormat,
  withFacts: boolean,
): { js: string; warnings: string[]; facts: ProgramFacts | undefined } {
  const { compileOnTypeScript7, typeScript7ProjectOf } = require("./register-ts7") as typeof ts7Module;
  const typeScript7 = typeScript7ProjectOf(path.resolve(fileName));
  if (typeScript7) return compileOnTypeScript7(typeScript7, path.resolve(fileName), format, withFacts);
  const { project, sourceFile } = projectFor(path.resolve(fileName), format);
  const { program, tsi, transformer } = project;
  project.diagnostics.length = 0;
  let js: string | undefined;
  const result = program.emit(
    sourceFile,
    (name, text) => {
      if (/\.[mc]?js$/.test(name)) js = text;
    },
    undefined,
    false,
    { before: [transformer] },
  );
  const diagnostics = project.diagnostics.splice(0);
  const { errors, warnings } = formatByCategory(tsi, diagnostics);
  stopOnErrors("tooltype/register", fileName, errors, warnings);
  if (js === undefined) {
    throw new Error(
      `tooltype/register: TypeScript emitted no JavaScript for ${fileName}${result.emitSkipped ? " (emit skipped)" : ""}.`,
    );
  }
  // The program's facts need of the language service only its tsconfig and compiler: this program has the same.
  const facts = withFacts
    ? factsOfProgram({ tsconfig: project.configPath, ts: tsi }, program, project.pluginConfig)
    : undefined;
  return { js, warnings, facts };
}

/** Per folder of a loaded file: the cache of its project's answers (null when the cache is off or no tsconfig). */
const answersOf = new Map<string, ProgramAnswers | null>();

/** The cache of the answers for the project of `file`'s nearest tsconfig.json, found without loading a compiler. */
function answersFor(file: string): ProgramAnswers | undefined {
  const dir = path.dirname(file);
  let answers = answersOf.get(dir);
  if (answers === undefined) {
    const config = nearestTsconfig(dir);
    answers = (config && programAnswersFor(config, "register")) || null;
    answersOf.set(dir, answers);
  }
  return answers ?? undefined;
}

/** A cached answer, checked field by field (its JavaScript is what Node runs). */
function compiledOf(value: Record<string, unknown> | undefined): { js: string; warnings: string[] } | undefined {
  if (!value || typeof value.js !== "string" || !Array.isArray(value.warnings)) return undefined;
  const warnings = value.warnings as unknown[];
  return warnings.every((w) => typeof w === "string") ? { js: value.js, warnings: warnings as string[] } : undefined;
}
