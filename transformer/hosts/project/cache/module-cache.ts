/**
 * The persistent cache of each module's tool metadata, as the module transform gives it (the module's text with the
 * metadata spliced in, its source map, tooltype's diagnostics, the files it depends on): a build that finds a module
 * whose text and dependencies did not change since an earlier build (of any process) takes its output from disk,
 * without starting TypeScript.
 *
 * Two kinds of files, both sealed (sealed-file.ts). One record per project and setup: the program's facts (its id, the
 * files and folders the key covers, each file's size, mtime and content hash). One entry per module: the program id it
 * was made with, its text's hash, the files it depends on (indices into the record's files) and a hash of their
 * contents, and its output (a JSON header, then the output's text and its map's as they are: a hit reads no JSON but
 * the header's, and parses the map only when a host asks for it). A build first compares the disk with the record (a
 * stat per file, a file read only when its stat changed, a folder listing per folder); when nothing changed, a module's
 * entry whose text hash matches is the answer. When something changed, the files the program holds may have changed too
 * (a new import, a new file augmenting an interface, an option): the program is made (on the JavaScript API; on
 * TypeScript 7 when this process has not opened one yet) and its id compared with the record's; an entry is used only
 * when they are equal and the contents of the entry's dependencies hash as they did. A module's dependencies are the
 * project files it may read types from (the files its imports reach, the files that declare globally, on TypeScript 7
 * also those of the declarations its reader visited) and every file outside the project, and an entry is used only
 * while it depends on every project file that declares globally by its text (a script, `declare global`, `declare
 * module`; the record keeps which do, and a file is checked again when its text changed): one edited into such a file
 * may change any module's types without being its dependency. Otherwise the module is read as without a cache, and its
 * entry written.
 *
 * The same store holds, in entries of their own (`emit-*.json`, emit-cache.ts), what the transformer wrote into each
 * file where it runs in the compiler's emit (tspc, `tooltype build` on 5.x/6.0): that host holds the program already,
 * so it hands the program's facts in (`lookupInProgram`, `storeInProgram`) instead of a project to make.
 *
 * Size: one entry per module (named by a hash of the project's setup and the module's path) and one record per
 * project, each written over in place; a module deleted from the project leaves its entry (a few kilobytes) until
 * the folder is deleted. Nothing else grows, so the cache has no other bound.
 */
import * as path from "node:path";
import type * as magicStringFile from "magic-string";
import type { SourceMap } from "magic-string";
import type { HostDiagnostic } from "../../diagnostic-format";
import type * as languageServiceFile from "../language-service";
import type { ModuleResult } from "../../splice/splice";
import type { ModuleProject } from "../../splice/transform-module";
import { declaresGlobally } from "../declares-globally";
import { readText } from "../files";
import {
  type FileState,
  fileState,
  folderState,
  type FolderKind,
  isFileState,
  isFolderState,
  MISSING,
  NOT_ON_DISK,
} from "./file-state";
import type * as programFactsFile from "./program-facts";
import type { ProgramFacts } from "./program-facts";
import {
  isRecord,
  jsonRecordOf,
  readSealed,
  readSealedBytes,
  sha256,
  writeSealed,
  writeSealedText,
} from "./sealed-file";

const FORMAT = "tooltype-cache 4";
const NEWLINE = 0x0a;
/** Files whose text can declare types: TypeScript's and JavaScript's (with allowJs, a script's globals count). */
const SOURCE = /\.[cm]?[jt]sx?$/;
/** A project's own TypeScript source (not a declaration file): what a TypeScript 7 session is told of when edited. */
const OWN_SOURCE = /(?<!\.d)\.[cm]?tsx?$/;

interface ProjectRecord {
  program: string;
  files: FileState[];
  folders: [folder: string, kind: FolderKind, state: string][];
  allowJs: boolean;
  /** Indices of the project files that declared globally (declares-globally.ts) as their states were recorded. */
  globals: number[];
}

interface Entry {
  program: string;
  code: string;
  /** Indices into the record's files. */
  deps: number[];
  depsHash: string;
  result: CachedModuleResult;
}

/**
 * A module's output as the cache holds it: its text is decoded only when a host asks for `code`, and its source map
 * parsed (and magic-string loaded) only when a host asks for `map`; `codeBytes` and `mapBytes` are the text and the
 * map's JSON as written (UTF-8), for a host that hands the bundler bytes (esbuild).
 */
