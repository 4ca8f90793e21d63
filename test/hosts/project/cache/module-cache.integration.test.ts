/**
 * The persistent schema cache is correct before it is fast: on one project (outside the repository, its compiler
 * and packages its own), each build is a fresh view of the cache (a new process's), and after every change that can
 * change a schema (a type two imports away, a type in node_modules, a compiler option, the compiler's version, a new
 * file augmenting a visited interface) the cached build hands over exactly what a build without the cache does, and
 * differs from before; on TypeScript 7, an edit to a file a module's tools never reach reads only the edited module
 * again, and an edit that makes a file augment a visited type misses every entry. A build with nothing changed makes
 * no project at all (on 5.9 no program; on TypeScript 7 no `tsc --api` process); a deleted cache gives byte-identical
 * output; a corrupt, truncated or foreign entry is ignored and written over; two esbuild builds at once on one cache
 * both succeed with the same output; esbuild's own hit path (which answers a hit before unplugin's layer) bundles
 * what a build without the cache does, and sees a module gain its first tool and a new module with a tool; and
 * `tooltype/esbuild` loads no unplugin module, cold or warm.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cachePlaceOf, transformCached } from "../../../../transformer/hosts/project/cache/cached-transform";
import { ModuleCache } from "../../../../transformer/hosts/project/cache/module-cache";
import { ProjectService } from "../../../../transformer/hosts/project/language-service";
import { typescriptFor } from "../../../../transformer/hosts/project/tsconfig";
import { typeScript7ProjectFor } from "../../../../transformer/hosts/project/typescript-7";
import { type ModuleProject, transformModule } from "../../../../transformer/hosts/splice/transform-module";
import { run } from "../../project";

const REPO = path.resolve(__dirname, "../../../../..");
const made: string[] = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "bundler",
    strict: true,
    skipLibCheck: true,
    types: [],
  },
  include: ["src"],
};

const FILES: Record<string, string> = {
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
  "src/other.ts": `import { tool } from "tooltype";

/** Say hello. */
export const hello = tool(function hello(name: string) {
  return \`hello \${name}\`;
});
`,
  "src/query.ts": `import type { Paging } from "./paging";
export interface Query extends Paging {
  text: string;
  note: string | null;
}
`,
  "src/paging.ts": `export interface Paging {
  page: number;
}
`,
  "node_modules/remote-types/package.json": JSON.stringify({
    name: "remote-types",
    version: "1.0.0",
    types: "index.d.ts",
  }),
  "node_modules/remote-types/index.d.ts": "export interface Remote {\n  host: string;\n}\n",
};

const MODULES = ["src/tools.ts", "src/other.ts"];

/** A project in the temporary folder (no compiler above it), with tooltype and the given compiler linked in. */
function makeProject(name: string, compiler: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tooltype-cache-${name}-`));
  made.push(dir);
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(REPO, path.join(dir, "node_modules", "tooltype"), "dir");
  linkCompiler(dir, compiler);
  return dir;
}

function linkCompiler(dir: string, compiler: string): void {
  const link = path.join(dir, "node_modules", "typescript");
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.join(REPO, "node_modules", compiler), link, "dir");
}

/** Writes a file as an editor does: a later mtime, whatever the clock's resolution. */
function edit(dir: string, file: string, text: string): void {
  const full = path.join(dir, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  const later = new Date(Date.now() + 2000 + Math.random() * 1000);
  fs.utimesSync(full, later, later);
}

interface Build {
  /** Each module's output, as text: the code, its source map, the diagnostics and dependencies. */
  outputs: string[];
  /** How many projects the build made (each a program on 5.x, a `tsc --api` process on TypeScript 7). */
  opened: number;
  hits: number;
  misses: number;
}

/** One build as a new process makes it: a new view of the cache, a project made only when the cache asks for one. */
function build(dir: string, ts7 = false): Build {
  const tsconfig = path.join(dir, "tsconfig.json");
  const place = cachePlaceOf({ tsconfig });
  assert.ok(place, "the cache is on by default");
  const cache = new ModuleCache(place.dir, place.setup);
  let project: ModuleProject | undefined;
  let opened = 0;
  const open = (): ModuleProject => {
    if (!project) {
      opened++;
      project = makeModuleProject(dir, ts7);
    }
    return project;
  };
  try {
    const outputs = MODULES.map((m) => {
      const file = path.join(dir, m);
      return text(transformCached(cache, file, fs.readFileSync(file, "utf8"), open));
    });
    return { outputs, opened, ...cache.counts };
  } finally {
    if (project && !(project instanceof ProjectService)) project.close();
  }
}

function makeModuleProject(dir: string, ts7: boolean): ModuleProject {
  const tsconfig = path.join(dir, "tsconfig.json");
  if (ts7) {
    const project = typeScript7ProjectFor(tsconfig, undefined);
    assert.ok(project, "a TypeScript 7 project");
    return project;
  }
  return new ProjectService(tsconfig, typescriptFor(dir), undefined);
}

/** The outputs without any cache, from a new project. */
function uncached(dir: string, ts7 = false): string[] {
  const project = makeModuleProject(dir, ts7);
  try {
    return MODULES.map((m) => {
      const file = path.join(dir, m);
      return text(transformModule(project, file, fs.readFileSync(file, "utf8")));
    });
  } finally {
    if (!(project instanceof ProjectService)) project.close();
  }
}

function text(result: ReturnType<typeof transformModule>): string {
  return JSON.stringify({
    code: result.code,
    map: result.map?.toString(),
    diagnostics: result.diagnostics,
    dependencies: result.dependencies,
  });
}

function cacheDir(dir: string): string {
  return path.join(dir, "node_modules", ".cache", "tooltype");
}

/** After a change: the cached build equals a build without the cache, and the tools module's output changed. */
function expectFresh(dir: string, before: Build, what: string, needle: string, ts7 = false): Build {
  const after = build(dir, ts7);
  assert.equal(after.outputs, uncached(dir, ts7), `${what}: the cached build is the uncached one`);
  assert.is.not(after.outputs[0], before.outputs[0], `${what}: the schema changed`);
  assert.ok(after.outputs[0]!.includes(needle), `${what}: the new schema has ${needle}`);
  assert.ok(after.misses >= 1, `${what}: the tools module was read again`);
  return after;
}

test("on 5.9: a warm build makes no program, and every change that can change a schema is seen", () => {
  const dir = makeProject("js-api", "typescript");
  const cold = build(dir);
  assert.is(cold.opened, 1);
  assert.is(cold.misses, 2);
  assert.equal(cold.outputs, uncached(dir));
  assert.ok(cold.outputs[0]!.includes("page"), "the schema reaches the type two imports away");

  const warm = build(dir);
  assert.is(warm.opened, 0, "a warm build makes no project (no program)");
  assert.is(warm.hits, 2);
  assert.equal(warm.outputs, cold.outputs);

  // A type two imports away: tools.ts → query.ts → paging.ts.
  edit(dir, "src/paging.ts", "export interface Paging {\n  page: number;\n  pageSize: number;\n}\n");
  let last = expectFresh(dir, warm, "a type two imports away", "pageSize");
  assert.is(last.hits, 1, "the module that does not reach paging.ts still comes from the cache");

  // A type in node_modules.
  edit(dir, "node_modules/remote-types/index.d.ts", "export interface Remote {\n  host: string;\n  port: number;\n}\n");
  last = expectFresh(dir, last, "a type in node_modules", "port");

  // A compiler option: without strictNullChecks, `string | null` is `string`.
  edit(
    dir,
    "tsconfig.json",
    JSON.stringify({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, strict: false } }, null, 2),
  );
  const lax = build(dir);
  assert.equal(lax.outputs, uncached(dir), "a compiler option: the cached build is the uncached one");
  assert.is.not(lax.outputs[0], last.outputs[0], "a compiler option: the schema changed");
  assert.is(lax.hits, 0, "a changed option reads every module again");
  edit(dir, "tsconfig.json", JSON.stringify(TSCONFIG, null, 2));
  last = build(dir);
  assert.equal(last.outputs, uncached(dir));

  // A new file augmenting a visited interface.
  edit(
    dir,
    "src/augment.ts",
    'import "./paging";\ndeclare module "./paging" {\n  interface Paging {\n    cursor: string;\n  }\n}\n',
  );
  last = expectFresh(dir, last, "a new file augmenting a visited interface", "cursor");

  // Nothing changed again: no program.
  const again = build(dir);
  assert.is(again.opened, 0);
  assert.equal(again.outputs, last.outputs);

  // The compiler's version: the project's typescript becomes 5.5.
  linkCompiler(dir, "typescript-5.5");
  const older = build(dir);
  assert.is(older.opened, 1, "a new compiler: the program is made");
  assert.is(older.hits, 0, "a new compiler reads every module again");
  assert.equal(older.outputs, uncached(dir));

  // Deleting the cache gives byte-identical output.
  const before = build(dir).outputs;
  fs.rmSync(cacheDir(dir), { recursive: true, force: true });
  const rebuilt = build(dir);
  assert.is(rebuilt.misses, 2);
  assert.equal(rebuilt.outputs, before, "byte-identical output after the cache is deleted");
});

test("a corrupt, truncated or foreign entry is ignored, never thrown, and written over", () => {
  const dir = makeProject("corrupt", "typescript");
  const reference = build(dir).outputs;
  const entries = () =>
    fs
      .readdirSync(cacheDir(dir))
      .filter((f) => f.startsWith("module-"))
      .map((f) => path.join(cacheDir(dir), f));
  const [first, second] = entries();
  assert.ok(first && second, "one entry per module");
  const damage: [string, (file: string) => void][] = [
    ["truncated", (f) => fs.writeFileSync(f, fs.readFileSync(f, "utf8").slice(0, 200))],
    ["a byte changed", (f) => fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace('"code"', '"cod\\u0065"'))],
    ["not JSON", (f) => fs.writeFileSync(f, "\u0000\u0001garbage")],
    ["empty", (f) => fs.writeFileSync(f, "")],
    // Sealed, but another module's: its seal is right, its file is not this one.
    ["foreign", (f) => fs.writeFileSync(f, swapped.get(f)!)],
  ];
  const swapped = new Map<string, string>();
  for (const [what, spoil] of damage) {
    swapped.set(first, fs.readFileSync(second, "utf8"));
    swapped.set(second, fs.readFileSync(first, "utf8"));
    for (const file of entries()) spoil(file);
    const after = build(dir);
    assert.equal(after.outputs, reference, `${what}: the output is the uncached one`);
    assert.is(after.hits, 0, `${what}: not used`);
    const warm = build(dir);
    assert.is(warm.hits, 2, `${what}: written over, then used`);
    assert.is(warm.opened, 0);
  }
  // The record too.
  const record = fs.readdirSync(cacheDir(dir)).find((f) => f.startsWith("project-"))!;
  fs.writeFileSync(path.join(cacheDir(dir), record), "{");
  assert.equal(build(dir).outputs, reference);
  assert.is(build(dir).hits, 2);
});

test("on TypeScript 7: a warm build starts no tsc --api process; a module is read again only when a file it reads changed", () => {
  const dir = makeProject("ts7", "typescript-7");
  const cold = build(dir, true);
  assert.is(cold.opened, 1);
  const warm = build(dir, true);
  assert.is(warm.opened, 0, "no TypeScript 7 project, so no tsc --api process");
  assert.is(warm.hits, 2);
  assert.equal(warm.outputs, cold.outputs);

  // A file the tools of tools.ts never visited (another tool module): only that module is read again.
  edit(dir, "src/other.ts", FILES["src/other.ts"]!.replace("Say hello.", "Say hello politely."));
  let last = build(dir, true);
  assert.equal(last.outputs, uncached(dir, true), "another module edited: the cached build is the uncached one");
  assert.is(last.outputs[0], warm.outputs[0]);
  assert.ok(last.outputs[1]!.includes("politely"));
  assert.equal([last.hits, last.misses], [1, 1], "tools.ts comes from the cache; only other.ts is read");

  // The first module of the build edited: read first (its project made before the others are looked up), and still
  // the only one read.
  edit(dir, "src/tools.ts", FILES["src/tools.ts"]!.replace("Search the catalog.", "Search the whole catalog."));
  last = build(dir, true);
  assert.equal(last.outputs, uncached(dir, true), "tools.ts edited: the cached build is the uncached one");
  assert.ok(last.outputs[0]!.includes("whole catalog"));
  assert.equal([last.hits, last.misses], [1, 1], "only tools.ts is read; other.ts comes from the cache");

  // A visited type two imports away: tools.ts is read again, other.ts (which does not reach it) is not.
  edit(dir, "src/paging.ts", "export interface Paging {\n  page: number;\n  pageSize: number;\n}\n");
  last = expectFresh(dir, last, "TypeScript 7, a type two imports away", "pageSize", true);
  assert.equal([last.hits, last.misses], [1, 1], "only tools.ts is read again");

  // A file no module reads that comes to augment a visited interface: every entry misses.
  edit(
    dir,
    "src/other.ts",
    `${FILES["src/other.ts"]}\ndeclare module "./paging" {\n  interface Paging {\n    offset: number;\n  }\n}\n`,
  );
  last = expectFresh(dir, last, "TypeScript 7, an edit that makes a file augment Paging", "offset", true);
  assert.is(last.hits, 0, "a changed file that augments misses every entry");

  // A new file augmenting a visited interface.
  edit(
    dir,
    "src/augment.ts",
    'import "./paging";\ndeclare module "./paging" {\n  interface Paging {\n    cursor: string;\n  }\n}\n',
  );
  last = expectFresh(dir, last, "TypeScript 7, a new file augmenting a visited interface", "cursor", true);
  assert.is(last.hits, 0);
  const again = build(dir, true);
  assert.equal([again.opened, again.hits], [0, 2], "nothing changed: no process, every module from the cache");
});

test("two esbuild builds at once on one cache: both succeed with the same output, and the next one hits", async () => {
  const dir = makeProject("concurrent", "typescript");
  const script = path.join(dir, "build.mjs");
  fs.writeFileSync(
    script,
    `import * as esbuild from ${JSON.stringify(require.resolve("esbuild"))};
import tooltype from "tooltype/esbuild";
const out = await esbuild.build({
  entryPoints: ["src/tools.ts", "src/other.ts"],
  bundle: false,
  write: false,
  outdir: "out",
  format: "esm",
  plugins: [tooltype({ tsconfig: "tsconfig.json" })],
});
process.stdout.write(JSON.stringify(out.outputFiles.map((f) => f.text)));
`,
  );
  const runs = await Promise.all([1, 2, 3].map(() => run(process.execPath, [script], dir)));
  for (const r of runs) assert.is(r.code, 0, r.stderr);
  assert.is(runs[1]!.stdout, runs[0]!.stdout);
  assert.is(runs[2]!.stdout, runs[0]!.stdout);
  assert.ok(runs[0]!.stdout.includes("page"), "the metadata is in the bundle");
  const warm = await run(process.execPath, [script], dir);
  assert.is(warm.stdout, runs[0]!.stdout);
  // Every file of the cache is whole: no temporary file left, every entry used by a fresh view.
  assert.equal(
    fs.readdirSync(cacheDir(dir)).filter((f) => f.endsWith(".tmp")),
    [],
  );
  const view = build(dir);
  assert.is(view.hits, 2);
  assert.is(view.opened, 0);
  // Off with TOOLTYPE_CACHE=0: nothing is read or written.
  fs.rmSync(cacheDir(dir), { recursive: true, force: true });
  const off = await run(process.execPath, [script], dir, undefined, { ...process.env, TOOLTYPE_CACHE: "0" });
  assert.is(off.stdout, runs[0]!.stdout);
  assert.not.ok(fs.existsSync(cacheDir(dir)));
});

test("tooltype/esbuild loads no unplugin module, on a cold build or a warm one", async () => {
  const dir = makeProject("no-unplugin", "typescript");
  // Every module the process loads, as ES module loader hooks see them (unplugin is one), and CommonJS's cache at the
  // end (picomatch, which unplugin requires, is one).
  const loaded = path.join(dir, "loaded.txt");
  fs.writeFileSync(
    path.join(dir, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(loaded)}, url + "\\n");
  return next(url, context);
}
`,
  );
  const script = path.join(dir, "build.mjs");
  fs.writeFileSync(
    script,
    `import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
register("./hooks.mjs", import.meta.url);
const esbuild = await import(${JSON.stringify(require.resolve("esbuild"))});
const tooltype = (await import("tooltype/esbuild")).default;
const out = await esbuild.build({
  entryPoints: ["src/tools.ts"],
  bundle: false,
  write: false,
  outdir: "out",
  format: "esm",
  plugins: [tooltype({ tsconfig: "tsconfig.json" })],
});
appendFileSync(${JSON.stringify(loaded)}, Object.keys(createRequire(import.meta.url).cache).join("\\n") + "\\n");
process.stdout.write(out.outputFiles[0].text);
`,
  );
  for (const build of ["cold", "warm"]) {
    fs.rmSync(loaded, { force: true });
    const r = await run(process.execPath, [script], dir);
    assert.is(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes("page"), `${build}: the metadata is in the output`);
    const modules = fs.readFileSync(loaded, "utf8").split("\n");
    assert.ok(
      modules.some((m) => m.includes("bundlers/esbuild.mjs")),
      `${build}: the hooks saw the plugin load`,
    );
    assert.equal(
      modules.filter((m) => /[\\/]node_modules[\\/](unplugin|picomatch)[\\/]/.test(m)),
      [],
      `${build}: no unplugin module loaded`,
    );
  }
});

