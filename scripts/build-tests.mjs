#!/usr/bin/env node
/**
 * Brings the test build (.test-build/) up to date, recompiling only what changed, so that the first test of a
 * one-file change runs seconds in, not minutes. The test build is a package of its own, laid out like dist/'s
 * CommonJS half, so that the unit tier runs from the sources with one copy of the runtime and no dist/:
 *
 * - The sources first (test/tsconfig.sources.json: runtime/ and transformer/ with the package's own settings,
 *   declarations included, no transformer), then the Node forms of the entries and the `#lazy/…` loaders
 *   (scripts/node-entries.mjs, scripts/cjs-imports.mjs), as npm run build does for dist/.
 * - Then the tests (test/tsconfig.json, with the transformer just compiled). They reference the sources' project,
 *   so they see the runtime through its declarations; `tooltype` and `tooltype/<subpath>` are mapped to the sources
 *   (tsconfig `paths`, which this script checks against package.json "exports").
 * - .test-build/package.json is package.json under the condition `tooltype-sources`: a compiled test's
 *   `require("tooltype…")` (the package's self-reference) and a compiled fixture's (compiled under .test-build/
 *   with node_modules/tooltype linked to it) resolve to the test build in a process run with
 *   `--conditions=tooltype-sources` (scripts/run-tests.mjs runs the unit tier so), and to dist/ otherwise, through
 *   .test-build/dist, a link to it (the integration tier tests the package as it is published).
 * - The package build (dist/) is for the integration tier: built when a file it is built from is newer than its
 *   oldest output, never with `--tier=unit` (npm run test:unit), always with `--build` (npm test).
 * - The test build is incremental (tsBuildInfo files), in build mode (`-b`): with nothing changed, a check of
 *   timestamps. tsc cannot know that the transformer, which writes part of
 *   every test's output, changed: the tests' build info is dropped, and every test recompiled, when the
 *   transformer's compiled code differs from the last test build's (a hash of its files), or when an output tsc
 *   believes written is missing. `--clean` drops both build infos regardless.
 * - Then compiled files whose source is gone are deleted, so that a deleted or renamed test does not run on.
 * - What earlier runs left behind (the projects and fixtures tests compile under .test-build/) is removed first.
 *
 * Usage: node scripts/build-tests.mjs [--build] [--clean] [--tier=unit]
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { writeBuildId } from "./build-id.mjs";
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const ts = createRequire(import.meta.url)("typescript");

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(repo, ".test-build");
const buildInfo = path.join(out, "test.tsbuildinfo");
/** Named by test/tsconfig.sources.json. */
const sourcesBuildInfo = path.join(out, "sources.tsbuildinfo");
const stampFile = path.join(out, "transformer.sha1");
const args = process.argv.slice(2);
const unitOnly = args.includes("--tier=unit");
/** The export condition under which .test-build/package.json resolves to the test build (dist/ without it). */
const CONDITION = "tooltype-sources";

/** Folders under .test-build that tests write while they run; stale from one run to the next. */
const LEFT_BY_TESTS = ["hosts", "fixtures"];
/** What the package build is made from besides the sources of runtime/ and transformer/. */
const PACKAGE_SETTINGS = [
  "tsconfig.json",
  "tsconfig.esm.json",
  "package.json",
  "scripts/build.mjs",
  "scripts/cjs-imports.mjs",
  "scripts/node-entries.mjs",
];

function* walk(dir, skip = () => false) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !skip(full)) yield* walk(full, skip);
    } else yield full;
  }
}

function run(file, argv) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...argv], { cwd: repo, stdio: "inherit" });
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

function step(what, seconds) {
  console.log(`build-tests: ${what} (${seconds.toFixed(1)} s)`);
}

/**
 * True when dist/ is older than what it is built from: a source of runtime/ or transformer/ without its output, or a
 * source or build setting newer than the oldest output (tsc rewrites every output; outputs whose source is gone
 * are left out, as they are never rewritten).
 */