export interface CachedModuleResult extends ModuleResult {
  readonly codeBytes?: Uint8Array;
  readonly mapBytes?: Uint8Array;
}

/** What this process found of the disk since the last refresh. */
interface Look {
  record: ProjectRecord | undefined;
  /** Each recorded file's state now. */
  now: FileState[];
  /** Some file or folder differs from the record. */
  changed: boolean;
  /** Whether the record's program is still the program: known after a program was made, for a changed disk. */
  same: boolean | undefined;
  /**
   * The files that declare globally now (declares-globally.ts): the record's, with the edited ones checked again.
   * Every entry must depend on each (one that became a script or an augmentation since an entry was written may
   * change what that module reads without being its dependency): else the entry is not used.
   */
  globals: number[];
  /**
   * A project was made in this process before this look: on TypeScript 7, its session may hold a program older than
   * the disk looked at. One made during this look (for an earlier module of the same build) read the disk after it.
   */
  openedBefore: boolean;
  /**
   * Only project sources were edited (no file made or removed, no option, package or declaration file changed): a
   * TypeScript 7 session opened before this look holds the program of the disk once told of every file again.
   */
  sourcesOnly: boolean;
}

/** Counts a test or the bench reads: how many modules came from the cache, and how many were read. */
export interface CacheCounts {
  hits: number;
  misses: number;
}

export class ModuleCache {
  readonly counts: CacheCounts = { hits: 0, misses: 0 };
  private look: Look | undefined;
  /** The record this process wrote last, with its files' indices. */
  private written: { facts: ProgramFacts; record: ProjectRecord; index: Map<string, number> } | undefined;
  /** Entries written by this process: not written again while nothing changed (watch mode's rebuilds). */
  private readonly stored = new Map<string, string>();
  private openedProject = false;
  /** The record as this process last read or wrote it. */
  private latest: ProjectRecord | undefined;

  /**
   * `setup`: what the host was given (tsconfig, compiler and plugin options), which selects the record. `kind`: what
   * the entries hold, which names their files: a module's spliced text (`module`), or what the compiler's emit
   * writes into a file (`emit`: emit-cache.ts).
   */
  constructor(
    readonly dir: string,
    readonly setup: string,
    readonly kind: "module" | "emit" = "module",
  ) {}

  /**
   * The host opened its project outside a lookup (a watch's TypeScript 7 session opened ahead, when idle): it counts
   * as opened before the next look, as one a lookup opened does.
   */
  projectOpened(): void {
    this.openedProject = true;
  }

  /** Forget what is known of the disk: a rebuild starts, or a file changed. */
  refresh(): void {
    this.look = undefined;
  }

  /**
   * The cached output of `file` with text `code`, or "miss". `open` gives the host's project, made on first call:
   * called only when the disk changed since the record, to learn whether the program did; without it, such a lookup
   * answers "undecided" (a host that must load something before it makes its project asks again with it).
   */
  lookup(file: string, code: string, open?: () => ModuleProject): CachedModuleResult | "miss" | "undecided" {
    return this.find(file, code, open && ((record) => this.programUnchanged(record, file, code, open)));
  }

  /**
   * As `lookup`, for a host that holds the program already (the compiler's emit: tspc, `tooltype build` on 5.x/6.0):
   * `facts` gives the program's facts, whose id is compared with the record's at the first lookup of each look at the
   * disk, changed or not.
   */
  lookupInProgram(file: string, code: string, facts: () => ProgramFacts): CachedModuleResult | "miss" {
    if (this.look === undefined) {
      const look = (this.look = this.lookAtDisk());
      // The program decides, not the disk alone: the compiler's command line may set options that no file holds.
      if (look.record && !look.changed) look.same = facts().id === look.record.program;
    }
    const found = this.find(file, code, (record) => this.factsUnchanged(record, facts()));
    return found === "undecided" ? this.miss() : found;
  }

  private find(
    file: string,
    code: string,
    same: ((record: ProjectRecord) => boolean) | undefined,
  ): CachedModuleResult | "miss" | "undecided" {
    const look = (this.look ??= this.lookAtDisk());
    const record = look.record;
    const entry = record && this.readEntry(file);
    if (!record || !entry || entry.program !== record.program || entry.code !== sha256(code)) return this.miss();
    if (look.changed && look.same === undefined) {
      if (!same) return "undecided";
      look.same = same(record);
    }
    if (!look.same) return this.miss();
    if (depsHash(look.now, entry.deps) !== entry.depsHash) return this.miss();
    const deps = new Set(entry.deps);
    if (!look.globals.every((i) => deps.has(i))) return this.miss();
    this.counts.hits++;
    return entry.result;
  }

