#!/usr/bin/env node
/**
 * Brings the test build (.test-build/, from test/tsconfig.json with tooltype's transformer) up to date, recompiling
 * only what changed, so that the first test of a one-file change runs seconds in, not minutes.
 *
 * - The package build (dist/) comes first: the tests import `tooltype` from it and the test build runs its
 *   transformer. It is rebuilt (the package's build script) when a file it is built from is newer than its oldest
 *   output; `--build` rebuilds it regardless (npm test does).
 * - The test build is incremental (a tsBuildInfo file). tsc cannot know that the transformer, which writes part of
 *   every output, changed: the build info is dropped, and everything recompiled, when the transformer's built code
 *   differs from the last test build's (a hash of its files), or when an output tsc believes written is missing.
 *   `--clean` drops it regardless.
 * - The runtime's `require("#lazy/…")` are pointed at the test build's own loaders (scripts/cjs-imports.mjs), so that
 *   the tests' copy of the runtime never loads a module of dist/ on first need.
 * - Then compiled files whose source is gone are deleted, so that a deleted or renamed test does not run on.
 * - What earlier runs left behind (the projects and fixtures tests compile under .test-build/) is removed first.
 *
 * Usage: node scripts/build-tests.mjs [--build] [--clean]
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(repo, ".test-build");
const buildInfo = path.join(out, "test.tsbuildinfo");
const stampFile = path.join(out, "transformer.sha1");
const args = process.argv.slice(2);

/** Folders under .test-build that tests write while they run; stale from one run to the next. */
const LEFT_BY_TESTS = ["hosts", "fixtures"];
/** Folders of the repository the test build compiles (its outputs mirror them under .test-build). */
const COMPILED_ROOTS = ["test", "examples", "bench", "runtime", "transformer"];
/** What the package build is made from besides the sources of runtime/ and transformer/. */
const PACKAGE_SETTINGS = ["tsconfig.json", "tsconfig.esm.json", "package.json", "scripts/build.mjs", "scripts/cjs-imports.mjs", "scripts/node-entries.mjs"];

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
      const output = fs.statSync(path.join(repo, "dist", `${match[1]}.${match[2] === "mts" ? "mjs" : "js"}`), { throwIfNoEntry: false });
      if (output === undefined) return true;
      oldestOutput = Math.min(oldestOutput, output.mtimeMs);
      newestInput = Math.max(newestInput, fs.statSync(source).mtimeMs);
    }
  }
  for (const file of PACKAGE_SETTINGS) newestInput = Math.max(newestInput, fs.statSync(path.join(repo, file), { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return newestInput > oldestOutput;
}

/** A hash of the built transformer (the plugin test/tsconfig.json names) and of the TypeScript that runs it. */
function transformerHash() {
  const hash = createHash("sha1");
  const files = [...walk(path.join(repo, "dist", "transformer"))].filter((f) => /\.(c|m)?js$/.test(f)).sort();
  for (const file of files) hash.update(path.relative(repo, file)).update("\0").update(fs.readFileSync(file)).update("\0");
  hash.update(fs.readFileSync(path.join(repo, "node_modules", "typescript", "package.json")));
  return hash.digest("hex");
}

/** The source a compiled file under .test-build came from, if it still exists. */
function sourceOf(compiled) {
  const relative = path.relative(out, compiled);
  const match = /^(.*)\.(js|mjs|cjs)(\.map)?$/.exec(relative);
  if (!match) return undefined;
  const [, stem, ext] = match;
  const candidates = { js: [".ts", ".tsx", ".js"], mjs: [".mts", ".mjs"], cjs: [".cts", ".cjs"] }[ext];
  return candidates.map((e) => path.join(repo, stem + e)).find((f) => fs.existsSync(f));
}

/** Whether any test or example source lacks its compiled file (tsc's build info would not notice). */
function outputMissing() {
  for (const root of ["test", "examples"]) {
    const skip = (dir) => path.relative(repo, dir) === path.join("test", "fixtures");
    for (const source of walk(path.join(repo, root), skip)) {
      if (!/\.tsx?$/.test(source) || source.endsWith(".d.ts")) continue;
      if (!fs.existsSync(path.join(out, path.relative(repo, source)).replace(/\.tsx?$/, ".js"))) return true;
    }
  }
  return false;
}

let started = performance.now();
for (const dir of LEFT_BY_TESTS) fs.rmSync(path.join(out, dir), { recursive: true, force: true });

if (args.includes("--build") || packageStale()) {
  const code = await run(path.join(repo, "scripts", "build.mjs"), []);
  if (code !== 0) process.exit(code);
  step("package built", (performance.now() - started) / 1000);
  started = performance.now();
}

const hash = transformerHash();
const previous = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, "utf8").trim() : undefined;
let why;
if (args.includes("--clean")) why = "--clean";
else if (!fs.existsSync(buildInfo)) why = "first build";
else if (previous !== hash) why = "the transformer changed";
else if (outputMissing()) why = "compiled files were missing";
if (why) {
  // The build info goes: what tsc writes next, even for a compile with errors, is this transformer's.
  fs.rmSync(buildInfo, { force: true });
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(stampFile, `${hash}\n`);
}

const tspc = path.join(repo, "node_modules", "ts-patch", "bin", "tspc.js");
const code = await run(tspc, ["-p", "test/tsconfig.json", "--incremental", "--tsBuildInfoFile", buildInfo]);
if (code !== 0) process.exit(code);
// Before the imports are linked: a file whose source is gone (a module moved away) may name an import no more.
let orphans = 0;
for (const root of COMPILED_ROOTS) {
  for (const file of walk(path.join(out, root))) {
    if (/\.(c|m)?js(\.map)?$/.test(file) && sourceOf(file) === undefined) {
      fs.rmSync(file);
      orphans++;
    }
  }
}
// The tests' copy of the runtime loads its own modules on first need, as dist/ does, not dist/'s.
const linked = await run(path.join(repo, "scripts", "cjs-imports.mjs"), [out]);
if (linked !== 0) process.exit(linked);

step(`tests compiled${why ? ` in full (${why})` : ", incrementally"}${orphans ? `; ${orphans} files whose source is gone deleted` : ""}`, (performance.now() - started) / 1000);