test("esbuild's hit path: a warm bundle equals an uncached one (with and without source maps), loads neither the compiler nor magic-string, and sees a module gain its first tool and a new module with tools", async () => {
  const dir = makeProject("esbuild-hits", "typescript");
  fs.writeFileSync(path.join(dir, "src/later.ts"), "export const later = 1;\n");
  fs.writeFileSync(
    path.join(dir, "src/index.ts"),
    'export * from "./tools";\nexport * from "./other";\nexport * from "./later";\n',
  );
  // One process a step: its first bundle with the cache (what it counted and loaded then), and with COMPARE=1 the same
  // with source maps, then both without the cache, for comparison.
  const script = path.join(dir, "bundle.mjs");
  const counts = path.join(REPO, "dist/transformer/hosts/project/cache/cached-transform.js");
  fs.writeFileSync(
    script,
    `import { createRequire } from "node:module";
import * as esbuild from ${JSON.stringify(require.resolve("esbuild"))};
import tooltype from "tooltype/esbuild";
const require = createRequire(import.meta.url);
const bundle = async (options, sourcemap) =>
  (
    await esbuild.build({
      entryPoints: ["src/index.ts"],
      bundle: true,
      write: false,
      outfile: "out/index.js",
      format: "esm",
      external: ["tooltype"],
      sourcemap,
      plugins: [tooltype({ tsconfig: "tsconfig.json", ...options })],
    })
  ).outputFiles.map((f) => f.text);
const counts = () => ({ ...require(${JSON.stringify(counts)}).moduleCacheFor({ tsconfig: "tsconfig.json" }).counts });
const files = await bundle({}, false);
const loaded = Object.keys(require.cache);
const result = {
  files,
  counts: counts(),
  compiler: loaded.some((m) => /[\\\\/]typescript[\\\\/]/.test(m)),
  magicString: loaded.some((m) => /[\\\\/]magic-string[\\\\/]/.test(m)),
};
if (process.env.COMPARE === "1") {
  result.mapped = await bundle({}, true);
  result.mappedCounts = counts();
  result.uncached = await bundle({ cache: false }, false);
  result.uncachedMapped = await bundle({ cache: false }, true);
}
process.stdout.write(JSON.stringify(result));
`,
  );
  interface Counts {
    hits: number;
    misses: number;
  }
  interface Bundle {
    files: string[];
    counts: Counts;
    compiler: boolean;
    magicString: boolean;
    mapped: string[];
    mappedCounts: Counts;
    uncached: string[];
    uncachedMapped: string[];
  }
  const bundle = async (compare: boolean): Promise<Bundle> => {
    const env: NodeJS.ProcessEnv = { ...process.env, COMPARE: compare ? "1" : "0" };
    delete env.TOOLTYPE_CACHE;
    const r = await run(process.execPath, [script], dir, undefined, env);
    assert.is(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Bundle;
  };

  const cold = await bundle(false);
  assert.equal(cold.counts, { hits: 0, misses: 2 });
  const warm = await bundle(true);
  assert.equal(warm.counts, { hits: 2, misses: 0 }, "each tool module counted once, from the cache");
  assert.is(warm.compiler, false, "a warm bundle loads no compiler");
  assert.is(warm.magicString, false, "a hit without source maps parses no map");
  assert.equal(warm.files, warm.uncached, "the warm bundle is the uncached one");
  assert.ok(warm.files[0]!.includes("Search the catalog."), "the metadata is in the bundle");
  assert.equal(warm.mappedCounts, { hits: 4, misses: 0 }, "with source maps: from the cache too");
  assert.equal(warm.mapped, warm.uncachedMapped, "with source maps: the same bundle and map as uncached");

  // A module with no tool gains its first one: it is read, and its tool is in the bundle.
  edit(
    dir,
    "src/later.ts",
    'import { tool } from "tooltype";\n\n/** Run it later. */\nexport const later = tool(function later(when: string) {\n  return when;\n});\n',
  );
  let next = await bundle(true);
  assert.ok(next.files[0]!.includes("Run it later."), "the module's first tool is in the bundle");
  assert.equal(next.files, next.uncached, "a module gained a tool: the bundle is the uncached one");
  assert.equal(next.mapped, next.uncachedMapped, "a module gained a tool: with source maps too");
  assert.equal((await bundle(false)).counts, { hits: 3, misses: 0 }, "then every tool module comes from the cache");

  // A new module with a tool, imported from the entry.
  edit(
    dir,
    "src/fresh.ts",
    'import { tool } from "tooltype";\n\n/** A fresh tool. */\nexport const fresh = tool(function fresh(name: string) {\n  return name;\n});\n',
  );
  edit(dir, "src/index.ts", `${fs.readFileSync(path.join(dir, "src/index.ts"), "utf8")}export * from "./fresh";\n`);
  next = await bundle(true);
  assert.ok(next.files[0]!.includes("A fresh tool."), "the new module's tool is in the bundle");
  assert.equal(next.files, next.uncached, "a new module with a tool: the bundle is the uncached one");
  assert.equal((await bundle(false)).counts, { hits: 4, misses: 0 });
});

test.run();