  /**
   * The project's own source files as the latest record lists them (the program's, outside node_modules, on disk),
   * and those of them that declared globally then: what a bundler's watch is told to watch
   * (hosts/bundlers/source-watch.mts). Undefined before a record was read or written.
   */
  projectSources(): { files: string[]; globals: Set<string> } | undefined {
    const record = this.latest;
    if (!record) return undefined;
    const own = ([name, , , hash]: FileState): boolean =>
      SOURCE.test(name) && !name.includes("/node_modules/") && hash !== NOT_ON_DISK && hash !== MISSING;
    return {
      files: record.files.filter(own).map(([name]) => name),
      globals: new Set(record.globals.map((i) => record.files[i]![0])),
    };
  }

  /** Records `result` as the output of `file` with text `code`, read in `project`. */
  store(file: string, code: string, result: ModuleResult, project: ModuleProject): void {
    const facts = this.factsOf(project, file, code);
    if (facts) this.storeInProgram(file, code, result, facts);
  }

  /**
   * As `store`, for a host that holds the program already: `facts` are its facts, and `readHash` the content hash of
   * the text the program read of a file. The program was made before the record looks at the disk: a project file
   * edited in between (an editor's save during a watch's build) is on disk, and in the record, as the program did not
   * read it, so an entry that depends on it is not written.
   */
  storeInProgram(
    file: string,
    code: string,
    result: ModuleResult,
    facts: ProgramFacts,
    readHash?: (file: string) => string | undefined,
  ): void {
    const written = this.recordFor(facts);
    const index = written.index;
    const names = new Set([...result.dependencies, ...facts.shared]);
    const found = [...names].map((n) => index.get(n.split(path.sep).join("/")));
    // A dependency outside the program's files: not a key this cache can check, so not cached.
    if (found.some((i) => i === undefined)) return;
    const recordedHash = (n: string): string | undefined => written.record.files[index.get(n) ?? -1]?.[3];
    if (readHash && !result.dependencies.every((n) => readHash(n) === recordedHash(n.split(path.sep).join("/"))))
      return;
    // The files that declare globally by their texts, whatever the host counted: a lookup asks for each.
    const deps = [...new Set([...(found as number[]), ...written.record.globals])].sort((a, b) => a - b);
    const hash = depsHash(written.record.files, deps);
    const codeHash = sha256(code);
    const name = this.entryFile(file);
    const stamp = `${facts.id}\0${codeHash}\0${hash}`;
    if (this.stored.get(name) === stamp) return;
    this.stored.set(name, stamp);
    // The module's text and its map follow the header as they are, so that a hit reads them without parsing JSON.
    const output = result.code ?? "";
    const map = result.map?.toString() ?? "";
    const header = JSON.stringify({
      format: FORMAT,
      setup: this.setup,
      file,
      program: facts.id,
      code: codeHash,
      deps,
      depsHash: hash,
      diagnostics: result.diagnostics,
      dependencies: result.dependencies,
      // Lengths in UTF-8 bytes, as the entry is read.
      codeLength: result.code === undefined ? -1 : Buffer.byteLength(output),
      mapLength: result.map === undefined ? -1 : Buffer.byteLength(map),
    });
    writeSealedText(name, `${header}\n${output}${map}`);
  }

  private miss(): "miss" {
    this.counts.misses++;
    return "miss";
  }

  private programUnchanged(record: ProjectRecord, file: string, code: string, open: () => ModuleProject): boolean {
    const fresh = !this.look?.openedBefore;
    this.openedProject = true;
    const project = open();
    // TypeScript 7's session reads the disk when it opens; one opened before this look may hold an older program,
    // unless only sources were edited: then, told of every file's state again, it holds the disk's (a watch's).
    if (!isLanguageService(project) && !fresh) {
      if (!this.look?.sourcesOnly) return false;
      project.refresh();
    }
    const facts = this.factsOf(project, file, code);
    return facts !== undefined && this.factsUnchanged(record, facts);
  }

  private factsUnchanged(record: ProjectRecord, facts: ProgramFacts): boolean {
    if (facts.id !== record.program) return false;
    // The disk changed and the program did not (a package installed that nothing imports, a file touched): recorded
    // again, so that the next build does not make the program (on TypeScript 7, start a process) to learn it again.
    this.recordFor(facts);
    return true;
  }

