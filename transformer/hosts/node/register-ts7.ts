/**
 * tooltype/register on a project whose only compiler is TypeScript 7: each file's metadata is spliced into its text
 * by the module transform on TypeScript 7 (the bundler plugins' own), then the text becomes JavaScript through
 * 7.1's `transpileModule` in the same `tsc --api` process, one per tsconfig for the whole run (TypeScript 7's
 * client ends it when Node exits). The two source maps are composed, so stack traces point at the .ts file as
 * written. TypeScript 7.0's API has no emit: there 7.0's own `tsc` turns the project's modules into JavaScript,
 * all in one run when the first module loads (ts7-cli-transpile.ts), and each later module is served from that run.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { formatHostDiagnostic, stopOnErrors } from "../diagnostic-format";
import { nearestTsconfig, nodeFormatOf, type NodeFormat } from "../project/files";
import { factsOfTypeScript7, type ProgramFacts } from "../project/cache/program-facts";
import type { ModuleResult } from "../splice/splice";
import { splicedMap, withInlineMap } from "../splice/spliced-map";
import { type CliTranspiled, transpileWithTsc } from "../splice/ts7-cli-transpile";
import { preloadTypeScript7For, type TypeScript7Project, typeScript7ProjectFor } from "../project/typescript-7";

/** Per folder: the TypeScript 7 project that governs it, or null where the JavaScript API's path applies. */
const folders = new Map<string, TypeScript7Project | null>();

/** The TypeScript 7 project of the file's nearest tsconfig.json, when the project has no JavaScript-API compiler. */
export function typeScript7ProjectOf(fileName: string): TypeScript7Project | undefined {
  const dir = path.dirname(fileName);
  let found = folders.get(dir);
  if (found === undefined) {
    const config = nearestTsconfig(dir);
    found = (config && typeScript7ProjectFor(config, undefined)) || null;
    folders.set(dir, found);
  }
  return found ?? undefined;
}

/**
 * Imports TypeScript 7's API for the project of `fileName` when that project reads types through it (its modules are
 * ES modules, which Node before 20.19 cannot `require`): by the ES module entry before the program starts, and by
 * the hooks' thread before each module it compiles.
 */
export function preloadTypeScript7Of(fileName: string): Promise<void> {
  const dir = path.dirname(fileName);
  let loading = preloads.get(dir);
  if (!loading) {
    const config = nearestTsconfig(dir);
    loading = config ? preloadTypeScript7For(config) : Promise.resolve();
    preloads.set(dir, loading);
  }
  return loading;
}

/** Per folder: the import of its project's TypeScript 7 API, looked up once. */
const preloads = new Map<string, Promise<void>>();

/** ModuleKind.CommonJS and ModuleKind.ESNext: TypeScript 7's API takes options by their numbers. */
const MODULE_KIND: Record<NodeFormat, number> = { commonjs: 1, module: 99 };

/**
 * The JavaScript Node runs for `fileName`, with tooltype's metadata in it, and the warnings printed for it; with
 * `withFacts`, what the program was made from (the persistent cache's key). Throws on TT errors.
 */
