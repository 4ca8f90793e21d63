/**
 * The module transform's project on TypeScript 7, for a project whose `typescript` is TypeScript 7 and that has no
 * JavaScript-API compiler: one `tsc --api` process (a `TypeScript7Session`) per tsconfig, reused for every module of
 * a build and across the rebuilds of watch mode, closed when the host's build or watch ends (and by TypeScript 7's
 * client when the process exits). The core reads each module with the checker facade and reports each compiled
 * usage as text (`onCompiled`), which is spliced into the module's text where the JavaScript API's path prints the
 * transformer's new nodes.
 *
 * Owns: when the session's program is updated, and with what (the files changed, made or removed on disk since, the
 * project's own declaration files included, which the process parses again while it keeps the others; the bundler's
 * text where it differs from the disk's: 7.1 reads it from a file-system layer, 7.0 cannot), replacing a session
 * whose process died between two builds, the edits of each usage, and the files a module's schemas may depend on:
 * the project files its imports reach (read from their texts: TypeScript 7's API gives no import graph cheaply),
 * those that declare globally, those of the declarations the reader visited (text-imports.ts), and the project's own
 * declaration files. A module none of whose files changed is not read again. A watch whose first build the cache
 * answered opens the session ahead (`openAhead`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { CompiledUsage, TooltypePluginConfig } from "../../index";
import { TypeScript7Reader } from "../../readers/ts7/analyse";
import { isTypeScript7, loadTypeScript7, preloadTypeScript7, TypeScript7Session } from "../../readers/ts7/api";
import { ValidatorCompiler } from "../../validator";
import { hostDiagnostic } from "../diagnostic-format";
import { hash, normalize, readText } from "./files";
import { type TextFacts, TextImportGraph, textFacts } from "./text-imports";
import { type ModuleResult, spliceText, type TextEdit } from "../splice/splice";
import { hasJavaScriptApiCompiler } from "./tsconfig";
import { pluginEntryOf } from "./plugin-entry";

export { tspcOnTypeScript7Note } from "./plugin-entry";

const open = new Map<string, TypeScript7Project>();

/** A file's version when it is not on disk. */
const MISSING = "missing";
/** Files that may join the program when made: TypeScript sources and declarations. */
const OWN_SOURCE = /\.[cm]?tsx?$/;
const PACKAGES = /[\\/]node_modules[\\/]/;
const JSON_MODULE = /\.json$/;
const DECLARATION = /\.d\.[cm]?ts$/;
const NO_FACTS: TextFacts = { global: false, specifiers: [], references: [] };

/**
 * The TypeScript 7 project for `tsconfig` when the project's `typescript` is TypeScript 7 and no compiler with the
 * JavaScript API is installed beside it (then the hosts read types through TypeScript 7's API); else undefined.
 */
export function typeScript7ProjectFor(
  tsconfig: string,
  plugin: TooltypePluginConfig | undefined,
): TypeScript7Project | undefined {
  const configPath = path.resolve(tsconfig);
  const known = open.get(configPath);
  if (known) return known;
  const packageDir = typeScript7PackageFor(configPath);
  if (packageDir === undefined) return undefined;
  const project = new TypeScript7Project(configPath, packageDir, plugin);
  open.set(configPath, project);
  return project;
}

/**
 * Imports TypeScript 7's API for `tsconfig` ahead of `typeScript7ProjectFor` when that project reads types through
 * it: the hosts' asynchronous moment before their synchronous reads, which makes the API load on Nodes that cannot
 * `require` an ES module (before 20.19). Does nothing for a project on the JavaScript API.
 */
export async function preloadTypeScript7For(tsconfig: string): Promise<void> {
  const packageDir = typeScript7PackageFor(path.resolve(tsconfig));
  if (packageDir !== undefined) await preloadTypeScript7(packageDir);
}

