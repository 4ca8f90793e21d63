/**
 * A TypeScript program made from a tsconfig.json, for the hosts that run tooltype outside `tspc` (the Node register
 * hook and the `tooltype` CLI).
 *
 * Owns: finding and reading the tsconfig (its errors become one readable exception), picking tooltype's entry out of
 * `compilerOptions.plugins` (so `validators: false` means the same everywhere), the project's own source files, and
 * printing diagnostics the way tsc does (`file:line:col - error TT1001: ...`).
 */
import * as path from "node:path";
import type * as ts from "typescript";
import type { TS } from "../compat";
import type { TooltypePluginConfig } from "../index";
import { TS_CODE_OFFSET } from "../diagnostics";

/** A tsconfig that cannot be used: missing, unreadable, or with option errors. The message says which and where. */
export class ProjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProjectError";
  }
}

export interface TsconfigProgram {
  configPath: string;
  program: ts.Program;
  /** tooltype's entry of `compilerOptions.plugins`, or `{}` when the tsconfig does not list it. */
  pluginConfig: TooltypePluginConfig;
}

/**
 * The TypeScript compiler API to analyse a project with: the project's own `typescript` when it is 5.5 or later with
 * a JavaScript API, else the one tooltype is installed with (a TypeScript 7 project is analysed by 5.x/6.x).
 */
export function typescriptFor(projectDir: string): TS {
  try {
    const own = require(require.resolve("typescript", { paths: [projectDir] })) as Partial<TS>;
    const [major = 0, minor = 0] = (own.version ?? "0").split(".").map(Number);
    if (typeof own.createProgram === "function" && (major > 5 || (major === 5 && minor >= 5))) return own as TS;
  } catch {
    // not installed in the project: use tooltype's
  }
  return require("typescript") as TS;
}

/** The tsconfig.json nearest to `fromDir` (itself or a parent), like tsc without `-p`. */
export function findTsconfig(tsi: TS, fromDir: string): string | undefined {
  return tsi.findConfigFile(fromDir, tsi.sys.fileExists, "tsconfig.json");
}

/**
 * Reads `configPath` (a tsconfig file, or a folder holding tsconfig.json) and makes its program. `overrides` replace
 * compiler options, or make the replacements from the tsconfig's options (hosts that emit in memory); `extraRoots` adds files the
 * tsconfig does not include (an entry run by the register hook).
 */
export function createTsconfigProgram(
  tsi: TS,
  configPath: string,
  overrides: ts.CompilerOptions | ((options: ts.CompilerOptions) => ts.CompilerOptions) = {},
  extraRoots: readonly string[] = [],
): TsconfigProgram {
  const file = resolveConfigPath(tsi, configPath);
  const read = tsi.readConfigFile(file, tsi.sys.readFile);
  if (read.error) throw new ProjectError(`Cannot read ${file}:\n${formatDiagnostics(tsi, [read.error])}`);
  const parsed = tsi.parseJsonConfigFileContent(read.config, tsi.sys, path.dirname(file), undefined, file);
  // "No inputs were found" is fine when the caller brings its own root (the register hook's entry).
  const errors = parsed.errors.filter((d) => !(d.code === 18003 && extraRoots.length > 0));
  if (errors.length > 0) throw new ProjectError(`${file} has errors:\n${formatDiagnostics(tsi, errors)}`);
  const options = { ...parsed.options, ...(typeof overrides === "function" ? overrides(parsed.options) : overrides) };
  const roots = [...new Set([...parsed.fileNames, ...extraRoots.map((f) => path.resolve(f))])];
  const host = tsi.createCompilerHost(options, true);
  const program = tsi.createProgram({ rootNames: roots, options, host, projectReferences: parsed.projectReferences });
  return { configPath: file, program, pluginConfig: tooltypeEntry(parsed.options, path.dirname(file)) };
}

/** The project's own source files: no declaration files, no default libraries, nothing from node_modules. */
export function projectSourceFiles(program: ts.Program): ts.SourceFile[] {
  return program
    .getSourceFiles()
    .filter((sf) => !sf.isDeclarationFile && !program.isSourceFileFromExternalLibrary(sf) && !program.isSourceFileDefaultLibrary(sf));
}

function resolveConfigPath(tsi: TS, configPath: string): string {
  const absolute = path.resolve(configPath);
  if (tsi.sys.directoryExists(absolute)) {
    const inside = path.join(absolute, "tsconfig.json");
    if (tsi.sys.fileExists(inside)) return inside;
    throw new ProjectError(`No tsconfig.json in ${absolute}. Pass the path of the project's tsconfig with -p.`);
  }
  if (!tsi.sys.fileExists(absolute)) {
    throw new ProjectError(`Cannot find ${absolute}. Pass the path of the project's tsconfig (or its folder) with -p.`);
  }
  return absolute;
}

const OWN_TRANSFORMER = path.resolve(__dirname, "..", "index.js");

/** The plugins entry that names tooltype's transformer, by package name or by path to this build. */
function tooltypeEntry(options: ts.CompilerOptions, configDir: string): TooltypePluginConfig {
  const plugins = (options.plugins ?? []) as unknown as TooltypePluginConfig[];
  const entry = plugins.find((p) => {
    const transform = p.transform;
    if (typeof transform !== "string") return false;
    if (/^tooltype\/transformer(\/index(\.js)?)?$/.test(transform)) return true;
    return transform.startsWith(".") && path.resolve(configDir, transform).replace(/\.ts$/, ".js") === OWN_TRANSFORMER;
  });
  return entry ?? {};
}

/**
 * Diagnostics as tsc prints them, one per line: `src/a.ts:3:5 - error TT1001: ...` (TS codes for TypeScript's own),
 * related locations indented below, paths relative to the working directory.
 */
export function formatDiagnostics(tsi: TS, diagnostics: readonly ts.Diagnostic[], cwd = process.cwd()): string {
  return diagnostics.map((d) => formatOne(tsi, d, cwd)).join("\n");
}

function formatOne(tsi: TS, d: ts.Diagnostic | ts.DiagnosticRelatedInformation, cwd: string, indent = ""): string {
  const category = tsi.DiagnosticCategory[d.category].toLowerCase();
  let text = tsi.flattenDiagnosticMessageText(d.messageText, "\n");
  let code = `TS${d.code}`;
  if (d.code > TS_CODE_OFFSET) {
    code = `TT${d.code - TS_CODE_OFFSET}`;
    if (text.startsWith(`${code}: `)) text = text.slice(code.length + 2);
  }
  const where = d.file && d.start !== undefined ? `${position(tsi, d.file, d.start, cwd)} - ` : "";
  const head = indent ? `${indent}${where}${text}` : `${where}${category} ${code}: ${text}`;
  const related = "relatedInformation" in d && d.relatedInformation ? d.relatedInformation : [];
  return [head, ...related.map((r) => formatOne(tsi, r, cwd, indent + "    "))].join("\n");
}

function position(tsi: TS, file: ts.SourceFile, start: number, cwd: string): string {
  const { line, character } = tsi.getLineAndCharacterOfPosition(file, start);
  const name = path.relative(cwd, file.fileName) || file.fileName;
  return `${name.split(path.sep).join("/")}:${line + 1}:${character + 1}`;
}