  private factsOf(project: ModuleProject, file: string, code: string): ProgramFacts | undefined {
    this.openedProject = true;
    // Loaded here, once a project exists: a build the cache answers does not load it.
    const { factsOfProgram, factsOfTypeScript7 } = require("./program-facts") as typeof programFactsFile;
    if (isLanguageService(project)) return factsOfProgram(project, project.program(file, code), project.plugin);
    return factsOfTypeScript7(project);
  }

  private recordFor(facts: ProgramFacts): { record: ProjectRecord; index: Map<string, number> } {
    if (this.written?.facts === facts) return this.written;
    const known = new Map((this.look?.record?.files ?? []).map((f) => [f[0], f]));
    const wasGlobal = new Set((this.look?.record?.globals ?? []).map((i) => this.look!.record!.files[i]?.[0]));
    const files = facts.tracked.map((name) => fileState(name, known.get(name), facts.virtual.has(name)));
    const record: ProjectRecord = {
      program: facts.id,
      files,
      folders: facts.folders.map(([dir, kind]) => [dir, kind, folderState(dir, kind, facts.allowJs)]),
      allowJs: facts.allowJs,
      // A file whose state is the recorded one keeps its answer; any other is read again.
      globals: files.flatMap((state, i) =>
        (state === known.get(state[0]) ? wasGlobal.has(state[0]) : declaresGloballyNow(state)) ? [i] : [],
      ),
    };
    writeSealed(this.recordFile(), { format: FORMAT, setup: this.setup, ...record });
    this.latest = record;
    this.written = { facts, record, index: new Map(facts.tracked.map((name, i) => [name, i])) };
    return this.written;
  }

  private lookAtDisk(): Look {
    const record = this.readRecord();
    if (record) this.latest = record;
    const openedBefore = this.openedProject;
    if (!record) return { record, now: [], changed: true, same: false, globals: [], openedBefore, sourcesOnly: false };
    const now = record.files.map((f) => fileState(f[0], f, f[3] === "not-on-disk"));
    const edited = now.filter((f, i) => f !== record.files[i] && f[3] !== record.files[i]![3]);
    const foldersChanged = record.folders.some(
      ([dir, kind, state]) => folderState(dir, kind, record.allowJs) !== state,
    );
    const changed = edited.length > 0 || foldersChanged;
    const sourcesOnly =
      !foldersChanged && edited.every(([name]) => OWN_SOURCE.test(name) && !name.includes("/node_modules/"));
    // A file edited since the record is checked again (its text read once more); the others keep their answer.
    const recorded = new Set(record.globals);
    const globals = now.flatMap((state, i) =>
      (state === record.files[i] || state[3] === record.files[i]![3] ? recorded.has(i) : declaresGloballyNow(state))
        ? [i]
        : [],
    );
    return { record, now, changed, same: changed ? undefined : true, globals, openedBefore, sourcesOnly };
  }

  private readRecord(): ProjectRecord | undefined {
    const value = readSealed(this.recordFile());
    if (!value || value.format !== FORMAT || value.setup !== this.setup || typeof value.program !== "string")
      return undefined;
    const { files, folders, allowJs, globals } = value;
    if (!Array.isArray(files) || !files.every(isFileState)) return undefined;
    if (!Array.isArray(folders) || !folders.every(isFolderState) || typeof allowJs !== "boolean") return undefined;
    if (!Array.isArray(globals) || !globals.every((i) => Number.isInteger(i) && i >= 0 && i < files.length))
      return undefined;
    return { program: value.program, files, folders, allowJs, globals };
  }

  /**
   * An entry is a sealed header (JSON) on its first line, then the module's output text and its map's JSON, each as
   * many bytes long as the header says: the bounded JSON reader reads the header, never the output, and the output is
   * decoded only when a host asks for it as text.
   */
  private readEntry(file: string): Entry | undefined {
    const body = readSealedBytes(this.entryFile(file));
    const end = body?.indexOf(NEWLINE) ?? -1;
    if (body === undefined || end < 0) return undefined;
    const value = jsonRecordOf(body.toString("utf8", 0, end));
    if (!value || value.format !== FORMAT || value.setup !== this.setup || value.file !== file) return undefined;
    const { program, code, deps, depsHash, codeLength, mapLength } = value;
    if (typeof program !== "string" || typeof code !== "string" || typeof depsHash !== "string") return undefined;
    if (!(Array.isArray(deps) && deps.every((i) => Number.isInteger(i) && i >= 0))) return undefined;
    if (!isLength(codeLength) || !isLength(mapLength)) return undefined;
    const start = end + 1;
    const mapStart = start + Math.max(codeLength, 0);
    if (body.length !== mapStart + Math.max(mapLength, 0)) return undefined;
    const result = cachedResult(
      codeLength < 0 ? undefined : body.subarray(start, mapStart),
      mapLength < 0 ? undefined : body.subarray(mapStart),
      value.diagnostics,
      value.dependencies,
    );
    return result && { program, code, deps, depsHash, result };
  }