/** The folder of the project's `typescript` when it is TypeScript 7 and no JavaScript-API compiler is beside it. */
function typeScript7PackageFor(configPath: string): string | undefined {
  const dir = path.dirname(configPath);
  let packageDir: string;
  try {
    packageDir = path.dirname(require.resolve("typescript/package.json", { paths: [dir] }));
  } catch {
    return undefined;
  }
  return isTypeScript7(packageDir) && !hasJavaScriptApiCompiler(dir) ? packageDir : undefined;
}

export class TypeScript7Project {
  readonly plugin: TooltypePluginConfig;
  /** Kept across the programs of watch mode: a schema that did not change is not compiled again. */
  readonly validators = new ValidatorCompiler();
  private session: TypeScript7Session | undefined;
  private reader: TypeScript7Reader | undefined;
  /** The project's files and their versions when the session's program was made. */
  private readVersions = new Map<string, string>();
  /**
   * The project's own declaration files (outside node_modules) and their versions then: told to the session when
   * edited, and part of every fingerprint (a declaration file's types may reach any module, imported or global).
   */
  private declarations = new Map<string, string>();
  /** Versions looked up since the last refresh. */
  private readonly versions = new Map<string, string>();
  /**
   * Files named as changed that the session's program did not hold: made since (a module augmenting a type, a
   * declaration merged into one), told to the process as made, so that the tsconfig's "include" can take them in.
   */
  private readonly made = new Set<string>();
  /** How many files were made in this project's life: part of every fingerprint. */
  private filesMade = 0;
  /** Texts the bundler handed us that differ from the disk's (7.1's file-system layer). */
  private readonly overlay: Record<string, string> = {};
  private stale = false;
  /** Files were refreshed since the session last answered: a rebuild begins (`withSession`). */
  private rebuilding = false;
  /** What each project file's text says (imports, whether it declares globally), by the file's version. */
  private readonly texts = new Map<string, { version: string; facts: TextFacts | undefined }>();
  /** The imports among the session's current files; made again when the program changes. */
  private graph: TextImportGraph | undefined;
  private options: { session: TypeScript7Session; options: Record<string, unknown> } | undefined;
  /** The project files that declare globally, with their versions, since the last refresh (`fingerprint`). */
  private globalsKey: string | undefined;
  /** Each module's last result and what it was made from: its text, and its dependencies' fingerprint. */
  private readonly results = new Map<string, { code: string; fingerprint: string; result: ModuleResult }>();
  /** How many modules were read (not answered from `results`): the figure a test or the bench counts. */
  modulesRead = 0;

  constructor(
    readonly tsconfig: string,
    readonly packageDir: string,
    plugin: TooltypePluginConfig | undefined,
  ) {
    this.plugin = plugin ?? pluginEntryOf(tsconfig);
  }

  /** Forget what is known of the disk: every file (or `fileName`) is looked at again before the next module. */
  refresh(fileName?: string): void {
    this.globalsKey = undefined;
    if (fileName === undefined) this.versions.clear();
    else {
      const file = normalize(fileName);
      this.versions.delete(file);
      const known = this.readVersions.has(file) || this.declarations.has(file);
      if (!known && OWN_SOURCE.test(file) && !PACKAGES.test(file)) {
        this.made.add(file);
        this.filesMade++;
      }
    }
    this.stale = true;
    this.rebuilding = true;
  }

  /**
   * What is known of these files now (their versions): an equal fingerprint means equal texts. A file made since,
   * or a change to a file that declares globally (or now does), changes every fingerprint: it may augment what any
   * module's tools read, and no module's imports reach it.
   */
  fingerprint(files: readonly string[]): string {
    return `${this.filesMade}|${this.globalFiles()}|${files.map((f) => this.version(normalize(f))).join("|")}`;
  }

