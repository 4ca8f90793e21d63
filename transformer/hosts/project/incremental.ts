/**
 * Incremental and watch builds (`incremental: true`, `composite`, `tspc -w`) emit what a clean build emits.
 *
 * tsc re-emits a file only when its own text or its declaration signature changed, but a tool's schema and validator
 * also depend on types in other files (an interface behind a barrel, a base interface two imports away), which
 * change neither. So for each file that holds tools, this records a hash of everything its schemas can depend on:
 * the text of every project file it reaches through imports (transitively), the project's global script files,
 * the compiler options, tooltype's plugin options and version. On the next build of the same project (the first
 * emit of a new program), a tool file whose own text is unchanged but whose dependency hash differs is emitted again
 * through the same program, so its output is rewritten with the new schema.
 *
 * The record lives next to the build info file (`<tsbuildinfo>.tooltype.json`) for incremental builds, and in
 * memory for a watch process. Without a record but with an existing build info (tooltype was added, or the record
 * was deleted), every project file is emitted once. Rebuild more, never less.
 */
import type * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { TS } from "../../compat";
import type { DependencyTracker } from "../../index";
import { tooltypeBuild } from "./tooltype-version";
import { sortedKeys } from "./sorted-keys";

interface FileRecord {
  /** Hash of the file's own text: when it changes, tsc emits the file itself. */
  self: string;
  /** Hash of what its schemas may depend on. */
  deps: string;
}

interface State {
  /** Where the record is saved; undefined for a watch build without build info (memory only). */
  file: string | undefined;
  tools: Map<string, FileRecord>;
  /** Whether a record existed (on disk or from an earlier build of this process). */
  known: boolean;
  saveScheduled: boolean;
}

const RECORD_VERSION = 1;
const states = new Map<string, State>();
const checked = new WeakSet<ts.Program>();
/** Set while this module re-emits a file: the nested emit runs the transformer again, which must not re-check. */
let reemitting = false;

/**
 * node:crypto, loaded by the first incremental or watch build: a plain build (most of them) does not need it, and it
 * takes several milliseconds to load.
 */
let loaded: typeof crypto.createHash | undefined;
function createHash(algorithm: string): crypto.Hash {
  loaded ??= (require("node:crypto") as typeof crypto).createHash;
  return loaded(algorithm);
}

/**
 * The bookkeeping of one emit of one program, made by the tspc plugin when ts-patch creates the transformer for it.
 * For an incremental or watch build by tspc, returns the tracker that records the tool files and, at the first file the
 * program emits, re-emits the stale ones through
 * `program.emit`, to which ts-patch adds the configured plugins (tooltype and any other), as for every file.
 * Hosts that make their own programs (the CLI, the register hook, bundler plugins) emit in memory and handle
 * changes themselves: a re-emit there would write files nobody asked for. Otherwise undefined.
 */
export function trackDependencies(
  tsi: TS,
  program: ts.Program,
  checker: ts.TypeChecker,
  pluginConfig: object,
  reported: ts.Diagnostic[] | undefined,
): DependencyTracker | undefined {
  const options = program.getCompilerOptions();
  if (!options.incremental && !options.composite && !options.watch) return undefined;
  if (!("originalEmit" in program)) return undefined; // not a program ts-patch made for tspc
  if (reported && !reemitting) forgetReported(reported);
  const state = stateFor(tsi, options);
  const hashes = new DependencyHasher(tsi, program, checker, pluginConfig);
  const reemitStale = (current: ts.SourceFile): void => {
    const stale = state.known
      ? [...state.tools].flatMap(([name, record]) => {
          const file = program.getSourceFile(name);
          return file && hashes.own(file) === record.self && hashes.dependencies(file) !== record.deps ? [file] : [];
        })
      : buildInfoExists(tsi, options)
        ? projectFiles(program)
        : [];
    state.known = true;
    for (const file of stale) {
      if (file === current) continue; // being emitted right now
      reemitting = true;
      try {
        program.emit(file);
      } finally {
        reemitting = false;
      }
    }
  };
  return {
    visited(file, hasTools) {
      // Checked at the first file this program emits as JavaScript: the builder also "emits" declarations in memory
      // to compare signatures, and diagnostics found during those are thrown away.
      if (!reemitting && !checked.has(program)) {
        checked.add(program);
        reemitStale(file);
      }
      const name = file.fileName;
      if (hasTools) state.tools.set(name, { self: hashes.own(file), deps: hashes.dependencies(file) });
      else if (!state.tools.delete(name)) return;
      scheduleSave(state);
    },
  };
}

/**
 * The builder emits file by file and keeps each emit's diagnostics as that file's, until the file is emitted again;
 * ts-patch adds every plugin diagnostic of the program to every emit. So tooltype's diagnostics from earlier emits
 * (already in those emits' results) are dropped here: an error stays with the emit that found it, and goes away when
 * that file is emitted again, instead of being kept by every file emitted after it.
 */
function forgetReported(reported: ts.Diagnostic[]): void {
  for (let i = reported.length - 1; i >= 0; i--) if (reported[i]!.source === "tooltype") reported.splice(i, 1);
}

function stateFor(tsi: TS, options: ts.CompilerOptions): State {
  const buildInfo = tsi.getTsBuildInfoEmitOutputFilePath(options);
  const file = buildInfo ? `${buildInfo}.tooltype.json` : undefined;
  const key = file ?? `watch:${String(options.configFilePath ?? "")}`;
  let state = states.get(key);
  if (!state) {
    state = { file, tools: new Map(), known: false, saveScheduled: false };
    const saved = file ? readRecord(file) : undefined;
    if (saved) {
      state.tools = saved;
      state.known = true;
    }
    states.set(key, state);
  }
  return state;
}

