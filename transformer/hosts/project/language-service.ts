/**
 * The project service every bundler host shares: one TypeScript language service per tsconfig, reused across all
 * the modules of a build and across rebuilds in watch mode.
 *
 * Owns: the script versions that tell the language service which files changed (a file's text as the bundler handed
 * it, else its size and mtime on disk, looked at again after `refresh()`), and the tsconfig's file list, read again
 * when a file named as changed was made or removed. Reading the tsconfig and choosing the TypeScript module are the
 * tsconfig reader's business, what a module turns into is the module transform's.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { TS } from "../../compat";
import type { TooltypePluginConfig } from "../../plugin-config";
import type { ProjectOptions } from "./options";
import { ValidatorCompiler } from "../../validator";
import { declaresGlobally } from "./declares-globally";
import { hash, normalize, readText } from "./files";
import { readTsconfig, typescriptFor } from "./tsconfig";

const projects = new Map<string, ProjectService>();
/** Files whose text can declare types for the program: TypeScript's and JavaScript's. */
const SOURCE = /\.[cm]?[jt]sx?$/;

/** The shared service for `options.tsconfig`: one per tsconfig path in the process. */
export function projectFor(options: ProjectOptions, cwd = process.cwd()): ProjectService {
  const tsconfig = path.resolve(cwd, options.tsconfig ?? "tsconfig.json");
  let project = projects.get(tsconfig);
  if (!project) {
    project = new ProjectService(tsconfig, typescriptFor(path.dirname(tsconfig), options.typescript), options.plugin);
    projects.set(tsconfig, project);
  }
  return project;
}

export class ProjectService {
  readonly ts: TS;
  readonly options: ts.CompilerOptions;
  readonly plugin: TooltypePluginConfig;
  /** Kept across the programs of watch mode: a schema that did not change is not compiled again. */
  readonly validators: ValidatorCompiler;
  private readonly roots: Set<string>;
  private readonly service: ts.LanguageService;
  /** Text the bundler handed us, which wins over the disk (it is what the positions of our edits refer to). */
  private readonly overrides = new Map<string, string>();
  /** Versions looked up since the last refresh: each file is looked at once per refresh. */
  private readonly versions = new Map<string, string>();
  private generation = 0;
  /** A file named as changed was made or removed: the tsconfig's file list is read again before the next program. */
  private listStale = false;
  /**
   * Bumped when the file list changed or a file that declares globally (or did) was edited: part of every
   * fingerprint, since such a file may change any module's types without being among its dependencies.
   */
  private everyModule = 0;
  /** The last program made: what a file's text was before an edit (whether it declared globally). */
  private last: ts.Program | undefined;
  readonly tsconfig: string;

  constructor(tsconfig: string, tsi: TS, plugin: TooltypePluginConfig | undefined) {
    this.ts = tsi;
    // The bundler hands us the modules: a tsconfig that includes none of them is fine.
    const { configPath, parsed, pluginConfig } = readTsconfig(tsi, tsconfig, {
      hint: 'Pass the project\'s tsconfig to the plugin: tooltype({ tsconfig: "path/to/tsconfig.json" }).',
      rootsGiven: true,
    });
    this.tsconfig = configPath;
    this.options = parsed.options;
    this.roots = new Set(parsed.fileNames.map(normalize));
    this.plugin = plugin ?? pluginConfig;
    // One compiler for all of the project's builds: each schema's code is generated once.
    this.validators = new ValidatorCompiler();
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => this.options,
      // Unchanged project version: the language service hands back the same program without asking about files.
      getProjectVersion: () => String(this.generation),
      getScriptFileNames: () => [...this.roots],
      getScriptVersion: (fileName) => this.version(normalize(fileName)),
      getScriptSnapshot: (fileName) => {
        const text = this.text(normalize(fileName));
        return text === undefined ? undefined : tsi.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => path.dirname(configPath),
      getDefaultLibFileName: (options) => tsi.getDefaultLibFilePath(options),
      fileExists: (fileName) => this.overrides.has(normalize(fileName)) || tsi.sys.fileExists(fileName),
      readFile: (fileName) => this.overrides.get(normalize(fileName)) ?? tsi.sys.readFile(fileName),
      readDirectory: tsi.sys.readDirectory,
      directoryExists: tsi.sys.directoryExists,
      getDirectories: tsi.sys.getDirectories,
      realpath: tsi.sys.realpath,
      useCaseSensitiveFileNames: () => tsi.sys.useCaseSensitiveFileNames,
      // What tsc parses: the JSDoc of JavaScript files (their types), none of .ts and .d.ts files up front. The
      // standard library's and the dependencies' comments (DOM's, @types/node's) are most of a program's, and
      // parsing them was a sizeable part of creating it; the transformer parses the ones it reads itself, on first
      // need (`fillJsDoc`), as under tsc.
      jsDocParsingMode: tsi.JSDocParsingMode.ParseForTypeErrors,
    };
    this.service = tsi.createLanguageService(
      host,
      tsi.createDocumentRegistry(tsi.sys.useCaseSensitiveFileNames, host.getCurrentDirectory(), host.jsDocParsingMode),
    );
  }