  /**
   * Whether `file` is (or may be) the program's output, not a source: it lies where the program writes (outDir,
   * declarationDir), or it is a declaration file beside the source it is emitted from (no outDir: a.d.ts of a.ts).
   */
  isOutput(file: string): boolean {
    const emittedFrom = /\.d(\.[cm]?)ts$/.exec(file);
    if (
      emittedFrom &&
      [`${emittedFrom[1]}ts`, `${emittedFrom[1]}tsx`].some((ext) =>
        fs.existsSync(file.slice(0, emittedFrom.index) + ext),
      )
    )
      return true;
    const session = this.openSession();
    if (this.options?.session !== session) this.options = { session, options: session.compilerOptions() };
    const { outDir, declarationDir } = this.options.options;
    const inside = (dir: unknown) =>
      typeof dir === "string" && !path.relative(path.resolve(dir), path.resolve(file)).startsWith("..");
    return inside(outDir) || inside(declarationDir);
  }

  /**
   * The module with its usages' metadata spliced in, as `transformModule` gives it: its last result when neither its
   * text nor any file it depends on changed since (watch mode's rebuilds, `tooltype build -w`'s included).
   */
  transform(fileName: string, code: string): ModuleResult {
    const file = normalize(fileName);
    const last = this.results.get(file);
    if (last && last.code === code && last.fingerprint === this.fingerprint(last.result.dependencies))
      return last.result;
    const result = this.read(file, fileName, code);
    this.results.set(file, { code, fingerprint: this.fingerprint(result.dependencies), result });
    return result;
  }

  private read(file: string, fileName: string, code: string): ModuleResult {
    this.modulesRead++;
    let reader!: TypeScript7Reader;
    let read: ReturnType<TypeScript7Reader["readFile"]>;
    try {
      read = this.withSession(() => {
        reader = this.readerFor(file, code);
        return reader.readFile(file);
      });
    } catch (error) {
      this.dropSession();
      throw error;
    }
    if (!read)
      throw new Error(
        `tooltype: ${fileName} is not part of the TypeScript program of ${this.tsconfig}: TypeScript 7's API reads the files the tsconfig includes, so add it to "include" (or "files").`,
      );
    const diagnostics = read.diagnostics.map((d) => hostDiagnostic(reader.tsi, d));
    const dependencies =
      read.usages.length > 0 || read.diagnostics.length > 0 ? this.dependenciesOf(file, read.visited) : [];
    const edits = read.usages.flatMap((usage) => usageEdits(reader.tsi, read.file, usage));
    if (edits.length === 0) return { code: undefined, map: undefined, diagnostics, dependencies };
    return { ...spliceText(code, fileName, edits), diagnostics, dependencies };
  }

  /**
   * The project files a module's schemas may depend on (itself left out): those its imports reach, those that
   * declare globally, and those of the declarations the reader visited; every project file when an import may reach
   * one by a path the text does not show; and the project's own declaration files (few; a bundler's watch then sees
   * their edits). Files outside the project (the standard library's, packages') are not named: the persistent cache
   * keys every module by those (program-facts.ts's `shared`).
   */
  private dependenciesOf(file: string, visited: readonly string[]): string[] {
    const project = this.readVersions;
    const graph = this.importGraph();
    const reached = graph.reachedFrom(file);
    const found = reached === "every" ? new Set(project.keys()) : reached;
    if (reached !== "every") {
      for (const global of graph.globals()) found.add(global);
      for (const name of visited) {
        const visitedFile = path.isAbsolute(name) ? normalize(name) : undefined;
        if (visitedFile !== undefined && project.has(visitedFile)) found.add(visitedFile);
      }
    }
    // The project's declaration files: a bundler's watch then runs the module again when one is edited.
    for (const declaration of this.declarations.keys()) found.add(declaration);
    found.delete(file);
    return [...found].sort();
  }

  private importGraph(): TextImportGraph {
    if (this.graph) return this.graph;
    const session = this.openSession();
    if (this.options?.session !== session) this.options = { session, options: session.compilerOptions() };
    const graph = new TextImportGraph([...this.readVersions.keys()], this.options.options, (f) => this.textFactsOf(f));
    this.graph = graph;
    return graph;
  }

