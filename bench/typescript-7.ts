/**
 * Benchmark 4b, TypeScript 7 against 5.9 (issue 31): the generated project on each compiler, bundled with tooltype's
 * plugin and checked by `tooltype check`, beside that compiler's own `tsc --noEmit`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { toolSpecs, writeTooltypeProject } from "./generate";
import { alternate, runChild, stats, type Stats } from "./harness";

const REPO = path.resolve(__dirname, "..", "..");
const CHILD = path.join(__dirname, "bundler-child.js");
const API_CHILD = path.join(__dirname, "ts7-api-child.js");
const CLI = path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js");

export const COMPILERS = { "5.9": "typescript", "7.0": "typescript-7", "7.1": "typescript-7.1" } as const;
export type Compiler = keyof typeof COMPILERS;
export const COMMANDS = [
  "esbuild + plugin",
  "tooltype check",
  "tsc --noEmit",
  "esbuild + plugin, warm cache",
  "esbuild alone",
  "tooltype check, warm cache",
] as const;
/**
 * TypeScript 7's API alone, for the TypeScript 7 projects (ts7-api-child.ts): the reader's questions answered, no
 * tool read. What `tooltype check` cannot go below on that compiler.
 */
export const API_ALONE = "the API alone";

/**
 * Under a node with V8's compile cache (Node 22.1 and later), which the `tooltype` command turns on: `tooltype check`
 * with a warm cache and with `NODE_DISABLE_COMPILE_CACHE=1`, beside that node's `tsc --noEmit`.
 */
export const CACHE_COMMANDS = [
  "tooltype check, compile cache",
  "tooltype check, no compile cache",
  "tsc --noEmit",
] as const;

export interface TypeScript7Result {
  tools: number;
  runs: number;
  /** Per compiler, per command: wall milliseconds. */
  ms: Record<Compiler, Record<(typeof COMMANDS)[number], Stats> & { [API_ALONE]?: Stats }>;
  /**
   * Watch mode on each compiler (a live esbuild context with the plugin, one tool module edited, rebuilt), `runs`
   * rounds alternating the compilers: the rebuild's and the edited module's transform's wall milliseconds, and the
   * most `tsc --api` processes one watch had (one: the rebuild updated the session the first build opened).
   */
  watch?: Record<Compiler, { rebuildMs: Stats; transformMs: Stats; apiProcesses: number }>;
  /**
   * The same watch, its first build answered by the warm schema cache (the warm sides' folder): no module read then,
   * so on TypeScript 7 the plugin opens the session while the watch is idle, before the edit (issue 49).
   */
  watchWarm?: Record<Compiler, { rebuildMs: Stats; transformMs: Stats; apiProcesses: number }>;
  /** The same project under a node with a compile cache, when the bench has one (`compileCacheNode`). */
  onCacheNode?: { node: string; ms: Record<Compiler, Record<(typeof CACHE_COMMANDS)[number], Stats>> };
}

/**
 * Benchmark 4b, TypeScript 7 against 5.9 (issue 31): the generated project of N tools, on each compiler as a project
 * whose `typescript` is that compiler and nothing else, built by esbuild with tooltype's plugin and checked by
 * `tooltype check`, beside that compiler's own `tsc --noEmit`. TypeScript 7's projects live outside the repository
 * (so that only their own `typescript` resolves), with node_modules/typescript linked to the repository's
 * typescript-7 (7.0) or typescript-7.1; the 5.9 project is the repository's own compiler. Every command in its own
 * process, the sides alternated.
 */
