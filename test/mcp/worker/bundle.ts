/**
 * Bundles the worker of entry.ts (its tspc output, tools compiled by the transformer) with esbuild the way a Workers
 * project does: one ES module for the browser-like platform (conditions workerd, worker, browser), no Node
 * built-ins allowed (esbuild fails on any it cannot resolve), minified. Used by the Workers and Bun tests and by
 * the bench's size report.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as esbuild from "esbuild";

export interface WorkerBundle {
  /** The ES module on disk. */
  file: string;
  /** Its size in bytes, minified. */
  bytes: number;
}

/** Where entry.js is after the test build (this file's own directory there). */
const BUILT = __dirname;

/**
 * Writes the bundle of `file` (entry.js: the test service, compiled as CommonJS; small-entry.mjs: three tools and
 * the fetch handler alone, an ES module as a Workers project writes it) under `outDir`; by default a folder of this
 * process's own, as other Node releases run it too.
 */
export async function bundleWorker(
  outDir: string = path.join(BUILT, `dist-${process.pid}`),
  file = "entry.js",
): Promise<WorkerBundle> {
  const entry = path.join(BUILT, file);
  const name = file.replace(/\.m?js$/, "");
  if (!fs.existsSync(entry))
    throw new Error(`${entry} is missing: build the tests first (npx tspc -p test/tsconfig.json).`);
  const result = await esbuild.build({
    // entry.js is CommonJS with `exports.default`; re-exporting it gives workerd the module it expects.
    stdin: { contents: `export { default } from "./${file}";`, resolveDir: BUILT },
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    minify: true,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  fs.mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, `${name}.mjs`);
  fs.writeFileSync(out, code);
  return { file: out, bytes: code.byteLength };
}