export function compileOnTypeScript7(
  project: TypeScript7Project,
  fileName: string,
  format: NodeFormat,
  withFacts = false,
): { js: string; warnings: string[]; facts: ProgramFacts | undefined } {
  const session = project.openSession();
  const text = fs.readFileSync(fileName, "utf8");
  let result: ModuleResult;
  let transpiled: CliTranspiled;
  let warnings: string[];
  if (session.transpiles) {
    result = project.transform(fileName, text);
    warnings = stopOnTtErrors(fileName, result);
    const module = /\.[cm]ts$/.test(fileName) ? {} : { module: MODULE_KIND[format] };
    transpiled = session.transpile(result.code ?? text, fileName, {
      ...module,
      sourceMap: true,
      inlineSourceMap: false,
      inlineSources: true,
      declaration: false,
      noEmit: false,
    });
  } else {
    ({ result, transpiled } = transpiledOn70(project, fileName, text, format));
    warnings = stopOnTtErrors(fileName, result);
  }
  const facts = withFacts ? factsOfTypeScript7(project) : undefined;
  if (transpiled.map === undefined)
    return { js: transpiled.js.replace(/\n?\/\/# sourceMappingURL=.*\s*$/, ""), warnings, facts };
  const composed = JSON.parse(
    splicedMap(transpiled.map, { code: result.code ?? text, map: result.map?.toString(), original: text }),
  ) as object;
  const js = `${withInlineMap(transpiled.js.replace(/\n?\/\/# sourceMappingURL=.*\s*$/, ""), JSON.stringify({ ...composed, sources: [fileName], sourcesContent: [text] }))}\n`;
  return { js, warnings, facts };
}

/** Throws on the module's TT errors; prints its warnings (once per process) and returns them. */
function stopOnTtErrors(fileName: string, result: ModuleResult): string[] {
  const errors = result.diagnostics.filter((d) => d.category === "error").map((d) => formatHostDiagnostic(d));
  const warnings = result.diagnostics.filter((d) => d.category === "warning").map((d) => formatHostDiagnostic(d));
  stopOnErrors("tooltype/register", fileName, errors, warnings);
  return warnings;
}

interface Prepared {
  text: string;
  format: NodeFormat;
  result: ModuleResult;
  transpiled: CliTranspiled;
}

/** Per TypeScript 7.0 project: its modules as one `tsc` run made them, by file name. */
const preparedOn70 = new WeakMap<TypeScript7Project, Map<string, Prepared>>();

/**
 * A module on 7.0: from the run that made every module of the project at once (a module not made yet, or whose
 * text or format differs from the run's, makes a run of its own).
 */
function transpiledOn70(
  project: TypeScript7Project,
  fileName: string,
  text: string,
  format: NodeFormat,
): { result: ModuleResult; transpiled: CliTranspiled } {
  let prepared = preparedOn70.get(project);
  if (!prepared) {
    prepared = new Map();
    preparedOn70.set(project, prepared);
    const files = project
      .sourceFiles()
      .map((f) => path.resolve(f))
      .filter((f) => /\.[cm]?tsx?$/.test(f));
    if (!files.includes(fileName)) files.push(fileName);
    prepare(
      project,
      prepared,
      files.map((f) => ({ file: f, format: f === fileName ? format : nodeFormatOf(f) })),
    );
  }
  let found = prepared.get(fileName);
  if (!found || found.text !== text || found.format !== format) {
    prepare(project, prepared, [{ file: fileName, format }]);
    found = prepared.get(fileName)!;
  }
  return found;
}

/** Module kinds under which tsc picks each module's format as Node does (by extension and package.json). */
const NODE_MODULE_KINDS = new Set([100, 101, 102, 199]);

function prepare(
  project: TypeScript7Project,
  into: Map<string, Prepared>,
  modules: { file: string; format: NodeFormat }[],
): void {
  const session = project.openSession();
  const module = session.compilerOptions().module as number | undefined;
  const byFormat = new Map<string, Map<string, { text: string; format: NodeFormat; result: ModuleResult }>>();
  for (const { file, format } of modules) {
    const text = fs.readFileSync(file, "utf8");
    const result = project.transform(file, text);
    // Under a `module` that is not Node's, the module kind follows how Node loads each file, as on 7.1.
    const group = (module !== undefined && NODE_MODULE_KINDS.has(module)) || /\.[cm]ts$/.test(file) ? "" : format;
    if (!byFormat.has(group)) byFormat.set(group, new Map());
    byFormat.get(group)!.set(file, { text, format, result });
  }
  for (const [group, files] of byFormat) {
    const overrides =
      group === "" ? {} : { module: group === "module" ? "esnext" : "commonjs", moduleResolution: "bundler" };
    const texts = new Map([...files].map(([file, { text, result }]) => [file, result.code ?? text]));
    const made = transpileWithTsc(project.packageDir, project.tsconfig, texts, overrides);
    for (const [file, entry] of files) into.set(file, { ...entry, transpiled: made.get(file)! });
  }
}
