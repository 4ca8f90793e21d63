/**
 * The persistent cache in the hosts that are not bundler plugins, on the module cache test's kind of project
 * (outside the repository, its compiler and packages its own): `tooltype check` and `tooltype/register` run a second
 * time with nothing changed load no compiler (so make no program) and print byte for byte what the first run did;
 * a type two imports away edited is seen, as a run without the cache sees it. `tooltype build` on TypeScript 7 reads
 * no module a second time and writes byte-identical output. Where the transformer runs in the compiler's emit (tspc,
 * `tooltype build` on 5.9 and 6.0), a second build reads no type (a probe counts the core's reads), writes what a
 * build without the cache writes (JavaScript, declarations, maps); on 5.9 (both hosts) it also sees a type edited two
 * imports away, prints a cached module's warnings again, and fails again at a cached module's TT error.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildOnce } from "../../../../transformer/hosts/cli/build";
import { moduleCacheFor } from "../../../../transformer/hosts/project/cache/cached-transform";
import { typeScript7ProjectFor } from "../../../../transformer/hosts/project/typescript-7";
import { type Run, run } from "../../project";

const REPO = path.resolve(__dirname, "../../../../..");
const CLI = path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js");
const REGISTER_COMPILE = path.join(REPO, "dist", "transformer", "hosts", "node", "register-compile.js");
const TSPC = path.join(REPO, "node_modules", "ts-patch", "bin", "tspc.js");
const DIST = (...names: string[]): string => path.join(REPO, "dist", "transformer", ...names);
const made: string[] = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "nodenext",
    strict: true,
    skipLibCheck: true,
    types: [],
    outDir: "out",
    rootDir: "src",
    sourceMap: true,
  },
  include: ["src"],
};

const FILES: Record<string, string> = {
  "package.json": "{}",
  "tsconfig.json": JSON.stringify(TSCONFIG, null, 2),
  "src/tools.ts": `import { tool } from "tooltype";
import type { Query } from "./query";
import type { Remote } from "remote-types";

/**
 * Search the catalog.
 * @param query What to look for
 * @param remote Where to look
 */