  /** What a project file's text says now; undefined when it cannot be read (then it counts as declaring globally). */
  private textFactsOf(file: string): TextFacts | undefined {
    const version = this.version(file);
    const known = this.texts.get(file);
    if (known?.version === version) return known.facts;
    const text = this.overlay[file] ?? readText(file);
    // A JSON module (resolveJsonModule) declares nothing and imports nothing.
    const facts = text === undefined ? undefined : JSON_MODULE.test(file) ? NO_FACTS : textFacts(text);
    this.texts.set(file, { version, facts });
    return facts;
  }

  /** The project files that declare globally now, with their versions (part of every fingerprint). */
  private globalFiles(): string {
    if (this.globalsKey !== undefined) return this.globalsKey;
    const parts: string[] = [];
    for (const file of this.readVersions.keys())
      if (this.textFactsOf(file)?.global ?? true) parts.push(`${file}:${this.version(file)}`);
    for (const file of this.declarations.keys()) parts.push(`${file}:${this.version(file)}`);
    this.globalsKey = hash(parts.join("|"));
    return this.globalsKey;
  }

  /**
   * Opens the session and learns what every read needs first (the program's files, its options, the imports among
   * its files, which of them declare globally), ahead of any module: a watch whose first build the cache answered
   * does it when the host is idle, so that the first edit's rebuild pays for none of it.
   */
  openAhead(): void {
    this.withSession(() => {
      this.catchUp(this.openSession());
      this.importGraph();
      this.globalFiles();
    });
  }

  /** The project's own source files, as the session's current program has them. */
  sourceFiles(): string[] {
    this.withSession(() => this.catchUp(this.openSession()));
    return [...this.readVersions.keys()];
  }

  /**
   * The program's output (JavaScript, declarations, maps: what tsc writes) with `spliced` as the text of those
   * files, through 7.1's file-system layer; the files' own texts are put back before it returns, so the modules
   * are read as written again. Undefined on 7.0, whose API has no emit.
   */
  emitWith(spliced: Readonly<Record<string, string>>): ReturnType<TypeScript7Session["emit"]> | undefined {
    return this.withSession(() => this.emitOver(spliced));
  }

  private emitOver(spliced: Readonly<Record<string, string>>): ReturnType<TypeScript7Session["emit"]> | undefined {
    const session = this.openSession();
    if (!session.overlays) return undefined;
    const names = Object.keys(spliced);
    session.update({ changed: names }, spliced);
    try {
      return session.emit();
    } finally {
      const own = Object.fromEntries(names.map((name) => [name, this.overlay[name] ?? readText(name) ?? ""]));
      session.update({ changed: names }, own);
      this.reader = undefined;
    }
  }

  /**
   * TypeScript's own errors and warnings of the program as written (configuration, syntax, types), as TypeScript 7's
   * API hands them: the build prints them with tooltype's.
   */
  typeDiagnostics(): unknown[] {
    return this.withSession(() => this.openSession().typeDiagnostics());
  }

  /**
   * The session, opened if it is not (the register hook transpiles through it). One whose process has died since
   * (killed, crashed: a watch outlives such things) is replaced by a new one, which reads the project afresh.
   */
  openSession(): TypeScript7Session {
    if (this.session && !this.session.usable) this.dropSession();
    if (this.session) return this.session;
    const session = new TypeScript7Session(loadTypeScript7(this.packageDir), this.tsconfig);
    try {
      if (session.overlays && Object.keys(this.overlay).length > 0) session.update({}, this.overlay);
      this.made.clear();
      this.recordVersions(session);
    } catch (error) {
      session.close();
      throw error;
    }
    this.session = session;
    return session;
  }