function readRecord(file: string): Map<string, FileRecord> | undefined {
  try {
    const data = JSON.parse(fs.readFileSync(file, "utf8")) as { v?: number; tools?: Record<string, FileRecord> };
    if (data.v !== RECORD_VERSION || !data.tools) return undefined;
    const dir = path.dirname(file);
    return new Map(
      Object.entries(data.tools).map(([name, record]) => [path.resolve(dir, name).split(path.sep).join("/"), record]),
    );
  } catch {
    return undefined; // missing or unreadable: treated as no record, which re-emits everything once
  }
}

/** Saved after the current build step (watch) and at exit (tspc exits synchronously when the build ends). */
function scheduleSave(state: State): void {
  if (!state.file || state.saveScheduled) return;
  state.saveScheduled = true;
  const save = (): void => {
    if (!state.saveScheduled) return;
    state.saveScheduled = false;
    process.removeListener("exit", save);
    const dir = path.dirname(state.file!);
    const tools = Object.fromEntries(
      [...state.tools].map(([name, record]) => [path.relative(dir, name).split(path.sep).join("/"), record]),
    );
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(state.file!, JSON.stringify({ v: RECORD_VERSION, tools }));
  };
  process.once("exit", save);
  setImmediate(save).unref();
}

function buildInfoExists(tsi: TS, options: ts.CompilerOptions): boolean {
  const buildInfo = tsi.getTsBuildInfoEmitOutputFilePath(options);
  return !!buildInfo && fs.existsSync(buildInfo);
}

function projectFiles(program: ts.Program): ts.SourceFile[] {
  return program
    .getSourceFiles()
    .filter(
      (f) =>
        !f.isDeclarationFile && !program.isSourceFileFromExternalLibrary(f) && !program.isSourceFileDefaultLibrary(f),
    );
}

/** Hashes of one program's files and of each file's dependency closure, each computed once. */
class DependencyHasher {
  readonly #own = new Map<ts.SourceFile, string>();
  readonly #direct = new Map<ts.SourceFile, ts.SourceFile[]>();
  #globals: ts.SourceFile[] | undefined;
  readonly #context: string;

  constructor(
    private readonly tsi: TS,
    private readonly program: ts.Program,
    private readonly checker: ts.TypeChecker,
    pluginConfig: object,
  ) {
    const { configFilePath: _config, watch: _watch, ...options } = program.getCompilerOptions();
    this.#context = JSON.stringify([tooltypeBuild(), this.tsi.version, sortedKeys(options), sortedKeys(pluginConfig)]);
  }

  own(file: ts.SourceFile): string {
    let hash = this.#own.get(file);
    if (hash === undefined) {
      hash = createHash("sha256").update(file.text).digest("base64");
      this.#own.set(file, hash);
    }
    return hash;
  }

  /** Everything `file`'s types can come from: imports followed transitively, plus global scripts and settings. */
  dependencies(file: ts.SourceFile): string {
    const seen = new Set<ts.SourceFile>([file]);
    const queue = [file];
    while (queue.length > 0) {
      for (const next of this.#directOf(queue.pop()!)) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    for (const global of this.#globalScripts()) seen.add(global);
    seen.delete(file);
    const parts = [...seen].map((f) => `${f.fileName}\0${this.own(f)}`).sort();
    return createHash("sha256").update(this.#context).update(parts.join("\n")).digest("base64");
  }

  #isProjectFile(f: ts.SourceFile): boolean {
    return !this.program.isSourceFileFromExternalLibrary(f) && !this.program.isSourceFileDefaultLibrary(f);
  }

  /** Project files without imports or exports declare globals any file may use. */
  #globalScripts(): ts.SourceFile[] {
    this.#globals ??= this.program
      .getSourceFiles()
      .filter((f) => this.#isProjectFile(f) && !this.tsi.isExternalModule(f));
    return this.#globals;
  }

  #directOf(file: ts.SourceFile): ts.SourceFile[] {
    let direct = this.#direct.get(file);
    if (direct) return direct;
    const found = new Set<ts.SourceFile>();
    for (const specifier of moduleSpecifiers(this.tsi, file)) {
      const symbol = this.checker.getSymbolAtLocation(specifier);
      for (const declaration of symbol?.declarations ?? []) {
        const target = declaration.getSourceFile();
        if (this.#isProjectFile(target)) found.add(target);
      }
    }
    for (const reference of file.referencedFiles) {
      const target = this.program.getSourceFile(path.resolve(path.dirname(file.fileName), reference.fileName));
      if (target && this.#isProjectFile(target)) found.add(target);
    }
    direct = [...found];
    this.#direct.set(file, direct);
    return direct;
  }
}

/**
 * The module names a file refers to: import and export declarations, `import x = require()`, and anywhere in the
 * file `import("...")` types and calls. TypeScript collects these while building the program (`imports`, not in its
 * public typings); the walk below is the fallback when a version does not.
 */
function moduleSpecifiers(tsi: TS, file: ts.SourceFile): readonly ts.Expression[] {
  const collected = (file as unknown as { imports?: readonly ts.StringLiteralLike[] }).imports;
  if (Array.isArray(collected)) return collected;
  const out: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if ((tsi.isImportDeclaration(node) || tsi.isExportDeclaration(node)) && node.moduleSpecifier)
      out.push(node.moduleSpecifier);
    else if (tsi.isExternalModuleReference(node)) out.push(node.expression);
    else if (tsi.isImportTypeNode(node) && tsi.isLiteralTypeNode(node.argument)) out.push(node.argument.literal);
    else if (tsi.isCallExpression(node) && node.expression.kind === tsi.SyntaxKind.ImportKeyword && node.arguments[0])
      out.push(node.arguments[0]);
    tsi.forEachChild(node, visit);
  };
  visit(file);
  return out;
}
