/**
 * `tooltype build [-p tsconfig] [-w]`: the tsconfig's project built with TypeScript 7 to its outDir (JavaScript,
 * declarations, source maps: what its tsc writes), with the metadata tspc writes for the same source. Each module's
 * usages are read by the core on TypeScript 7's API and spliced into its text (the bundler plugins' module
 * transform); 7.1's program then emits over a file-system layer holding the spliced texts, and each source map of a
 * spliced module is composed with the splice's, so maps point at the source as written. 7.0's API cannot emit: there
 * the project's own tsc builds it, and the modules with tools are written again (build-on-tsc.ts). One `tsc --api`
 * process for the build, or for the whole watch. Each module's spliced text comes from the persistent schema cache
 * when it holds it (the bundler plugins' cache, shared with them): the process still starts, to emit and to report
 * TypeScript's own errors, but asks it nothing about a module whose types did not change.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  type BuildDiagnostic,
  fromHost,
  fromTypeScript7,
  printBuildDiagnostics,
  type TypeScript7Diagnostic,
} from "./build-diagnostics";
import { buildWithTsc } from "./build-on-tsc";
import { inlineMapOf, type Spliced, splicedMap, withInlineMap } from "../splice/spliced-map";
import { moduleCacheFor, transformCached } from "../project/cache/cached-transform";
import type { TypeScript7Project } from "../project/typescript-7";
import type { Rebuilder } from "./watch";

/** What a build ended with: its exit status, and how many errors it found (tooltype's and TypeScript's). */
export interface BuildOutcome {
  status: number;
  errors: number;
}

/**
 * Builds once, silent when all is well, as tsc is; the exit status as tsc's: 0, 2 with errors and the output written,
 * 1 when nothing was written (a TT error: a tool with an error has no correct schema). Every diagnostic of the run,
 * tooltype's and TypeScript's, is printed at its end, together (build-diagnostics.ts).
 */
export function buildOnce(project: TypeScript7Project, out: NodeJS.WritableStream = process.stdout): BuildOutcome {
  const spliced = new Map<string, Spliced>();
  const found: BuildDiagnostic[] = [];
  // The module cache of the bundler plugins' default setup: a build after a bundler's build of the project hits.
  const cache = moduleCacheFor({ tsconfig: project.tsconfig });
  cache?.refresh();
  for (const file of project.sourceFiles()) {
    const text = fs.readFileSync(file, "utf8");
    const result = transformCached(cache, file, text, () => project);
    found.push(...result.diagnostics.map(fromHost));
    if (result.code === undefined) continue;
    spliced.set(file, { code: result.code, map: result.map?.toString(), original: text });
  }
  if (found.some((d) => d.category === "error")) {
    // TypeScript's own problems too, asked of the process the tools were read with: all of them at once.
    found.push(...typeDiagnosticsOf(project));
    return { status: 1, errors: printBuildDiagnostics(out, found, { written: false }) };
  }
  if (!project.openSession().overlays) return buildWithTsc(project, spliced, out, found);
  // Like tsc, the output is written all the same when TypeScript finds errors.
  found.push(...typeDiagnosticsOf(project));
  const emitted = project.emitWith(Object.fromEntries([...spliced].map(([file, { code }]) => [file, code])))!;
  for (const [name, file] of emitted.files) {
    let text = file.text;
    const module =
      file.sourceFileName === undefined ? undefined : spliced.get(file.sourceFileName.split(path.sep).join("/"));
    if (module && name.endsWith(".map")) text = splicedMap(text, module);
    else if (module && /\.[cm]?jsx?$/.test(name)) {
      const inline = inlineMapOf(text);
      if (inline !== undefined) text = withInlineMap(text, splicedMap(inline, module));
    }
    fs.mkdirSync(path.dirname(name), { recursive: true });
    fs.writeFileSync(name, text);
  }
  found.push(...emitted.diagnostics.map((d) => fromTypeScript7(d as TypeScript7Diagnostic)));
  const written = !emitted.emitSkipped;
  const errors = printBuildDiagnostics(out, found, { written });
  return { status: errors === 0 ? 0 : written ? 2 : 1, errors };
}

/** TypeScript's own diagnostics of the program as written, from the session's `tsc --api` process. */
function typeDiagnosticsOf(project: TypeScript7Project): BuildDiagnostic[] {
  return project.typeDiagnostics().map((d) => fromTypeScript7(d as TypeScript7Diagnostic));
}

/** The TypeScript 7 project as watch mode drives it: one `tsc --api` process for the whole watch. */
export function typeScript7Rebuilder(project: TypeScript7Project): Rebuilder {
  return {
    build: () => buildOnce(project).errors,
    changed: (file) => project.refresh(file),
    close: () => project.close(),
    // The program's own declaration files (a global augmentation, declared types): not the outDir's, which it writes.
    isSourceDeclaration: (file) => !project.isOutput(file),
  };
}