function packageStale() {
  let oldestOutput = Infinity;
  let newestInput = 0;
  for (const dir of ["runtime", "transformer"]) {
    for (const source of walk(path.join(repo, dir))) {
      const match = /^(.*)\.(ts|mts)$/.exec(path.relative(repo, source));
      if (!match || source.endsWith(".d.ts") || source.endsWith(".d.mts")) continue;
      const output = fs.statSync(path.join(repo, "dist", `${match[1]}.${match[2] === "mts" ? "mjs" : "js"}`), {
        throwIfNoEntry: false,
      });
      if (output === undefined) return true;
      oldestOutput = Math.min(oldestOutput, output.mtimeMs);
      newestInput = Math.max(newestInput, fs.statSync(source).mtimeMs);
    }
  }
  for (const file of PACKAGE_SETTINGS)
    newestInput = Math.max(newestInput, fs.statSync(path.join(repo, file), { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return newestInput > oldestOutput;
}

/** A hash of the test build's transformer (the plugin test/tsconfig.json names) and of the TypeScript that runs it. */
function transformerHash() {
  const hash = createHash("sha1");
  const files = [...walk(path.join(out, "transformer"))].filter((f) => /\.(c|m)?js$/.test(f)).sort();
  for (const file of files)
    hash.update(path.relative(out, file)).update("\0").update(fs.readFileSync(file)).update("\0");
  hash.update(fs.readFileSync(path.join(repo, "node_modules", "typescript", "package.json")));
  return hash.digest("hex");
}

/** The source a compiled file under .test-build came from, if it still exists. */
function sourceOf(compiled) {
  const relative = path.relative(out, compiled);
  // An entry's Node form (scripts/node-entries.mjs) is written from the entry's source.
  const entry = /^(runtime[\\/]entries[\\/][a-z0-9-]+)\.node\.js$/.exec(relative);
  if (entry) return [path.join(repo, `${entry[1]}.ts`)].find((f) => fs.existsSync(f));
  const match = /^(.*?)(\.d)?\.(ts|mts|js|mjs|cjs)(\.map)?$/.exec(relative);
  if (!match) return undefined;
  const [, stem, declaration, ext] = match;
  if (declaration ? ext !== "ts" && ext !== "mts" : ext === "ts" || ext === "mts") return undefined;
  const candidates = {
    ts: [".ts", ".tsx"],
    js: [".ts", ".tsx", ".js"],
    mts: [".mts"],
    mjs: [".mts", ".mjs"],
    cjs: [".cts", ".cjs"],
  }[ext];
  return candidates.map((e) => path.join(repo, stem + e)).find((f) => fs.existsSync(f));
}

/** Whether any source lacks its compiled file (tsc's build info would not notice). */
function outputMissing(roots) {
  for (const root of roots) {
    const skip = (dir) => path.relative(repo, dir) === path.join("test", "fixtures");
    for (const source of walk(path.join(repo, root), skip)) {
      if (!/\.m?tsx?$/.test(source) || /\.d\.m?ts$/.test(source)) continue;
      if (!fs.existsSync(path.join(out, path.relative(repo, source)).replace(/\.(m?)tsx?$/, ".$1js"))) return true;
    }
  }
  return false;
}

/**
 * A target of package.json as the test build holds it: dist/'s CommonJS files at the same paths under .test-build,
 * declarations where package.json names a source; the ES module build (dist/esm) has no counterpart.
 */
function testBuildTarget(target) {
  if (target.startsWith("./dist/esm/")) return undefined;
  const moved = target.startsWith("./dist/") ? `./${target.slice("./dist/".length)}` : target;
  return /\.m?ts$/.test(moved) && !/\.d\.m?ts$/.test(moved) ? moved.replace(/\.(m?)ts$/, ".d.$1ts") : moved;
}

/** An entry of "exports" or "imports" with the ES module conditions (bundlers, workerd) left out, pointed at the test build. */
function testBuildEntry(entry) {
  if (typeof entry === "string") return testBuildTarget(entry);
  const result = {};
  for (const [condition, target] of Object.entries(entry)) {
    if (condition === "module" || condition === "workerd") continue;
    const moved = testBuildEntry(target);
    if (moved !== undefined) result[condition] = moved;
  }
  return result;
}

/** The declarations of `entry` in the test build, for TypeScript (Node knows no "types" condition). */
function testBuildTypes(entry) {
  const moved = testBuildEntry(entry);
  if (typeof moved === "string") return moved;
  const esm = typeof moved.import === "object" ? moved.import.types : undefined;
  return esm ? { import: esm, default: moved.types } : moved.types;
}

/**
 * package.json for the test build. Each entry's declarations are the test build's, whichever copy runs (a fixture
 * compiled with no custom condition type-checks against the sources, and dist/ need not exist); its modules are
 * the test build's under CONDITION, else as published (dist/).
 */
function writeTestBuildPackage() {
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
  const both = (entries) =>
    Object.fromEntries(
      Object.entries(entries ?? {}).map(([name, entry]) => {
        if (name === "./package.json") return [name, entry];
        const published = typeof entry === "string" ? { default: entry } : entry;
        const { types: _, ...modules } = testBuildEntry(published);
        const { types: __, ...asPublished } = published;
        return [name, { types: testBuildTypes(published), [CONDITION]: modules, ...asPublished }];
      }),
    );
  const text = `${JSON.stringify({ name: manifest.name, version: manifest.version, private: true, main: manifest.main, types: testBuildTarget(manifest.types), exports: both(manifest.exports), imports: both(manifest.imports) }, null, 2)}\n`;
  const file = path.join(out, "package.json");
  if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text) fs.writeFileSync(file, text);
  // The targets outside CONDITION name dist/…, the repository's, through this link.
  const link = path.join(out, "dist");
  if (!fs.lstatSync(link, { throwIfNoEntry: false })) fs.symlinkSync(path.join("..", "dist"), link, "dir");
}

/**
 * Checks test/tsconfig.json's `paths` against package.json "exports": each subpath maps to the source of its
 * declarations, so a test type-checks against what it runs.
 */
function checkPaths() {
  const { exports } = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
  const config = ts.readConfigFile(path.join(repo, "test", "tsconfig.json"), ts.sys.readFile);
  const paths = config.config?.compilerOptions?.paths ?? {};
  const wrong = [];
  for (const [subpath, entry] of Object.entries(exports)) {
    if (typeof entry === "string") continue;
    const types = entry.types ?? entry.import?.types;
    const expected = `../${types.slice("./dist/".length).replace(/\.d\.(m?)ts$/, ".$1ts")}`;
    const name = `tooltype${subpath.slice(1)}`;
    if (paths[name]?.[0] !== expected) wrong.push(`"${name}": ["${expected}"]`);
  }
  if (wrong.length > 0) {
    console.error(
      `build-tests: test/tsconfig.json's "paths" must map each entry of package.json "exports" to its source:\n  ${wrong.join(",\n  ")}`,
    );
    process.exit(2);
  }
}

let orphans = 0;
/** Deletes the compiled files under `roots` (folders of .test-build) whose source is gone, so that they do not run on. */
function deleteOrphans(roots) {
  for (const root of roots) {
    for (const file of walk(path.join(out, root))) {
      if (/\.((c|m)?js(\.map)?|d\.m?ts)$/.test(file) && sourceOf(file) === undefined) {
        fs.rmSync(file);
        orphans++;
      }
    }
  }
}

let started = performance.now();
for (const dir of LEFT_BY_TESTS) fs.rmSync(path.join(out, dir), { recursive: true, force: true });
checkPaths();

if (!unitOnly && (args.includes("--build") || packageStale())) {
  const code = await run(path.join(repo, "scripts", "build.mjs"), []);
  if (code !== 0) process.exit(code);
  step("package built", (performance.now() - started) / 1000);
  started = performance.now();
}

const tsc = path.join(repo, "node_modules", "typescript", "bin", "tsc");
if (args.includes("--clean") || outputMissing(["runtime", "transformer"])) fs.rmSync(sourcesBuildInfo, { force: true });
// Build mode: an up-to-date check of the sources' timestamps, instead of a program, when nothing changed.
const compiled = await run(tsc, ["-b", "test/tsconfig.sources.json"]);
if (compiled !== 0) process.exit(compiled);
// Before the imports are linked: a file whose source is gone (a module moved away) may name an import no more.
deleteOrphans(["runtime", "transformer"]);
// As npm run build does for dist/: the runtime's loaders required by relative path, and the entries' Node forms
// (Node would resolve `#lazy/…` through this package's "imports", to dist/ in a process without CONDITION). Before
// the tests compile: the transformer runs parts of the runtime.
for (const script of ["cjs-imports.mjs", "node-entries.mjs"]) {
  const linked = await run(path.join(repo, "scripts", script), [out]);
  if (linked !== 0) process.exit(linked);
}
writeTestBuildPackage();
// The sources' id, as npm run build writes it into dist/: the schema cache's entries the two builds write are alike.
writeBuildId(repo, path.join(out, "transformer"));
step("sources compiled", (performance.now() - started) / 1000);
started = performance.now();

const hash = transformerHash();
const previous = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, "utf8").trim() : undefined;
let why;
if (args.includes("--clean")) why = "--clean";
else if (!fs.existsSync(buildInfo)) why = "first build";
else if (previous !== hash) why = "the transformer changed";
else if (outputMissing(["test", "examples"])) why = "compiled files were missing";
if (why) {
  // The build info goes: what tsc writes next, even for a compile with errors, is this transformer's.
  fs.rmSync(buildInfo, { force: true });
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(stampFile, `${hash}\n`);
}

const tspc = path.join(repo, "node_modules", "ts-patch", "bin", "tspc.js");
// Build mode, as for the sources: when no input is newer than the build info, an up-to-date check of timestamps
// (about a second) instead of a program made of every test (about ten). The build info test/tsconfig.json names is
// `buildInfo`, which the lines above drop when the transformer changed.
const code = await run(tspc, ["-b", "test/tsconfig.json"]);
if (code !== 0) process.exit(code);
deleteOrphans(["test", "examples", "bench"]);

step(
  `tests compiled${why ? ` in full (${why})` : ", incrementally"}${orphans ? `; ${orphans} compiled files whose source is gone deleted` : ""}`,
  (performance.now() - started) / 1000,
);
