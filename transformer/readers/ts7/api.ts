/**
 * TypeScript 7's API, as tooltype uses it: the one place that knows its entry points and its session. TypeScript 7
 * (the native compiler, `tsgo`) has no in-process JavaScript API; its packages ship a client of a separate
 * `tsc --api` process that answers over MessagePack on stdio, synchronously. 7.0 exports it as
 * `typescript/unstable/sync` (and its AST as `typescript/unstable/ast`), 7.1 as `typescript/sync` (`typescript/ast`),
 * with `api.batch(...)` and snapshots made by `createSnapshot` instead of `updateSnapshot`.
 *
 * A session is one such process for one project, reused for every question of a build and closed at its end. Each
 * request is counted (the figure `roundTrips` reports) and watched: the client blocks the thread while it waits, so
 * a worker thread stops a process that has not answered in `timeoutMs`, and the blocked read then fails; either way
 * (a hang or a crash) the error names the file being read, and no process is left behind.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: TypeScript 7's API types are not a dependency
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/** TypeScript 7's modules for tooltype: the API client, the AST helpers and the node factory. */
export interface TypeScript7 {
  version: string;
  /** The entry the client came from: `typescript/unstable/sync` (7.0) or `typescript/sync` (7.1). */
  entry: string;
  sync: any;
  ast: any;
  factory: any;
}

/** True when the package at `packageDir` is TypeScript 7 or later (the native compiler). */
export function isTypeScript7(packageDir: string): boolean {
  const version = readPackage(packageDir).version ?? "";
  return Number(version.split(".")[0]) >= 7;
}

/** The API as each package folder's modules gave it, loaded once per process. */
const loaded = new Map<string, TypeScript7>();

/**
 * Loads TypeScript 7's API client from its package folder (`.../node_modules/typescript`), 7.0's or 7.1's entries:
 * the modules `preloadTypeScript7` imported, or else `require` of them. They are ES modules, which `require` loads
 * from Node 20.19 and 22.12 on (`process.features.require_module`); before that, only a host that preloaded them can
 * read types through TypeScript 7, and the others fail with an error (`TypeScript7NeedsNode`) saying so.
 */
export function loadTypeScript7(packageDir: string): TypeScript7 {
  const known = loaded.get(packageDir);
  if (known) return known;
  const { version, entry, files } = entryFiles(packageDir);
  const load = (file: string): any => {
    try {
      return require(file);
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_REQUIRE_ESM") throw new TypeScript7NeedsNode(version);
      throw error;
    }
  };
  const ts: TypeScript7 = {
    version,
    entry,
    sync: load(files.sync),
    ast: load(files.ast),
    factory: load(files.factory),
  };
  loaded.set(packageDir, ts);
  return ts;
}

/**
 * Imports TypeScript 7's API client (ES modules) from its package folder, so that `loadTypeScript7` finds it there on
 * every Node: hosts call this wherever they have an asynchronous moment before they read types (the CLI before its
 * command, tooltype/register before the program's first module, the bundler plugins before the first transform).
 */
export async function preloadTypeScript7(packageDir: string): Promise<TypeScript7> {
  const known = loaded.get(packageDir);
  if (known) return known;
  const { version, entry, files } = entryFiles(packageDir);
  const [sync, ast, factory] = await Promise.all(
    [files.sync, files.ast, files.factory].map((file) => import(pathToFileURL(file).href)),
  );
  const ts: TypeScript7 = { version, entry, sync, ast, factory };
  loaded.set(packageDir, ts);
  return ts;
}

/**
 * TypeScript 7's API is ES modules, and this Node can neither `require` them (from 20.19 and 22.12) nor had they been
 * imported before: one line saying which Node reads them, without a stack (its frames say nothing to the user).
 */
