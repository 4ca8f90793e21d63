/**
 * The persistent cache of answers a host makes from a whole program rather than one module: `tooltype check`'s
 * report of a project, and the JavaScript `tooltype/register` hands Node for a module (made from the module and
 * every type it reaches, by a compiler). Such an answer depends on every file of the program, so each entry carries
 * the program's facts itself (program-facts.ts: every file, the standard library's and the packages' included, with
 * its size, mtime and content hash; the files that decide the program and the folders new files may join from) and
 * is used only while all of them are as they were: a hit makes no program, and loads no compiler.
 *
 * Beside the module cache (module-cache.ts), in the same folder, sealed the same way (sealed-file.ts). Its entries do
 * not share that cache's per-project record: one process may make programs of different files for one tsconfig
 * (tooltype/register adds a script the tsconfig does not include as a root), and each entry stands for its own.
 * Size: one entry per answer's name (a project's check, a module's JavaScript per format), written over in place.
 */
import * as path from "node:path";
import { normalize } from "../files";
import { tooltypeBuild } from "../tooltype-version";
import {
  type FileState,
  type FolderKind,
  type FolderState,
  fileState,
  folderState,
  isFileState,
  isFolderState,
  NOT_ON_DISK,
} from "./file-state";
import type { ProgramFacts } from "./program-facts";
import { isRecord, readSealed, sha256, writeSealed } from "./sealed-file";
import { cacheDirFor } from "./settings";

const FORMAT = "tooltype-answer 1";

/** Counts a test reads: how many answers came from the cache, and how many were made. */
export interface AnswerCounts {
  hits: number;
  misses: number;
}

/**
 * The answers of `host` (a name: "check", "register") for the project of `tsconfig`, where the module cache is (the
 * same defaults and switches: `TOOLTYPE_CACHE=0`, `TOOLTYPE_CACHE_DIR`); undefined when the cache is off.
 */
export function programAnswersFor(tsconfig: string, host: string): ProgramAnswers | undefined {
  const configPath = path.resolve(tsconfig);
  const dir = cacheDirFor(configPath);
  return dir === undefined
    ? undefined
    : new ProgramAnswers(dir, JSON.stringify([host, tooltypeBuild(), normalize(configPath)]));
}

export class ProgramAnswers {
  readonly counts: AnswerCounts = { hits: 0, misses: 0 };
  /**
   * Each file's state as this process first saw it, before any program it makes reads the file: an entry written
   * after a miss records these, so a file edited while the program was made is seen as changed by the next lookup.
   */
  private readonly seen = new Map<string, FileState>();
  private readonly seenFolders = new Map<string, string>();

  /** `setup`: what the host was given (tsconfig, tooltype's version and options), which every entry must match. */
  constructor(
    readonly dir: string,
    readonly setup: string,
  ) {}

  /**
   * The answer named `name` made from `input` (what the host hands the program besides the disk: a module's text,
   * the folder paths are printed relative to), while nothing its program covers changed; else undefined.
   */
  lookup(name: string, input: string): Record<string, unknown> | undefined {
    const value = readSealed(this.entryFile(name));
    const answer = value && this.entryOf(value, name, input);
    if (!answer) {
      this.counts.misses++;
      return undefined;
    }
    this.counts.hits++;
    return answer;
  }

  /** Records `answer` as the answer named `name` for `input`, made with the program `facts` describe. */
  store(name: string, input: string, answer: Record<string, unknown>, facts: ProgramFacts): void {
    const files = facts.tracked.map((file) => this.stateOf(file, undefined, facts.virtual.has(file)));
    const folders = facts.folders.map(
      ([dir, kind]): FolderState => [dir, kind, this.folderStateOf(dir, kind, facts.allowJs)],
    );
    writeSealed(this.entryFile(name), {
      format: FORMAT,
      setup: this.setup,
      name,
      input: sha256(input),
      files,
      folders,
      allowJs: facts.allowJs,
      answer,
    });
  }

  private entryOf(value: Record<string, unknown>, name: string, input: string): Record<string, unknown> | undefined {
    if (value.format !== FORMAT || value.setup !== this.setup || value.name !== name) return undefined;
    if (value.input !== sha256(input) || !isRecord(value.answer) || typeof value.allowJs !== "boolean")
      return undefined;
    const { files, folders, allowJs } = value;
    if (!Array.isArray(files) || !files.every(isFileState)) return undefined;
    if (!Array.isArray(folders) || !folders.every(isFolderState)) return undefined;
    for (const recorded of files) {
      if (this.stateOf(recorded[0], recorded, recorded[3] === NOT_ON_DISK)[3] !== recorded[3]) return undefined;
    }
    for (const [dir, kind, state] of folders) if (this.folderStateOf(dir, kind, allowJs) !== state) return undefined;
    return value.answer;
  }

  private stateOf(file: string, known: FileState | undefined, virtual: boolean): FileState {
    let state = this.seen.get(file);
    if (!state) {
      state = fileState(file, known, virtual);
      this.seen.set(file, state);
    }
    return state;
  }

  private folderStateOf(dir: string, kind: FolderKind, allowJs: boolean): string {
    const key = `${kind}\0${allowJs}\0${dir}`;
    let state = this.seenFolders.get(key);
    if (state === undefined) {
      state = folderState(dir, kind, allowJs);
      this.seenFolders.set(key, state);
    }
    return state;
  }

  private entryFile(name: string): string {
    return path.join(this.dir, `answer-${sha256(`${this.setup}\0${name}`).slice(0, 32)}.json`);
  }
}
