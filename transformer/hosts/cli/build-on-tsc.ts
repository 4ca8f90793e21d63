/**
 * `tooltype build` on TypeScript 7.0, whose API cannot emit: the project's own `tsc` builds it as it would without
 * tooltype (type errors, declarations, maps, incremental state, its exit status; its diagnostics read back and printed
 * with tooltype's, build-diagnostics.ts), then the JavaScript of each module
 * with tools is written again from its spliced text, made by the same `tsc` with the project's options one module
 * at a time (ts7-cli-transpile.ts), and its map composed so it still leads to the source as written. Those modules
 * are thereby compiled the way an `isolatedModules` project's are: a `const enum` of another module is not inlined.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { tscBinOf, transpileWithTsc } from "../splice/ts7-cli-transpile";
import type { TypeScript7Project } from "../project/typescript-7";
import { ProjectError } from "../project/tsconfig";
import { inlineMapOf, type Spliced, splicedMap, withInlineMap } from "../splice/spliced-map";
import { type BuildDiagnostic, fromTscOutput, printBuildDiagnostics } from "./build-diagnostics";

/** A bound that only a hung `tsc` reaches. */
const TSC_TIMEOUT_MS = 30 * 60_000;

/**
 * Builds with the project's `tsc`, then rewrites the modules with tools; tsc's exit status and the errors found.
 * tsc's diagnostics are printed with `found` (tooltype's warnings), in one list.
 */
export function buildWithTsc(
  project: TypeScript7Project,
  spliced: ReadonlyMap<string, Spliced>,
  out: NodeJS.WritableStream,
  found: readonly BuildDiagnostic[] = [],
): { status: number; errors: number } {
  const tsc = spawnSync(
    process.execPath,
    [tscBinOf(project.packageDir), "-p", project.tsconfig, "--listEmittedFiles", "--pretty", "false"],
    { encoding: "utf8", timeout: TSC_TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024 },
  );
  if (tsc.error)
    throw new ProjectError(
      `tooltype build: TypeScript's tsc did not finish building ${project.tsconfig}: ${tsc.error.message}`,
    );
  const emitted: string[] = [];
  const printed: string[] = [];
  for (const line of `${tsc.stdout}`.split("\n")) {
    if (line.startsWith("TSFILE: ")) emitted.push(path.resolve(line.slice("TSFILE: ".length).trim()));
    else printed.push(line);
  }
  const { diagnostics, rest } = fromTscOutput(printed.join("\n"));
  if (rest.length > 0) out.write(`${rest.join("\n")}\n`);
  if (tsc.stderr) out.write(tsc.stderr);
  // Status 1: tsc wrote nothing (noEmitOnError), 2: errors, with the output written.
  const errors = printBuildDiagnostics(out, [...found, ...diagnostics], { written: tsc.status !== 1 });
  const scripts = emitted.filter((file) => /\.[cm]?jsx?$/.test(file));
  const targets = new Map<string, string>();
  for (const source of spliced.keys()) {
    const target = outputOf(source, scripts);
    if (target) targets.set(source, target);
  }
  if (targets.size > 0) {
    const made = transpileWithTsc(
      project.packageDir,
      project.tsconfig,
      new Map([...targets.keys()].map((source) => [source, spliced.get(source)!.code])),
    );
    for (const [source, target] of targets) rewrite(target, made.get(source)!, spliced.get(source)!, emitted);
  }
  const missed = [...spliced.keys()].filter((source) => !targets.has(source));
  if (missed.length > 0 && tsc.status !== 2) {
    throw new ProjectError(
      `tooltype build: tsc wrote no JavaScript for ${missed.join(", ")}, which ha${missed.length === 1 ? "s" : "ve"} tools. Check that ${project.tsconfig} emits them (no "noEmit", "emitDeclarationOnly" or "outFile").`,
    );
  }
  return { status: tsc.status ?? 1, errors };
}

/** The JavaScript tsc wrote for `source`: the one whose path shares the most trailing folders with it. */
function outputOf(source: string, scripts: readonly string[]): string | undefined {
  const stem = path
    .resolve(source)
    .replace(/\.([cm]?)tsx?$/, "")
    .split(path.sep);
  let best: string | undefined;
  let bestShared = 0;
  for (const script of scripts) {
    const parts = script.replace(/\.[cm]?jsx?$/, "").split(path.sep);
    let shared = 0;
    while (
      shared < Math.min(parts.length, stem.length) &&
      parts[parts.length - 1 - shared] === stem[stem.length - 1 - shared]
    )
      shared++;
    if (shared > bestShared) [best, bestShared] = [script, shared];
  }
  return best;
}

/** The module's new JavaScript in place of tsc's, keeping tsc's way of pointing at its map (a file, inline, none). */
function rewrite(
  target: string,
  made: { js: string; map: string | undefined },
  spliced: Spliced,
  emitted: readonly string[],
): void {
  const written = fs.readFileSync(target, "utf8");
  const js = made.js.replace(/\s*$/, "\n");
  const inline = inlineMapOf(written);
  const url = /\/\/# sourceMappingURL=(.*)\s*$/.exec(written)?.[1]?.trim();
  const mapFile =
    inline === undefined && url !== undefined ? path.resolve(path.dirname(target), decodeURIComponent(url)) : undefined;
  if (made.map !== undefined && inline !== undefined) {
    fs.writeFileSync(target, withInlineMap(js, splicedMap(inline, spliced, made.map)));
  } else if (made.map !== undefined && mapFile !== undefined && emitted.includes(mapFile)) {
    fs.writeFileSync(mapFile, splicedMap(fs.readFileSync(mapFile, "utf8"), spliced, made.map));
    fs.writeFileSync(target, `${js}//# sourceMappingURL=${url}`);
  } else {
    fs.writeFileSync(target, js);
  }
}