  private recordFile(): string {
    return path.join(this.dir, `project-${sha256(this.setup).slice(0, 32)}.json`);
  }

  private entryFile(file: string): string {
    return path.join(this.dir, `${this.kind}-${sha256(`${this.setup}\0${file}`).slice(0, 32)}.json`);
  }
}

/**
 * Whether the project is the JavaScript API's language service. Its module is loaded here, once a project exists:
 * a lookup the cache answers loads neither it nor the compiler.
 */
function isLanguageService(project: ModuleProject): project is languageServiceFile.ProjectService {
  const { ProjectService } = require("../language-service") as typeof languageServiceFile;
  return project instanceof ProjectService;
}

/** A project source whose text, as it is now, declares globally; a packages' file or a missing one does not count. */
function declaresGloballyNow([name, , , hash]: FileState): boolean {
  if (hash === MISSING || hash === NOT_ON_DISK || !SOURCE.test(name) || name.includes("/node_modules/")) return false;
  const text = readText(name);
  return text === undefined || declaresGlobally(text);
}

function depsHash(states: readonly FileState[], deps: readonly number[]): string {
  const parts: string[] = [];
  for (const i of deps) {
    const state = states[i];
    if (!state) return "";
    parts.push(state[3]);
  }
  return sha256(parts.join("\n"));
}

function isLength(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= -1;
}

/**
 * A cached module's output, checked field by field (it becomes the bundler's module text); its text decoded, and its
 * map parsed, when asked for.
 */
function cachedResult(
  codeBytes: Buffer | undefined,
  mapBytes: Buffer | undefined,
  diagnostics: unknown,
  dependencies: unknown,
): CachedModuleResult | undefined {
  if (!Array.isArray(dependencies) || !dependencies.every((d) => typeof d === "string")) return undefined;
  if (!Array.isArray(diagnostics) || !diagnostics.every(isHostDiagnostic)) return undefined;
  let code: string | undefined | null = null;
  let map: SourceMap | undefined | null = null;
  const result = { diagnostics, dependencies, codeBytes, mapBytes } as Omit<CachedModuleResult, "code" | "map">;
  return Object.defineProperties(result, {
    code: {
      enumerable: true,
      get: () => (code === null ? (code = codeBytes?.toString("utf8")) : code),
    },
    map: {
      enumerable: true,
      get: () =>
        map === null ? (map = mapBytes === undefined ? undefined : sourceMapOf(mapBytes.toString("utf8"))) : map,
    },
  }) as CachedModuleResult;
}

/** The map as magic-string made it, mappings already encoded: its own methods (toString, toUrl) work on it as is. */
function sourceMapOf(text: string): SourceMap | undefined {
  const map = jsonRecordOf(text);
  if (!map || typeof map.mappings !== "string" || !isStrings(map.sources) || !isStrings(map.names)) return undefined;
  if (map.sourcesContent !== undefined && !isStringsOrNulls(map.sourcesContent)) return undefined;
  if (typeof map.file !== "string" && map.file !== undefined) return undefined;
  const { SourceMap } = require("magic-string") as typeof magicStringFile;
  return Object.assign(Object.create(SourceMap.prototype) as SourceMap, {
    version: 3,
    file: map.file as string,
    sources: map.sources,
    sourcesContent: map.sourcesContent as string[] | undefined,
    names: map.names,
    mappings: map.mappings,
  });
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function isHostDiagnostic(value: unknown): value is HostDiagnostic {
  return (
    isRecord(value) &&
    (value.category === "error" || value.category === "warning") &&
    typeof value.code === "string" &&
    typeof value.message === "string" &&
    typeof value.file === "string" &&
    typeof value.line === "number" &&
    typeof value.column === "number"
  );
}

function isStringsOrNulls(value: unknown): value is (string | null)[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string" || v === null);
}