export class TypeScript7NeedsNode extends Error {
  constructor(version: string) {
    super(
      `tooltype reads types through TypeScript ${version}'s API, whose modules are ES modules that this Node (${process.versions.node}) cannot require here: use Node 20.19 or later (22.12 or later on Node 22), or a host that loads them first (the tooltype command, \`node --import tooltype/register\`, the bundler plugins).`,
    );
    this.name = "TypeScript7NeedsNode";
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** The files of the API client's three modules in the package, 7.0's (`unstable/`) or 7.1's. */
function entryFiles(packageDir: string): {
  version: string;
  entry: string;
  files: { sync: string; ast: string; factory: string };
} {
  const pkg = readPackage(packageDir);
  const exports = (pkg.exports ?? {}) as Record<string, string | Record<string, string>>;
  const prefix = exports["./sync"] ? "." : exports["./unstable/sync"] ? "./unstable" : undefined;
  if (!prefix) {
    throw new Error(
      `${path.join(packageDir, "package.json")} (TypeScript ${pkg.version}) exports no API client ("./sync" or "./unstable/sync"): tooltype reads types through TypeScript 7's API from 7.0 on. Install typescript@7 or later, or a JavaScript-API compiler (@typescript/typescript6).`,
    );
  }
  const file = (subpath: string): string => {
    const target = exports[`${prefix}/${subpath}`];
    const relative = typeof target === "string" ? target : target?.default;
    if (!relative)
      throw new Error(
        `TypeScript ${pkg.version} at ${packageDir} exports no "${prefix}/${subpath}", which tooltype's TypeScript 7 reader needs.`,
      );
    return path.join(packageDir, relative);
  };
  return {
    version: pkg.version!,
    entry: `typescript/${prefix === "." ? "" : "unstable/"}sync`,
    files: { sync: file("sync"), ast: file("ast"), factory: file("ast/factory") },
  };
}

function readPackage(packageDir: string): { version?: string; exports?: unknown } {
  return JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as {
    version?: string;
    exports?: unknown;
  };
}

/** Files changed on disk since the session's program was made, as TypeScript 7's file notifications name them. */
export interface FileChanges {
  changed?: readonly string[];
  created?: readonly string[];
  deleted?: readonly string[];
  /** Anything may have changed: every file is looked at again. */
  all?: boolean;
}

export interface SessionOptions {
  /** How long one request may take before the process is taken for hung and stopped (default 120 s, or `TOOLTYPE_TS7_TIMEOUT_MS`). */
  timeoutMs?: number;
}

/** One `tsc --api` process with one project open: its program and checker, as TypeScript 7's client gives them. */
export class TypeScript7Session {
  program: any;
  checker: any;
  /** Bumped each time `update` gives the session a new program: answers of an older one are not to be reused. */
  generation = 0;
  /** Requests sent to the process so far (a batch of 7.1 counts as one, `batchRequests`). */
  roundTrips = 0;
  /** The same, by the API's method name. */
  readonly requests = new Map<string, number>();
  /** With `TOOLTYPE_TRACE_TS7=1`: where the session's time went, written to stderr when it closes. */
  readonly trace: SessionTrace | undefined = process.env.TOOLTYPE_TRACE_TS7 === "1" ? new SessionTrace() : undefined;
  /** The file whose tools are being read, named by errors. */
  reading: string | undefined;
  private readonly api: any;
  /**
   * The current snapshot: 7.1 derives the next one from it (`snapshot.update`), 7.0 asks the API for the next one
   * (`updateSnapshot`); either way the previous one is disposed, so a long watch holds one program in the process.
   */
  private snapshot: any;
  /** 7.1: snapshots are derived from the previous one, with a file-system layer (`overlays`). */
  private readonly derives: boolean;
  private readonly watchdog: Worker;
  /** [requests started, 1 while a request is out, 1 once the watchdog stopped the process, the timeout in ms]. */
  private readonly state: Int32Array;
  /** The process id of `tsc --api`. */
  readonly pid: number | undefined;
  private closed = false;
  private failure: Error | undefined;
  /** True once the session failed because its process had exited (a crash, a kill), not because it hung. */
  exited = false;

  constructor(
    readonly ts: TypeScript7,
    readonly configPath: string,
    options: SessionOptions = {},
  ) {
    if (process.versions.bun !== undefined) {
      // Its synchronous client reads the pipe through Node's internals (`stdout._handle.fd`), which Bun lacks
      // (microsoft/TypeScript#64387, oven-sh/bun#39747); tried, it would fail after starting a process it then leaks.
      throw new Error(
        `TypeScript ${ts.version}'s API client does not run under Bun, so tooltype cannot read ${configPath}'s types through it there. Install a JavaScript-API compiler next to TypeScript 7 (npm i -D @typescript/typescript6), which tooltype then uses under Bun, or build with a bundler plugin under Node.`,
      );
    }
    const timeoutMs = options.timeoutMs ?? (Number(process.env.TOOLTYPE_TS7_TIMEOUT_MS) || 120_000);
    this.api = new ts.sync.API({ cwd: path.dirname(configPath) });
    const client = this.api.client;
    const child = client?.channel?.child;
    this.pid = child?.pid;
    if (child && typeof child.kill === "function") {
      // The client ends its process with SIGTERM (on close, and at exit for one left open), and a SIGTERM that meets
      // the end of the process's input makes tsc --api print "context canceled" on the stderr it shares with this
      // process (a loaded CI machine, after `tooltype check`). It holds nothing that needs an orderly end.
      const kill = child.kill.bind(child);
      child.kill = () => kill("SIGKILL");
    }
    this.state = new Int32Array(new SharedArrayBuffer(16));
    Atomics.store(this.state, 3, timeoutMs);
    this.watchdog = startWatchdog(this.state, this.pid);
    // 7.1's batches go out through apiRequest("batchRequests", ...) too: counted there, once.
    for (const method of ["apiRequest", "apiRequestBinary"]) {
      const original = client?.[method];
      if (typeof original !== "function") continue;
      client[method] = (...args: unknown[]) => {
        this.roundTrips++;
        const name = String(args[0]);
        this.requests.set(name, (this.requests.get(name) ?? 0) + 1);
        Atomics.add(this.state, 0, 1);
        Atomics.store(this.state, 1, 1);
        const start = this.trace && performance.now();
        try {
          return original.apply(client, args);
        } finally {
          Atomics.store(this.state, 1, 0);
          if (start !== undefined) this.trace!.request(name, performance.now() - start);
        }
      };
    }
    this.trace?.mark("process start");
    this.derives = typeof this.api.createSnapshot === "function";
    const project = this.ask(() => {
      this.snapshot = this.derives
        ? this.api.createSnapshot({ openProjects: [configPath] })
        : this.api.updateSnapshot({ openProjects: [configPath] });
      return projectOf(this.snapshot, configPath);
    }, `opening ${configPath}`);
    if (!project) {
      this.close();
      throw new Error(
        `TypeScript ${ts.version} opened no project for ${configPath}: check that the file is a tsconfig.json and that its "include" or "files" name sources.`,
      );
    }
    this.program = project.program;
    this.checker = project.checker;
    this.trace?.mark("project open");
  }

  /** True when the API turns one module's text into JavaScript (7.1's `transpileModule`); 7.0's has no emit. */
  get transpiles(): boolean {
    return typeof this.api.transpileModule === "function";
  }

  /**
   * One module's text as JavaScript, with its source map (7.1): the project's compiler options, `overrides` on top.
   * The API takes options by their numeric values, as the program hands them back.
   */
  transpile(
    text: string,
    fileName: string,
    overrides: Record<string, unknown>,
  ): { js: string; map: string | undefined } {
    const { plugins: _plugins, configFilePath: _config, ...options } = this.compilerOptions();
    const out = this.ask(
      () => this.api.transpileModule(text, { fileName, compilerOptions: { ...options, ...overrides } }),
      `transpiling ${fileName}`,
    ) as { outputText: string; sourceMapText?: string };
    return { js: out.outputText, map: out.sourceMapText };
  }

  /** The program's compiler options, as the API hands them back (enums by their numeric values). */
  compilerOptions(): Record<string, unknown> {
    return this.ask(() => this.program.getCompilerOptions()) as Record<string, unknown>;
  }

  /** The names of every file of the program, declarations and dependencies included. */
  sourceFileNames(): string[] {
    return this.ask(() => this.program.getSourceFileNames()) as string[];
  }

  /** The program's output as tsc writes it (JavaScript, declarations, maps), as text (7.1; 7.0's API has no emit). */
  emit(): {
    files: Map<string, { text: string; sourceFileName?: string }>;
    diagnostics: unknown[];
    emitSkipped: boolean;
  } {
    const out = this.ask(() => this.program.emitToString(), `emitting ${this.configPath}`) as {
      outputFiles: Map<string, { text: string; sourceFileName?: string }>;
      diagnostics: unknown[];
      emitSkipped?: boolean;
    };
    return {
      files: new Map(out.outputFiles),
      diagnostics: [...out.diagnostics],
      emitSkipped: out.emitSkipped === true,
    };
  }

  /**
   * TypeScript's own errors and warnings of the program (configuration, syntax, types), as the API hands them (7.1
   * with positions as line and character, 7.0 as offsets); the host prints them with its own.
   */
  typeDiagnostics(): unknown[] {
    const program = this.program;
    return this.ask(
      () => [
        ...program.getConfigFileParsingDiagnostics(),
        ...program.getProgramDiagnostics(),
        ...program.getSyntacticDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...program.getSemanticDiagnostics(),
      ],
      `checking ${this.configPath}`,
    ) as unknown[];
  }

  /** True when `update` can take a file's text from memory (7.1's file-system layer); 7.0 reads only the disk. */
  get overlays(): boolean {
    return this.derives;
  }

  /**
   * A new program after files changed on disk (`changes`: edited, made, removed; or `all`), and with `overlay` files
   * whose text is the one given (7.1 only). The process and its parsed files stay: both 7.0 and 7.1 parse again only
   * the files named, and a file made is matched against the tsconfig's "include" (a new module augmenting a type
   * joins the program), a file removed leaves it.
   */
  update(changes: FileChanges, overlay: Readonly<Record<string, string>> = {}): void {
    const inLayer = Object.keys(overlay);
    if (inLayer.length > 0 && !this.derives)
      throw new Error(
        `TypeScript ${this.ts.version}'s API reads files from disk only; tooltype needs 7.1 or later to read a module's text as the bundler hands it.`,
      );
    const notifications = changes.all
      ? { invalidateAll: true }
      : Object.fromEntries(
          (["changed", "created", "deleted"] as const)
            .map((kind) => [kind, (changes[kind] ?? []).filter((file) => !(file in overlay))] as const)
            .filter(([, files]) => files.length > 0),
        );
    const project = this.ask(() => {
      const previous = this.snapshot;
      if (this.derives) {
        this.snapshot = previous.update({
          ...(Object.keys(notifications).length > 0 ? { fileNotifications: notifications } : {}),
          ...(inLayer.length > 0 ? { fileSystem: { kind: "layer", files: overlay } } : {}),
          ensurePrograms: true,
        });
      } else {
        this.snapshot = this.api.updateSnapshot({ openProjects: [this.configPath], fileChanges: notifications });
      }
      // Nothing changed: 7.1 hands the same snapshot back.
      if (this.snapshot !== previous) previous?.dispose?.();
      return projectOf(this.snapshot, this.configPath);
    }, `updating ${this.configPath}`);
    this.program = project.program;
    this.checker = project.checker;
    this.generation++;
  }

  /**
   * True while the session can answer: not closed, not failed, and its process still running (a process killed or
   * crashed between two builds of a watch is found here, so the next build starts a new one).
   */
  get usable(): boolean {
    return !this.closed && this.failure === undefined && this.isAlive();
  }

  /** True when the API answers many questions in one request (7.1's `api.batch`). */
  get batches(): boolean {
    return typeof this.api.batch === "function";
  }

  /** 7.1: the answers of many questions (each a method's `.gen(...)` generator) in one request. */
  batch(generators: unknown[]): unknown[] {
    return this.ask(() => this.api.batch(...generators) as unknown[]);
  }

  /** How long one request may take before the process is taken for hung and stopped. */
  get timeoutMs(): number {
    return Atomics.load(this.state, 3);
  }

  set timeoutMs(ms: number) {
    Atomics.store(this.state, 3, ms);
  }

  /** Runs a question to the process; a crash or a hang becomes an error naming what was being read. */
  ask<T>(question: () => T, what = this.reading ? `reading ${this.reading}` : `reading ${this.configPath}`): T {
    if (this.failure) throw this.failure;
    if (this.closed)
      throw new Error(`tooltype's TypeScript 7 session for ${this.configPath} is closed; a new build opens a new one.`);
    try {
      return question();
    } catch (error) {
      const stopped = Atomics.load(this.state, 2) === 1;
      const cause = error instanceof Error ? error.message : String(error);
      // The client's own words for a process gone (its end of the pipe closed), else whether it still runs: until
      // the event loop turns, an exited child is not yet reaped.
      const exited = stopped || /Unexpected EOF|EPIPE|SyncRpcChannel is closed/.test(cause) || !this.isAlive();
      if (!exited) throw error;
      this.exited = !stopped;
      this.failure = new Error(
        stopped
          ? `TypeScript ${this.ts.version}'s API process (tsc --api, pid ${this.pid}) did not answer within ${this.timeoutMs / 1000} s while tooltype was ${what}, so it was stopped. Run \`npx tsc -p ${this.configPath} --noEmit\` to see whether TypeScript 7 itself hangs on this project; TOOLTYPE_TS7_TIMEOUT_MS gives a slow project more time.`
          : `TypeScript ${this.ts.version}'s API process (tsc --api, pid ${this.pid}) exited while tooltype was ${what} (${cause}). Run \`npx tsc -p ${this.configPath} --noEmit\` to see whether TypeScript 7 itself fails on this project, or install a JavaScript-API compiler (npm install -D @typescript/typescript6) and tooltype uses it instead.`,
        { cause: error },
      );
      this.close();
      throw this.failure;
    }
  }

  private isAlive(): boolean {
    if (this.pid === undefined) return true;
    try {
      process.kill(this.pid, 0);
      return this.api.client?.channel?.child?.exitCode === null;
    } catch {
      return false;
    }
  }

  /** Ends the process and the watchdog; safe to call more than once, and after a failure. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.watchdog.terminate();
    try {
      this.api.close();
    } catch {
      // The process is gone already (a crash, or the watchdog stopped it): nothing left to close.
    }
    if (this.pid !== undefined && this.isAlive()) {
      try {
        process.kill(this.pid, "SIGKILL");
      } catch {
        // It exited between the check and the kill.
      }
    }
    if (this.trace)
      process.stderr.write(this.trace.report(`tooltype: TypeScript ${this.ts.version} session for ${this.configPath}`));
  }
}

/**
 * Where a session's time went (`TOOLTYPE_TRACE_TS7=1`): its phases as the session and the reader mark them, and its
 * requests by method (count and time waiting for the answer, decoding included). Time outside requests is tooltype's
 * own work in this process.
 */
export class SessionTrace {
  private readonly started = performance.now();
  private last = this.started;
  private readonly phases = new Map<string, number>();
  private readonly methods = new Map<string, { count: number; ms: number }>();

  /** Ends a phase: the time since the previous mark is counted to `phase`. */
  mark(phase: string): void {
    const now = performance.now();
    this.phases.set(phase, (this.phases.get(phase) ?? 0) + now - this.last);
    this.last = now;
  }

  request(method: string, ms: number): void {
    const known = this.methods.get(method) ?? { count: 0, ms: 0 };
    known.count++;
    known.ms += ms;
    this.methods.set(method, known);
  }

  report(title: string): string {
    this.mark("after the last file, closing included");
    const total = performance.now() - this.started;
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    // performance.now() counts from the process's start: what came before the session is Node's start and loading.
    const lines = [`${title}: ${ms(total)}, opened ${ms(this.started)} after this process started`];
    for (const [phase, time] of this.phases) lines.push(`  phase ${phase}: ${ms(time)}`);
    let count = 0;
    let waited = 0;
    const byTime = [...this.methods].sort((a, b) => b[1].ms - a[1].ms);
    for (const [method, m] of byTime) {
      count += m.count;
      waited += m.ms;
      lines.push(`  request ${method}: ${m.count} in ${ms(m.ms)}`);
    }
    lines.push(`  requests: ${count} in ${ms(waited)}; tooltype's own work: ${ms(total - waited)}`);
    return `${lines.join("\n")}\n`;
  }
}

function projectOf(snapshot: any, configPath: string): any {
  return snapshot.getProject?.(configPath) ?? snapshot.getConfiguredProject?.(configPath) ?? snapshot.getProjects()[0];
}

/**
 * A worker thread that stops the process when one request has been out for `timeoutMs`: the client reads its
 * answer synchronously, so the main thread cannot notice a hang itself.
 */
function startWatchdog(state: Int32Array, pid: number | undefined): Worker {
  const source = `
    const { workerData } = require("node:worker_threads");
    const state = new Int32Array(workerData.buffer);
    let seen = -1, since = Date.now();
    setInterval(() => {
      const started = Atomics.load(state, 0);
      if (Atomics.load(state, 1) === 0 || started !== seen) { seen = started; since = Date.now(); return; }
      if (Date.now() - since < Atomics.load(state, 3) || workerData.pid === undefined) return;
      Atomics.store(state, 2, 1);
      try { process.kill(workerData.pid, "SIGKILL"); } catch {}
    }, 50);
  `;
  const worker = new Worker(source, { eval: true, workerData: { buffer: state.buffer, pid } });
  worker.unref();
  return worker;
}
