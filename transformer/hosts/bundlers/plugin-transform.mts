/**
 * What one bundler plugin does with a module, whatever the bundler: the persistent cache asked first, the project
 * (and the compiler) loaded and made only on the first miss, TypeScript 7's session opened ahead when a watch whose
 * builds the cache answered is idle, and closed when the host ends. unplugin.mts gives it to every bundler through
 * unplugin; esbuild.mts calls it from esbuild's own hooks, so that a build the cache answers loads no unplugin.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { TooltypeBundlerOptions } from "./plugin-shapes.mjs";
import type { ModuleProject, ModuleResult } from "../splice/transform-module.js";
import { mightUseTooltype } from "../splice/might-use-tooltype.js";
import { moduleCacheFor, transformCached } from "../project/cache/cached-transform.js";
import type { CachedModuleResult, ModuleCache } from "../project/cache/module-cache.js";
import { SessionAhead } from "./session-ahead.mjs";
import type { ProjectSources } from "./source-watch.mjs";

/** The plugins' default `include`: TypeScript's extensions. */
export const TYPESCRIPT = /\.[cm]?tsx?$/;
/** The plugins' default `exclude`: packages, and the virtual modules bundlers name with a NUL. */
export const PACKAGES = /[\\/]node_modules[\\/]|\0/;

/** What the cache answered for a module, before any project: its output, "miss", or "undecided" without a project. */
export type CacheAnswer = CachedModuleResult | "miss" | "undecided" | undefined;

export class PluginTransform {
  readonly include: RegExp;
  readonly exclude: RegExp;
  /** The tsconfig the options name, resolved as the project resolves it (a folder names its tsconfig.json). */
  readonly tsconfig: string;
  private project: ModuleProject | undefined;
  /**
   * What a module the cache does not hold needs (the project, the compiler, the transform), imported at the first
   * such module: a build whose modules all come from the cache loads none of it.
   */
  private ready: Promise<typeof import("../project/module-project.js")> | undefined;
  /** TypeScript 7's project class, once loaded (a project can only be one after it is). */
  private typeScript7: typeof import("../project/typescript-7.js").TypeScript7Project | undefined;
  /** The persistent cache (null when off), found at the first module: the project is made only on a miss. */
  private cache: ModuleCache | null | undefined;
  /**
   * In a watch whose builds the cache answered, TypeScript 7's session opens when the host is idle, so that the first
   * edit finds it open (a project on the JavaScript API is not made ahead).
   */
  private readonly ahead = new SessionAhead(async (wanted) => {
    if (this.project !== undefined) return;
    const loaded = await this.load();
    if (this.project !== undefined || !wanted()) return;
    const ts7 = loaded.typeScript7ModuleProjectFor(this.options);
    if (ts7 === undefined) return;
    this.project = ts7;
    ts7.openAhead();
    this.cache?.projectOpened();
  });

  constructor(private readonly options: TooltypeBundlerOptions) {
    this.include = options.include ?? TYPESCRIPT;
    this.exclude = options.exclude ?? PACKAGES;
    const tsconfig = path.resolve(options.tsconfig ?? "tsconfig.json");
    this.tsconfig = isFolder(tsconfig) ? path.join(tsconfig, "tsconfig.json") : tsconfig;
  }

  /** Whether tooltype looks at the module `file` (its path without a query) whose text is `code`. */
  takes(file: string, code: string): boolean {
    return this.include.test(file) && !this.exclude.test(file) && mightUseTooltype(code);
  }

  /** Whether a project was made (or opened ahead) in this plugin: else every module so far came from the cache. */
  get hasProject(): boolean {
    return this.project !== undefined;
  }

  /** Whether the persistent cache is on (known after the first module). */
  get caches(): boolean {
    return this.cache != null;
  }

  /**
   * The project's source files as the latest build knew them, for a watch (source-watch.mts): the cache's record,
   * else the project's own list; undefined when neither was made (no module with tools was looked at).
   */
  sources(): ProjectSources | undefined {
    const cached = this.cache?.projectSources();
    if (cached) return cached;
    return this.project && { files: this.project.sourceFiles() };
  }

  /** The cache's answer for the module, without making a project. */
  lookup(file: string, code: string): CacheAnswer {
    if (this.cache === undefined) {
      // One cache per project in the process, shared by this build's plugin and any earlier one's (a second
      // `build()` in the same process): what an earlier build saw of the disk is looked at again.
      this.cache = moduleCacheFor(this.options) ?? null;
      this.cache?.refresh();
    }
    return this.cache?.lookup(file, code);
  }

  /** The module's output: `answer` when the cache held it (else asked here), else read in the project, made now. */
  async transform(file: string, code: string, answer: CacheAnswer = this.lookup(file, code)): Promise<ModuleResult> {
    if (typeof answer === "object") return answer;
    // TypeScript 7's API is ES modules: imported before the first module's synchronous read, so that it loads on
    // Nodes that cannot require them (before 20.19). Neither is loaded while the cache answers.
    const { moduleProjectFor } = await this.load();
    return transformCached(
      this.cache ?? undefined,
      file,
      code,
      () => (this.project ??= moduleProjectFor(this.options)),
      typeof answer === "string" ? answer : undefined,
    );
  }

  /** A (re)build starts: files may have changed on disk since the last one. */
  buildStart(): void {
    this.ahead.cancel();
    this.project?.refresh();
    this.cache?.refresh();
  }

  /** The host's watcher saw `file` change. */
  changed(file: string): void {
    this.project?.refresh(file);
    this.cache?.refresh();
  }

  /** The host is idle (a watch's build ended and was written, a dev server answered): open the session soon. */
  idle(): void {
    this.ahead.idle();
  }

  /** The host ends (a build, a watch, a dev server): a TypeScript 7 project's `tsc --api` process ends with it. */
  finish(): void {
    this.ahead.cancel();
    if (this.typeScript7 && this.project instanceof this.typeScript7) {
      this.project.close();
      this.project = undefined;
    }
  }

  private load(): Promise<typeof import("../project/module-project.js")> {
    return (this.ready ??= (async () => {
      const [loaded, ts7] = await Promise.all([
        import("../project/module-project.js"),
        import("../project/typescript-7.js"),
      ]);
      this.typeScript7 = ts7.TypeScript7Project;
      await loaded.preloadModuleProject(this.options);
      return loaded;
    })());
  }
}

function isFolder(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