export function benchTypeScript7(
  toolCount: number,
  runs: number,
  warmup = true,
  cacheNode?: { path: string; version: string },
  compilers = Object.keys(COMPILERS) as Compiler[],
): TypeScript7Result {
  const base = writeTooltypeProject(`typescript-7-${toolCount}`, toolSpecs(toolCount));
  const dirs = {} as Record<Compiler, string>;
  for (const compiler of compilers) {
    if (compiler === "5.9") {
      dirs[compiler] = base.dir;
      continue;
    }
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-bench-ts7-")), "project");
    fs.cpSync(base.dir, dir, { recursive: true, verbatimSymlinks: true });
    fs.symlinkSync(
      path.join(REPO, "node_modules", COMPILERS[compiler]),
      path.join(dir, "node_modules", "typescript"),
      "dir",
    );
    dirs[compiler] = dir;
  }
  type Command = (typeof COMMANDS)[number] | typeof API_ALONE;
  const commandsOf = (compiler: Compiler): Command[] => (compiler === "5.9" ? [...COMMANDS] : [...COMMANDS, API_ALONE]);
  const sides = compilers.flatMap((compiler) => commandsOf(compiler).map((command) => `${compiler}\0${command}`));
  const cacheSides = cacheNode
    ? compilers.flatMap((compiler) => CACHE_COMMANDS.map((command) => `${compiler}\0${command}\0cache`))
    : [];
  // The cache of the runs with one, filled by the warm-up (or the first round): what a user's second run meets.
  const cache = cacheNode && fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-bench-ts7-compile-cache-"));
  const withoutCacheVariables = (): NodeJS.ProcessEnv => {
    const env = { ...process.env };
    delete env.NODE_COMPILE_CACHE;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    delete env.TOOLTYPE_CACHE;
    delete env.TOOLTYPE_CACHE_DIR;
    return env;
  };
  const run = (side: string): number => {
    const [compiler, command, onCacheNode] = side.split("\0") as [
      Compiler,
      Command | (typeof CACHE_COMMANDS)[number],
      string | undefined,
    ];
    const dir = dirs[compiler];
    const tsconfig = path.join(dir, "tsconfig.plain.json");
    const checks = command === "tooltype check" || command.startsWith("tooltype check,");
    const warm = command === "esbuild + plugin, warm cache" || command === "tooltype check, warm cache";
    const args =
      command === "esbuild + plugin" || command === "esbuild + plugin, warm cache"
        ? [CHILD, dir, "plugin", tsconfig]
        : command === "esbuild alone"
          ? [CHILD, dir, "plain", tsconfig]
          : checks
            ? [CLI, "check", "-p", tsconfig]
            : command === API_ALONE
              ? [API_CHILD, tsconfig]
              : [path.join(REPO, "node_modules", COMPILERS[compiler], "bin", "tsc"), "-p", tsconfig, "--noEmit"];
    const env = withoutCacheVariables();
    // The persistent schema cache: off for the cold builds and checks (as before it), one folder per compiler for the
    // warm ones, which the warm-up (or the first round) fills.
    if (warm) env.TOOLTYPE_CACHE_DIR = path.join(dir, ".bench-schema-cache");
    else env.TOOLTYPE_CACHE = "0";
    if (command === "tooltype check, compile cache") env.NODE_COMPILE_CACHE = cache;
    if (command === "tooltype check, no compile cache") env.NODE_DISABLE_COMPILE_CACHE = "1";
    const child = runChild(onCacheNode ? cacheNode!.path : process.execPath, args, {
      cwd: dir,
      timeoutMs: 600_000,
      env,
    });
    if (checks && !/tool\(s\) checked/.test(child.stdout))
      throw new Error(`typescript-7 bench: tooltype check on ${compiler} checked no tools:\n${child.stdout}`);
    return child.wallMs;
  };
  try {
    const all = [...sides, ...cacheSides];
    if (warmup)
      for (const side of all) run(side); // unmeasured
    else
      for (const side of all)
        if (side.includes("tooltype check, compile cache") || side.includes("warm cache")) run(side); // fills the caches
    const ms = alternate(all, runs, run);
    const out = {} as TypeScript7Result["ms"];
    for (const side of sides) {
      const [compiler, command] = side.split("\0") as [Compiler, Command];
      (out[compiler] ??= {} as TypeScript7Result["ms"][Compiler])[command] = stats(ms[side]!);
    }
    let onCacheNode: TypeScript7Result["onCacheNode"];
    if (cacheNode) {
      const cached = {} as NonNullable<TypeScript7Result["onCacheNode"]>["ms"];
      for (const side of cacheSides) {
        const [compiler, command] = side.split("\0") as [Compiler, (typeof CACHE_COMMANDS)[number]];
        (cached[compiler] ??= {} as (typeof cached)[Compiler])[command] = stats(ms[side]!);
      }
      onCacheNode = { node: cacheNode.version, ms: cached };
    }
    return {
      tools: toolCount,
      runs,
      ms: out,
      watch: benchWatch(dirs, runs, withoutCacheVariables, false),
      watchWarm: benchWatch(dirs, runs, withoutCacheVariables, true),
      ...(onCacheNode ? { onCacheNode } : {}),
    };
  } finally {
    for (const compiler of compilers)
      if (compiler !== "5.9") fs.rmSync(path.dirname(dirs[compiler]), { recursive: true, force: true });
    if (cache) fs.rmSync(cache, { recursive: true, force: true });
  }
}

/**
 * Watch mode on each compiler's project, the compilers alternated in each round (bundler-child.ts's `watch`): its
 * first build reads every module (no schema cache), or with `warm` answers every module from the warm sides' cache.
 */
function benchWatch(
  dirs: Record<Compiler, string>,
  runs: number,
  baseEnv: () => NodeJS.ProcessEnv,
  warm: boolean,
): NonNullable<TypeScript7Result["watch"]> {
  const compilers = Object.keys(dirs) as Compiler[];
  const measured = new Map<Compiler, { rebuildMs: number; transformMs: number; apiProcesses: number }[]>();
  for (let round = 0; round < runs; round++) {
    for (const compiler of compilers) {
      const dir = dirs[compiler];
      const env = baseEnv();
      if (warm) env.TOOLTYPE_CACHE_DIR = path.join(dir, ".bench-schema-cache");
      else env.TOOLTYPE_CACHE = "0";
      const child = runChild(process.execPath, [CHILD, dir, "watch", path.join(dir, "tsconfig.plain.json")], {
        cwd: dir,
        timeoutMs: 600_000,
        env,
      });
      const result = JSON.parse(child.stdout) as { rebuildMs: number; transformMs: number; apiProcesses: number };
      measured.set(compiler, [...(measured.get(compiler) ?? []), result]);
    }
  }
  return Object.fromEntries(
    compilers.map((compiler) => {
      const all = measured.get(compiler)!;
      return [
        compiler,
        {
          rebuildMs: stats(all.map((r) => r.rebuildMs)),
          transformMs: stats(all.map((r) => r.transformMs)),
          apiProcesses: Math.max(...all.map((r) => r.apiProcesses)),
        },
      ];
    }),
  ) as NonNullable<TypeScript7Result["watch"]>;
}
