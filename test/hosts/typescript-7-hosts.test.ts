/**
 * Every module-transforming host on a project whose only compiler is TypeScript 7: the bundler plugins read the
 * tools' types through TypeScript 7's API (7.0's `unstable/sync` and 7.1's `sync`), splice the metadata into each
 * module's text, and the bundles dispatch with the very metadata (schemas and validators) a build on the JavaScript
 * API writes; so do tooltype/register (an ES module project on 7.0, a CommonJS one and tsx on 7.1) and `tooltype
 * build` (to an outDir on 7.0, an inlined map on 7.1). One `tsc --api` process per build, closed at its end; a process killed in the middle of a build is an
 * error naming the file being read, and leaves no process behind. (`tooltype build -w`'s one process across
 * rebuilds, and none left when it stops: typescript-7-resident.test.ts.)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { typeScript7ProjectFor } from "../../transformer/hosts/project/typescript-7";
import { type AppOutput, bunBinary, expectDispatch, prepareApp, REPO, run, runApp } from "./app";
import { type Bundler, build } from "./builds";
import { HANG_MS } from "../support/hang";

const made: string[] = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** The sample app outside the repository, its `typescript` the given TypeScript 7 package and nothing else. */
function projectOnlyOn(typescript7: "typescript-7" | "typescript-7.1", name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tooltype-${name}-`));
  fs.cpSync(prepareApp(name), dir, { recursive: true, verbatimSymlinks: true });
  fs.symlinkSync(path.join(REPO, "node_modules", typescript7), path.join(dir, "node_modules", "typescript"), "dir");
  made.push(dir);
  return dir;
}

/** The `tsc --api` processes this test process started and that are still running. */
function apiProcesses(): number[] {
  return apiProcessesOf(process.pid);
}

/** The `tsc --api` processes whose parent is `parent`, still running. */
function apiProcessesOf(parent: number): number[] {
  return procEntries()
    .filter((p) => p.parent === parent && p.args.includes("--api"))
    .map((p) => p.pid);
}

/** Running processes (not zombies) with their parent, arguments and working folder. */
function procEntries(): { pid: number; parent: number; args: string[]; cwd: string | undefined }[] {
  const found: { pid: number; parent: number; args: string[]; cwd: string | undefined }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") continue;
      let cwd: string | undefined;
      try {
        cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        cwd = undefined;
      }
      found.push({
        pid: Number(entry),
        parent: Number(parent),
        args: fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0"),
        cwd,
      });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** No `tsc --api` child left once the ones closed have had time to exit (HANG_MS bounds only a hang). */
async function noApiProcessLeft(label: string): Promise<void> {
  const until = Date.now() + HANG_MS;
  while (apiProcesses().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(apiProcesses(), [], `${label}: no tsc --api process left`);
}

const references = new Map<Bundler, AppOutput["metas"]>();

/**
 * What the same app's tools compile to on the JavaScript API (TypeScript 5.9, the repository's compiler) with the
 * same bundler: each bundler prints a validator's function in its own way.
 */
async function javaScriptApiMetas(bundler: Bundler): Promise<AppOutput["metas"]> {
  let metas = references.get(bundler);
  if (!metas) {
    const dir = prepareApp(`typescript-7-hosts-reference-${bundler}`);
    const built = await build(bundler, dir);
    metas = (await runApp(built.command, built.args, dir)).metas;
    references.set(bundler, metas);
  }
  return metas;
}

const cases: ["typescript-7" | "typescript-7.1", Bundler[]][] = [
  ["typescript-7.1", ["esbuild", "vite", "rollup", "webpack"]],
  ["typescript-7", ["esbuild", "vite", "rollup", "rolldown", "webpack", "rspack"]],
];

for (const [typescript7, bundlers] of cases) {
  test(`with only ${typescript7} installed, ${bundlers.join(", ")} build the tools through TypeScript 7's API, with the JavaScript API's metadata`, async () => {
    for (const bundler of bundlers) {
      const expected = await javaScriptApiMetas(bundler);
      const dir = projectOnlyOn(typescript7, `ts7-only-${bundler}`);
      const built = await build(bundler, dir);
      await noApiProcessLeft(`${typescript7}, ${bundler}`);
      const output = await runApp(built.command, built.args, dir);
      expectDispatch(output, false, `${typescript7}, ${bundler}`);
      assert.equal(output.metas, expected, `${typescript7}, ${bundler}: the metadata of a build on the JavaScript API`);
    }
  });
}

/** The data byte for byte; the validators' code as TypeScript 7's emitter lays it out (the same code, other breaks). */
const layoutFree = (metas: AppOutput["metas"]) =>
  metas.map(({ data, validator }) => ({ data, validator: validator.replace(/\s+/g, "") }));

let registerReference: AppOutput["metas"] | undefined;

/** The app's metadata under tooltype/register on the JavaScript API (TypeScript 5.9). */
async function registerMetas(): Promise<AppOutput["metas"]> {
  if (!registerReference) {
    const reference = prepareApp("typescript-7-register-reference");
    registerReference = (
      await runApp(process.execPath, ["--import", "tooltype/register", path.join("src", "main.ts")], reference)
    ).metas;
  }
  return registerReference;
}

// Each host below runs on one of the two TypeScript 7 releases, the two sharing the reader (readers/ts7/) that
// tells them apart: every host meets each release once, and the bundlers above run on both.
for (const typescript7 of ["typescript-7.1"] as const) {
  test(`with only ${typescript7} installed, tooltype/register runs a CommonJS project, and tsx with the hook, with the JavaScript API's metadata`, async () => {
    const commonJs = {
      "tsconfig.json": (text: string) =>
        text.replace('"module": "ESNext",', '"module": "CommonJS",').replace('"moduleResolution": "bundler",', ""),
    };
    const runs: [string, string, string[], Record<string, (text: string) => string>][] = [
      [
        "node --import tooltype/register (CommonJS)",
        process.execPath,
        ["--import", "tooltype/register", path.join("src", "main.ts")],
        commonJs,
      ],
      [
        "tsx --import tooltype/register",
        path.join(REPO, "node_modules", ".bin", "tsx"),
        ["--import", "tooltype/register", path.join("src", "main.ts")],
        {},
      ],
    ];
    for (const [label, command, args, edit] of runs) {
      const reference = prepareApp(`typescript-7-register-reference-${runs.findIndex((r) => r[0] === label)}`, edit);
      const expected = (await runApp(command, args, reference)).metas;
      const dir = projectOnlyOn(typescript7, `ts7-register-more-${typescript7}`);
      for (const [file, change] of Object.entries(edit))
        fs.writeFileSync(path.join(dir, file), change(fs.readFileSync(path.join(dir, file), "utf8")));
      const output = await runApp(command, args, dir);
      expectDispatch(output, false, `${label} on ${typescript7}`);
      assert.equal(
        layoutFree(output.metas),
        layoutFree(expected),
        `${label} on ${typescript7}: the metadata of the JavaScript API's path`,
      );
    }
  });
}