export const search = tool(function search(query: Query, remote: Remote) {
  return \`\${query.text} \${remote.host}\`;
});
`,
  "src/query.ts": `import type { Paging } from "./paging";
export interface Query extends Paging {
  text: string;
}
`,
  "src/paging.ts": "export interface Paging {\n  page: number;\n}\n",
  "src/main.ts": `import { ToolRegistry } from "tooltype";
import { search } from "./tools";
console.log(JSON.stringify(new ToolRegistry([search]).toOpenAITools()));
`,
  "node_modules/remote-types/package.json": JSON.stringify({
    name: "remote-types",
    version: "1.0.0",
    types: "index.d.ts",
  }),
  "node_modules/remote-types/index.d.ts": "export interface Remote {\n  host: string;\n}\n",
  // The process's own instance of register's module: how many files a compiler compiled, and whether a compiler
  // module was loaded at all (TypeScript's JavaScript API, or TypeScript 7's API client).
  "count.cjs": `process.on("exit", () => {
  const loaded = Object.keys(require.cache);
  const compile = loaded.find((f) => f.endsWith("register-compile.js")) && require(${JSON.stringify(REGISTER_COMPILE)});
  const compiler = loaded.some((f) => /[\\\\/]node_modules[\\\\/](typescript[^\\\\/]*|@typescript[\\\\/][^\\\\/]+)[\\\\/]/.test(f));
  process.stderr.write("COUNTS " + JSON.stringify({ made: compile ? compile.madeCount() : -1, compiler }) + "\\n");
});
`,
  // The tsconfig of the builds in the compiler's emit: declarations and maps too, and tspc's plugin entry; the
  // standard library without the DOM's (a third of each build's time), so without main.ts, which logs.
  "tsconfig.build.json": JSON.stringify(
    {
      ...TSCONFIG,
      compilerOptions: {
        ...TSCONFIG.compilerOptions,
        lib: ["ES2022"],
        declaration: true,
        plugins: [{ transform: "tooltype/transformer" }],
      },
      exclude: ["src/main.ts"],
    },
    null,
    2,
  ),
  // How often the process's transformer core read a type: a tool's or an output's metadata derived, a call's callee
  // asked about (the same modules tspc's plugin and the CLI load); and what the emit cache answered.
  "reads.cjs": `const reads = { tools: 0, callees: 0 };
const count = (holder, name, key) => {
  const real = holder[name];
  holder[name] = function (...args) {
    reads[key]++;
    return real.apply(this, args);
  };
};
count(require(${JSON.stringify(DIST("tool-meta.js"))}), "deriveToolMeta", "tools");
count(require(${JSON.stringify(DIST("output-meta.js"))}), "deriveOutputMeta", "tools");
const { ApiResolver } = require(${JSON.stringify(DIST("find.js"))});
count(ApiResolver.prototype, "isTool", "callees");
count(ApiResolver.prototype, "factoryMetaIndex", "callees");
process.on("exit", () => {
  const cache = require(${JSON.stringify(DIST("hosts", "project", "cache", "emit-cache.js"))}).emitCacheCounts();
  process.stderr.write("READS " + JSON.stringify({ ...reads, ...cache }) + "\\n");
});
`,
};

/** A project in the temporary folder (no compiler above it), with tooltype and the given compiler linked in. */
function makeProject(name: string, compiler: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tooltype-hosts-cache-${name}-`));
  made.push(dir);
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(REPO, path.join(dir, "node_modules", "tooltype"), "dir");
  fs.symlinkSync(path.join(REPO, "node_modules", compiler), path.join(dir, "node_modules", "typescript"), "dir");
  return dir;
}

/** Writes a file as an editor does: a later mtime, whatever the clock's resolution. */
function edit(dir: string, file: string, text: string): void {
  fs.writeFileSync(path.join(dir, file), text);
  const later = new Date(Date.now() + 2000 + Math.random() * 1000);
  fs.utimesSync(path.join(dir, file), later, later);
}

interface Counted extends Run {
  /** Files a compiler compiled (tooltype/register; -1 where register did not load). */
  made: number;
  /** Whether a compiler module was loaded. */
  compiler: boolean;
}

/** `node --require count.cjs ...args` in the project, with the cache on (or off with `TOOLTYPE_CACHE=0`). */
async function counted(dir: string, args: string[], cache = true): Promise<Counted> {
  const env = { ...process.env };
  delete env.TOOLTYPE_CACHE;
  delete env.TOOLTYPE_CACHE_DIR;
  if (!cache) env.TOOLTYPE_CACHE = "0";
  const result = await run(process.execPath, ["--require", "./count.cjs", ...args], dir, undefined, env);
  const counts = /COUNTS (.*)\n/.exec(result.stderr);
  assert.ok(counts, result.stderr);
  return {
    ...result,
    stderr: result.stderr.replace(/COUNTS .*\n/, ""),
    ...(JSON.parse(counts[1]!) as { made: number; compiler: boolean }),
  };
}

function same(a: Run, b: Run, what: string): void {
  assert.is(b.code, a.code, `${what}: the exit status`);
  assert.is(b.stdout, a.stdout, `${what}: stdout, byte for byte`);
  assert.is(b.stderr, a.stderr, `${what}: stderr, byte for byte`);
}

const WITH_UNKNOWN = "export interface Paging {\n  page: number;\n  extra: unknown;\n}\n";

test("tooltype check on 5.9: a warm check loads no compiler and prints the same report; an edit is seen", async () => {
  const dir = makeProject("check", "typescript");
  const cold = await counted(dir, [CLI, "check"]);
  assert.is(cold.code, 0, cold.stderr);
  assert.ok(cold.compiler, "the first check reads the project");
  const warm = await counted(dir, [CLI, "check"]);
  same(cold, warm, "warm check");
  assert.not.ok(warm.compiler, "a warm check loads no compiler, so makes no program");

  // A type two imports away (tools.ts → query.ts → paging.ts) that draws a warning.
  edit(dir, "src/paging.ts", WITH_UNKNOWN);
  const edited = await counted(dir, [CLI, "check"]);
  assert.ok(edited.compiler, "the edited project is read again");
  assert.ok(edited.stdout.includes("paging.ts"), `the warning is reported: ${edited.stdout}`);
  same(await counted(dir, [CLI, "check"], false), edited, "the cached check is the uncached one");
  const again = await counted(dir, [CLI, "check"]);
  same(edited, again, "warm again");
  assert.not.ok(again.compiler);
});

test("tooltype schema on 5.9: a warm run loads no compiler and prints the same schemas, each format its own; an edit is seen", async () => {
  const dir = makeProject("schema", "typescript");
  const cold = await counted(dir, [CLI, "schema"]);
  assert.is(cold.code, 0, cold.stderr);
  assert.ok(cold.compiler, "the first run reads the project");
  const coldOpenAI = await counted(dir, [CLI, "schema", "--format", "openai"]);
  assert.ok(coldOpenAI.compiler, "another format is another answer");
  assert.is.not(coldOpenAI.stdout, cold.stdout);
  for (const [args, first] of [
    [["schema"], cold],
    [["schema", "--format", "openai"], coldOpenAI],
  ] as const) {
    const warm = await counted(dir, [CLI, ...args]);
    same(first, warm, `warm ${args.join(" ")}`);
    assert.not.ok(warm.compiler, `a warm ${args.join(" ")} loads no compiler`);
  }

  // A type two imports away (tools.ts → query.ts → paging.ts) gains a property: the schema has it.
  edit(dir, "src/paging.ts", "export interface Paging {\n  page: number;\n  /** Page size */\n  size: number;\n}\n");
  const edited = await counted(dir, [CLI, "schema"]);
  assert.ok(edited.compiler, "the edited project is read again");
  assert.ok(edited.stdout.includes('"size"'), `the new property is in the schema: ${edited.stdout}`);
  same(await counted(dir, [CLI, "schema"], false), edited, "the cached schema is the uncached one");
});

test("tooltype/register on 5.9: a warm run compiles nothing and loads no compiler; an edit is seen", async () => {
  const dir = makeProject("register", "typescript");
  const args = ["--require", "tooltype/register", "src/main.ts"];
  const cold = await counted(dir, args);
  assert.is(cold.code, 0, cold.stderr);
  assert.is(cold.made, 2, "main.ts and tools.ts compiled");
  const warm = await counted(dir, args);
  same(cold, warm, "warm run");
  assert.is(warm.made, 0, "no file compiled: no program made");
  assert.not.ok(warm.compiler, "no compiler loaded");

  edit(dir, "src/paging.ts", WITH_UNKNOWN);
  const edited = await counted(dir, args);
  assert.ok(edited.stdout.includes('"extra"'), "the new property is in the schema");
  assert.ok(edited.stderr.includes("paging.ts"), "its warning is printed");
  same(await counted(dir, args, false), edited, "the cached run is the uncached one");
  const again = await counted(dir, args);
  same(edited, again, "warm again: the warning printed again too");
  assert.is(again.made, 0);
});

test("on TypeScript 7.1: a warm register run compiles nothing; a warm tooltype build reads no module", async () => {
  const dir = makeProject("ts7", "typescript-7.1");
  const args = ["--require", "tooltype/register", "src/main.ts"];
  const cold = await counted(dir, args);
  assert.is(cold.code, 0, cold.stderr);
  assert.ok(cold.made > 0);
  const warm = await counted(dir, args);
  same(cold, warm, "warm run");
  assert.is(warm.made, 0, "no file compiled: no tsc --api process");
  assert.not.ok(warm.compiler, "TypeScript 7's API not loaded");

  const tsconfig = path.join(dir, "tsconfig.json");
  const outputs = (): string[] =>
    ["tools.js", "tools.js.map", "main.js"].map((f) => fs.readFileSync(path.join(dir, "out", f), "utf8"));
  const buildNow = (): { status: number; hits: number; misses: number } => {
    const cache = moduleCacheFor({ tsconfig }, dir);
    assert.ok(cache, "the cache is on");
    const before = { ...cache.counts };
    const project = typeScript7ProjectFor(tsconfig, undefined);
    assert.ok(project, "a TypeScript 7 project");
    let printed = "";
    const out = { write: (text: string) => void (printed += text) } as unknown as NodeJS.WritableStream;
    try {
      const { status } = buildOnce(project, out);
      assert.is(status, 0, printed);
    } finally {
      project.close();
    }
    return { status: 0, hits: cache.counts.hits - before.hits, misses: cache.counts.misses - before.misses };
  };
  const first = buildNow();
  assert.ok(first.misses > 0, "the first build reads the modules");
  const built = outputs();
  assert.ok(built[0]!.includes("What to look for"), "the metadata is in the output");
  fs.rmSync(path.join(dir, "out"), { recursive: true });
  const second = buildNow();
  assert.is(second.misses, 0, "the second build reads no module");
  assert.ok(second.hits > 0);
  assert.equal(outputs(), built, "byte-identical output");
});

/** A build in the compiler's emit: its run, what it read, and every file it wrote (by path under out/). */
interface Emitted extends Run {
  tools: number;
  callees: number;
  hits: number;
  misses: number;
  out: Record<string, string>;
}

/** `tooltype build` or `tspc` of tsconfig.build.json into a fresh out/, with the cache on (or off). */
async function emitted(dir: string, host: "build" | "tspc", cache = true): Promise<Emitted> {
  fs.rmSync(path.join(dir, "out"), { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.TOOLTYPE_CACHE;
  delete env.TOOLTYPE_CACHE_DIR;
  if (!cache) env.TOOLTYPE_CACHE = "0";
  const command = host === "build" ? [CLI, "build", "-p", "tsconfig.build.json"] : [TSPC, "-p", "tsconfig.build.json"];
  const result = await run(process.execPath, ["--require", "./reads.cjs", ...command], dir, undefined, env);
  const reads = /READS (.*)\n/.exec(result.stderr);
  assert.ok(reads, result.stderr);
  const out: Record<string, string> = {};
  const outDir = path.join(dir, "out");
  if (fs.existsSync(outDir)) {
    for (const name of fs.readdirSync(outDir, { recursive: true }) as string[]) {
      const file = path.join(outDir, name);
      if (fs.statSync(file).isFile()) out[name.split(path.sep).join("/")] = fs.readFileSync(file, "utf8");
    }
  }
  return {
    ...result,
    stderr: result.stderr.replace(/READS .*\n/, ""),
    ...(JSON.parse(reads[1]!) as { tools: number; callees: number; hits: number; misses: number }),
    out,
  };
}

/** A tool whose parameter is a function: TT1001, an error, at the parameter. */
const BROKEN = `import { tool } from "tooltype";

/**
 * Run a callback later.
 * @param cb What to run
 */
export const later = tool(function later(cb: () => void) {
  cb();
});
`;

/**
 * The cache where tooltype runs in the compiler's emit, on the project's compiler (`compiler` in node_modules).
 * `edits`: also an edit two imports away and a TT error, cached and not (the same code whatever the compiler: run
 * on 5.9 by both hosts; another compiler checks the cold, warm and uncached builds only).
 */
async function emitCacheHolds(host: "build" | "tspc", compiler: string, edits = true): Promise<void> {
  const dir = makeProject(`emit-${host}-${compiler}`, compiler);
  const cold = await emitted(dir, host);
  assert.is(cold.code, 0, cold.stdout + cold.stderr);
  assert.ok(cold.tools > 0 && cold.misses > 0, "the first build reads the tools' types");
  assert.ok(cold.out["tools.js"]?.includes("What to look for"), "the metadata is in the output");
  assert.ok(cold.out["tools.d.ts"] && cold.out["tools.js.map"], "declarations and maps are written");

  const warm = await emitted(dir, host);
  same(cold, warm, "warm build");
  assert.is(warm.tools, 0, "a warm build derives no tool's metadata");
  assert.is(warm.callees, 0, "a warm build asks the checker of no call");
  assert.is(warm.misses, 0, "every file from the cache");
  assert.ok(warm.hits > 0);
  assert.equal(warm.out, cold.out, "byte-identical to the build that read the types");
  if (!edits) {
    const uncached = await emitted(dir, host, false);
    assert.is(uncached.hits + uncached.misses, 0, "TOOLTYPE_CACHE=0: the cache is not asked");
    same(uncached, warm, "the cached build reports what a build without the cache does");
    assert.equal(warm.out, uncached.out, "byte-identical to a build without the cache");
    return;
  }

  // A type two imports away (tools.ts → query.ts → paging.ts) gains a property, which draws a warning.
  edit(dir, "src/paging.ts", WITH_UNKNOWN);
  const edited = await emitted(dir, host);
  assert.ok(edited.tools > 0, "the edited project is read again");
  assert.ok(edited.out["tools.js"]?.includes("extra"), "the new property is in the schema");
  assert.ok(`${edited.stdout}${edited.stderr}`.includes("paging.ts"), "its warning is printed");
  const again = await emitted(dir, host);
  same(edited, again, "warm again: the warning printed again");
  assert.is(again.tools, 0, "from the cache");
  assert.equal(again.out, edited.out);
  const uncached = await emitted(dir, host, false);
  assert.is(uncached.hits + uncached.misses, 0, "TOOLTYPE_CACHE=0: the cache is not asked");
  same(uncached, again, "the cached build reports what a build without the cache does");
  assert.equal(again.out, uncached.out, "byte-identical to a build without the cache: JavaScript, declarations, maps");

  // A TT error in a module: the first build reads it and fails; the second takes it from the cache and fails alike.
  edit(dir, "src/broken.ts", BROKEN);
  const failed = await emitted(dir, host);
  assert.is.not(failed.code, 0, "a TT error fails the build");
  const place = host === "build" ? "src/broken.ts:7:42 - error TT1001" : "src/broken.ts(7,42): error TS";
  assert.ok(failed.stdout.includes(place), `at its line and column: ${failed.stdout}`);
  const failedAgain = await emitted(dir, host);
  same(failed, failedAgain, "the cached module's error fails the build again, at the same place");
  assert.is(failedAgain.tools, 0, "from the cache");
  assert.equal(failedAgain.out, failed.out);
}

test("tooltype build on 5.9: a warm build reads no type and writes what an uncached one writes; edits and errors hold", () =>
  emitCacheHolds("build", "typescript"));

test("tspc on 5.9: a warm build reads no type and writes what an uncached one writes; edits and errors hold", () =>
  emitCacheHolds("tspc", "typescript"));

test("tooltype build on 6.0: a warm build reads no type and writes what an uncached one writes", () =>
  emitCacheHolds("build", "typescript-6", false));

test.run();