  /**
   * Runs `use` on the session. At a rebuild's first question (files were refreshed since the last), a session whose
   * process turns out to have exited meanwhile (killed or crashed while the watch waited; Node may not have reaped it
   * yet, so `usable` could not tell) is replaced and `use` runs once more on a new one. A process that dies within a
   * build, or a new session's own failure, is the error, as it says.
   */
  private withSession<T>(use: () => T): T {
    const had = this.session;
    const rebuilding = this.rebuilding;
    const asked = had?.roundTrips ?? 0;
    try {
      const result = use();
      // The session answered (or is new): this rebuild's first question is behind.
      if (this.session !== had || (had?.roundTrips ?? 0) > asked) this.rebuilding = false;
      return result;
    } catch (error) {
      if (!rebuilding || had === undefined || this.session !== had || !had.exited) throw error;
      this.rebuilding = false;
      this.dropSession();
      return use();
    }
  }

  /** Ends the process; the next module opens a new one. */
  close(): void {
    this.dropSession();
    open.delete(this.tsconfig);
  }

  private dropSession(): void {
    this.session?.close();
    this.session = undefined;
    this.reader = undefined;
  }

  /** A reader of a program that holds `code` as the text of `file`. */
  private readerFor(file: string, code: string): TypeScript7Reader {
    const onDisk = readText(file);
    const differs = onDisk !== code;
    if (differs && this.overlay[file] !== code) {
      this.overlay[file] = code;
      this.stale = true;
    } else if (!differs && this.overlay[file] !== undefined && this.overlay[file] !== code) {
      this.overlay[file] = code;
      this.stale = true;
    }
    const session = this.openSession();
    if (differs && !session.overlays) this.textDiffers(file, session);
    this.catchUp(session);
    if (!this.reader || this.reader.generation !== session.generation) {
      this.reader = new TypeScript7Reader(session, {
        pluginConfig: this.plugin,
        splice: true,
        validatorCompiler: this.validators,
      });
    }
    return this.reader;
  }

  /** The session's program brought up to date with the files changed, made and removed since it was made. */
  private catchUp(session: TypeScript7Session): void {
    if (this.stale) {
      // What changed since the program was made: the process parses those files again, and nothing else.
      const changed: string[] = [];
      const deleted: string[] = [];
      for (const [f, v] of [...this.readVersions, ...this.declarations]) {
        const now = this.version(f);
        if (now !== v) (now === MISSING ? deleted : changed).push(f);
      }
      const created = [...this.made].filter((f) => this.version(f) !== MISSING);
      this.made.clear();
      const overlaid = Object.keys(this.overlay);
      if (changed.length + deleted.length + created.length + overlaid.length > 0) {
        session.update(
          { changed: [...new Set([...changed, ...overlaid])], created, deleted },
          session.overlays ? this.overlay : {},
        );
        this.recordVersions(session);
      }
    }
    this.stale = false;
  }

  private textDiffers(file: string, session: TypeScript7Session): never {
    throw new Error(
      `tooltype: the text of ${file} that the bundler handed over differs from the file on disk (a plugin before tooltype changed it), and TypeScript ${session.ts.version}'s API reads files from disk only. Put tooltype's plugin first, or update TypeScript to 7.1 or later, whose API reads the text given.`,
    );
  }

  private recordVersions(session: TypeScript7Session): void {
    this.graph = undefined;
    this.globalsKey = undefined;
    const names = session.sourceFileNames().filter((n) => !PACKAGES.test(n));
    const versions = (files: string[]) => new Map(files.map((n) => [normalize(n), this.version(normalize(n))]));
    this.readVersions = versions(names.filter((n) => !DECLARATION.test(n)));
    // The standard library's files are not on disk (they live inside the compiler): only the project's own.
    this.declarations = versions(names.filter((n) => DECLARATION.test(n) && path.isAbsolute(n) && fs.existsSync(n)));
  }

  private version(file: string): string {
    let version = this.versions.get(file);
    if (version === undefined) {
      try {
        const stat = fs.statSync(file);
        version = `disk:${stat.size}:${stat.mtimeMs}`;
      } catch {
        version = MISSING;
      }
      const overlaid = this.overlay[file];
      if (overlaid !== undefined) version += `:text:${overlaid.length}:${hash(overlaid)}`;
      this.versions.set(file, version);
    }
    return version;
  }
}