for (const typescript7 of ["typescript-7"] as const) {
  test(`with only ${typescript7} installed, tooltype/register runs the app with the JavaScript API's metadata`, async () => {
    const dir = projectOnlyOn(typescript7, `ts7-register-${typescript7}`);
    const output = await runApp(process.execPath, ["--import", "tooltype/register", path.join("src", "main.ts")], dir);
    expectDispatch(output, false, `tooltype/register on ${typescript7}`);
    assert.equal(
      layoutFree(output.metas),
      layoutFree(await registerMetas()),
      `tooltype/register on ${typescript7}: the metadata of the JavaScript API's path`,
    );
    await noApiProcessLeft(`tooltype/register on ${typescript7}`);
  });

  test(`\`tooltype build\` builds a ${typescript7}-only project to its outDir (JavaScript, declarations, maps) with the JavaScript API's metadata`, async () => {
    const cli = path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js");
    const commonJs = (text: string) =>
      text
        .replace('"module": "ESNext",', '"module": "CommonJS",')
        .replace('"moduleResolution": "bundler",', '"declaration": true, "sourceMap": true, "rootDir": "src",');
    const dir = projectOnlyOn(typescript7, `ts7-build-${typescript7}`);
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      commonJs(fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8")),
    );
    const built = await run(process.execPath, [cli, "build"], dir);
    assert.is(built.code, 0, built.stdout + built.stderr);
    const out = path.join(dir, "out-tspc");
    assert.ok(fs.existsSync(path.join(out, "tools.d.ts")), "declarations are written");
    const map = JSON.parse(fs.readFileSync(path.join(out, "tools.js.map"), "utf8")) as {
      sources: string[];
      mappings: string;
    };
    assert.equal(map.sources, ["../src/tools.ts"], "the map names the source as tsc does");
    const js = fs.readFileSync(path.join(out, "tools.js"), "utf8");
    assert.match(js, /\n\/\/# sourceMappingURL=tools\.js\.map$/, "the JavaScript points at its map");
    expectMapsToSource(js, map, path.join(dir, "src", "tools.ts"));
    const output = await runApp(process.execPath, [path.join(out, "main.js")], dir);
    expectDispatch(output, false, `tooltype build on ${typescript7}`);
    assert.equal(
      layoutFree(output.metas),
      layoutFree(await registerMetas()),
      `tooltype build on ${typescript7}: the metadata of the JavaScript API's path`,
    );
    await noApiProcessLeft(`tooltype build on ${typescript7}`);
  });
}

/** Past the spliced metadata, a place in the built JavaScript still leads to its line and column in the source as written. */
function expectMapsToSource(js: string, map: object, sourceFile: string): void {
  const source = fs.readFileSync(sourceFile, "utf8").split("\n");
  const at = js.split("\n").findIndex((line) => line.includes("return Array.from"));
  const column = js.split("\n")[at]!.indexOf("Array.from");
  const original = originalPositionFor(new TraceMap(map as never), { line: at + 1, column });
  assert.is(
    original.line,
    source.findIndex((line) => line.includes("return Array.from")) + 1,
    "the line in the source",
  );
  assert.is(original.column, source[original.line! - 1]!.indexOf("Array.from"), "the column in the source");
}

for (const typescript7 of ["typescript-7.1"] as const) {
  test(`\`tooltype build\` on ${typescript7} with inlineSourceMap: the map inlined in the JavaScript leads to the source as written`, async () => {
    const cli = path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js");
    const dir = projectOnlyOn(typescript7, `ts7-build-inline-${typescript7}`);
    const tsconfig = path.join(dir, "tsconfig.json");
    fs.writeFileSync(
      tsconfig,
      fs
        .readFileSync(tsconfig, "utf8")
        .replace('"outDir":', '"rootDir": "src", "inlineSourceMap": true, "inlineSources": true, "outDir":'),
    );
    const built = await run(process.execPath, [cli, "build"], dir);
    assert.is(built.code, 0, built.stdout + built.stderr);
    const js = fs.readFileSync(path.join(dir, "out-tspc", "tools.js"), "utf8");
    assert.not.ok(fs.existsSync(path.join(dir, "out-tspc", "tools.js.map")), "no map file");
    const inline = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)$/.exec(js);
    assert.ok(inline, "the map is inlined");
    const map = JSON.parse(Buffer.from(inline![1]!, "base64").toString("utf8")) as {
      sources: string[];
      sourcesContent: string[];
    };
    assert.equal(map.sources, ["../src/tools.ts"]);
    assert.is(
      map.sourcesContent[0],
      fs.readFileSync(path.join(dir, "src", "tools.ts"), "utf8"),
      "the source as written, not the spliced text",
    );
    expectMapsToSource(js, map, path.join(dir, "src", "tools.ts"));
  });
}