  /** Forget what is known of the disk: every file is looked at again (a rebuild starts, or a file changed). */
  refresh(fileName?: string): void {
    if (fileName === undefined) {
      this.versions.clear();
    } else {
      const file = normalize(fileName);
      const known = this.versions.get(file);
      this.versions.delete(file);
      if (SOURCE.test(file) && !file.includes("/node_modules/")) this.sourceRefreshed(file, known);
    }
    this.generation++;
  }

  /**
   * A project source named as changed: one made (in no program yet) or removed has the file list read again; one
   * whose text changed and declares globally now or did in the last program changes every fingerprint. A file whose
   * size and mtime are as they were (a host that names every dependency, changed or not) costs a stat.
   */
  private sourceRefreshed(file: string, known: string | undefined): void {
    const before = this.last?.getSourceFile(file)?.text;
    if (!fs.existsSync(file)) {
      if (this.roots.has(file) || before !== undefined) this.listStale = true;
      return;
    }
    if (before === undefined) {
      if (!this.roots.has(file)) this.listStale = true;
      return;
    }
    if (known !== undefined && this.version(file) === known) return;
    const now = readText(file);
    if (now !== undefined && now !== before && (declaresGlobally(now) || declaresGlobally(before))) this.everyModule++;
  }

  /**
   * What the service knows of these files now (their versions): an equal fingerprint means equal texts. A file made
   * or removed, or an edit of a file that declares globally (or did), changes every fingerprint.
   */
  fingerprint(files: readonly string[]): string {
    this.readListAgain();
    return `${this.everyModule}|${files.map((f) => this.version(normalize(f))).join("|")}`;
  }

  /** The project's files as the tsconfig lists them (and the modules the bundler handed over besides). */
  sourceFiles(): string[] {
    this.readListAgain();
    return [...this.roots];
  }

  /** The current program, with `fileName` holding `text` (the module as the bundler sees it). */
  program(fileName: string, text: string): ts.Program {
    const file = normalize(fileName);
    const current = this.overrides.get(file);
    if (current !== text && !(current === undefined && readText(file) === text)) {
      // Our edits are positions in `text`; when it is not the disk's text, analyse `text` itself.
      if (readText(file) === text) this.overrides.delete(file);
      else this.overrides.set(file, text);
      this.refresh(file);
    }
    if (!this.roots.has(file)) {
      this.roots.add(file);
      this.generation++;
    }
    let program = this.current();
    if (program.getSourceFile(file)?.text !== text) {
      // Changed on disk since we last looked, without a refresh from the bundler: look again.
      this.refresh(file);
      program = this.current();
    }
    return program;
  }

  private current(): ts.Program {
    this.readListAgain();
    const program = this.service.getProgram();
    if (!program) throw new Error(`tooltype: TypeScript made no program for ${this.tsconfig}.`);
    this.last = program;
    return program;
  }

  /**
   * A file was made or removed since the file list was read: read it again (a new file the tsconfig's "include" takes
   * in joins the program, a removed one leaves it). The modules the bundler handed over stay while on disk.
   */
  private readListAgain(): void {
    if (!this.listStale) return;
    // A tsconfig that cannot be read now is this build's error; the list is read again at the next.
    const { parsed } = readTsconfig(this.ts, this.tsconfig, { hint: "", rootsGiven: true });
    this.listStale = false;
    const roots = new Set(parsed.fileNames.map(normalize));
    for (const file of this.roots) if (!roots.has(file) && fs.existsSync(file)) roots.add(file);
    if (roots.size === this.roots.size && [...roots].every((f) => this.roots.has(f))) return;
    this.roots.clear();
    for (const file of roots) this.roots.add(file);
    this.everyModule++;
    this.generation++;
  }

  private version(file: string): string {
    let version = this.versions.get(file);
    if (version === undefined) {
      const override = this.overrides.get(file);
      if (override !== undefined) {
        version = `text:${override.length}:${hash(override)}`;
      } else {
        try {
          const stat = fs.statSync(file);
          version = `disk:${stat.size}:${stat.mtimeMs}`;
        } catch {
          version = "missing";
        }
      }
      this.versions.set(file, version);
    }
    return version;
  }

  private text(file: string): string | undefined {
    return this.overrides.get(file) ?? readText(file);
  }
}