/**
 * The edits that write one usage into the module's text, as the JavaScript API's module transform writes the
 * transformer's new nodes: metadata appended to a call's arguments (`void 0` for a missing options argument), a
 * `@tool` decorator written out as a static block after its method, the `tooltype/kit` import on the first line.
 */
export function usageEdits(tsi: typeof ts, file: ts.SourceFile, usage: CompiledUsage): TextEdit[] {
  const text = file.text;
  const source = (node: ts.Node): string => text.slice(node.getStart(file), node.end);
  if (usage.kind === "kit-import") return [kitImportEdit(tsi, file, usage.name)];
  if (usage.kind === "call") return [argumentsEdit(usage.call, usage.leading, usage.meta)];
  const decorator = usage.decorator;
  const expression = decorator.expression;
  const call = tsi.isCallExpression(expression) ? (expression as ts.CallExpression) : undefined;
  const method = decorator.parent;
  const name = tsi.isMethodDeclaration(method) ? (method as ts.MethodDeclaration).name : undefined;
  if (!name || !(tsi.isIdentifier(name) || tsi.isStringLiteral(name) || tsi.isNumericLiteral(name))) {
    // A key a static block cannot name (a private method): kept a decorator, as tspc emits it.
    return call ? [argumentsEdit(call, 1, usage.meta)] : [{ at: expression.end, text: `(void 0, ${usage.meta})` }];
  }
  const isStatic = [...((method as ts.MethodDeclaration).modifiers ?? [])].some(
    (m) => m.kind === tsi.SyntaxKind.StaticKeyword,
  );
  const holder = isStatic ? "this" : "this.prototype";
  const key = JSON.stringify(
    tsi.isNumericLiteral(name) ? String(Number((name as ts.NumericLiteral).text)) : (name as ts.Identifier).text,
  );
  const options = call?.arguments[0] ? source(call.arguments[0]) : "void 0";
  const callee = call ? source(call.expression) : source(expression);
  return [
    {
      at: method.end,
      text: ` static { ${callee}(${options}, ${usage.meta})(${holder}, ${key}, Object.getOwnPropertyDescriptor(${holder}, ${key})); }`,
      remove: { start: decorator.getStart(file), end: decorator.end },
    },
  ];
}

/** `f(a)` → `f(a, meta)`, `f()` → `f(void 0, meta)` for `leading` arguments before the metadata. */
function argumentsEdit(call: ts.CallExpression, leading: number, meta: string): TextEdit {
  const had = call.arguments;
  const missing = Array.from({ length: Math.max(0, leading - had.length) }, () => "void 0");
  const args = [...missing, meta].join(", ");
  if (had.length > leading) {
    // Arguments past the metadata's place are dropped, as the transformer's new call drops them.
    return {
      at: had[leading - 1]!.end,
      text: `, ${args}`,
      remove: { start: had[leading - 1]!.end, end: had[had.length - 1]!.end },
    };
  }
  return had.length > 0 ? { at: had[had.length - 1]!.end, text: `, ${args}` } : { at: had.pos, text: args };
}

/** The kit import on the first line after the directive prologue and any `#!` line, so lines keep their numbers. */
function kitImportEdit(tsi: typeof ts, file: ts.SourceFile, name: string): TextEdit {
  const statement = `import * as ${name} from "tooltype/kit";`;
  let at = 0;
  for (const s of file.statements) {
    if (!(tsi.isExpressionStatement(s) && tsi.isStringLiteral((s as ts.ExpressionStatement).expression))) break;
    at = s.end;
  }
  const text = file.text;
  let before = at > 0 && text[at - 1] !== ";" ? ";" : "";
  if (at === 0) {
    const shebang = /^#!.*/.exec(text)?.[0];
    if (shebang !== undefined) at = text.indexOf("\n", shebang.length) + 1 || text.length;
    if (shebang !== undefined && at === text.length) before = "\n";
  }
  return { at, text: `${before}${statement}` };
}