for (const typescript7 of ["typescript-7", "typescript-7.1"] as const) {
  test(`${typescript7}: a rebuild after a change two imports away reuses the session's process and reads the new types`, () => {
    const dir = projectOnlyOn(typescript7, `ts7-rebuild-${typescript7}`);
    const project = typeScript7ProjectFor(path.join(dir, "tsconfig.json"), undefined)!;
    const tools = path.join(dir, "src", "tools.ts");
    const base = path.join(dir, "src", "base.ts");
    try {
      const first = project.transform(tools, fs.readFileSync(tools, "utf8")).code!;
      assert.match(first, /City name/);
      const [pid] = apiProcesses();
      fs.writeFileSync(base, fs.readFileSync(base, "utf8").replace("City name", "Town name"));
      project.refresh(base);
      const second = project.transform(tools, fs.readFileSync(tools, "utf8")).code!;
      assert.match(second, /Town name/, "the rebuild reads the changed declaration");
      assert.not.match(second, /City name/);
      assert.equal(apiProcesses(), [pid], "the same tsc --api process");
    } finally {
      project.close();
    }
  });
}

test("with only TypeScript 7 installed, bun --preload tooltype/bun-register says that TypeScript 7's API client does not run under Bun, and what works", async () => {
  const dir = projectOnlyOn("typescript-7", "ts7-bun");
  const failed = await run(bunBinary(), ["--preload", "tooltype/bun-register", path.join("src", "main.ts")], dir, {
    NO_COLOR: "1",
  });
  assert.is.not(failed.code, 0);
  assert.match(failed.stderr + failed.stdout, /TypeScript 7\.0\.2's API client does not run under Bun/);
  assert.match(failed.stderr + failed.stdout, /npm i -D @typescript\/typescript6/);
});

test("a tsc --api process killed in the middle of a build is an error naming the file being read, and no process is left", async () => {
  const dir = projectOnlyOn("typescript-7.1", "ts7-killed");
  const project = typeScript7ProjectFor(path.join(dir, "tsconfig.json"), undefined);
  assert.ok(project, "a TypeScript-7-only project is read through TypeScript 7's API");
  const read = (file: string) =>
    project!.transform(path.join(dir, "src", file), fs.readFileSync(path.join(dir, "src", file), "utf8"));
  assert.ok(read("query.ts"), "the first module is read");
  const [pid] = apiProcesses();
  assert.ok(pid, "the build's tsc --api process runs");
  process.kill(pid!, "SIGKILL");
  const tools = path.join(dir, "src", "tools.ts");
  assert.throws(
    () => read("tools.ts"),
    (error: Error) =>
      error.message.includes(tools.split(path.sep).join("/")) &&
      /TypeScript 7\.1.*exited while tooltype was reading/.test(error.message),
  );
  project!.close();
  await noApiProcessLeft("after the crash");
});

test.run();
