/**
 * `tooltype build [-p tsconfig] [-w]`: the tsconfig's project built with TypeScript 7 to its outDir (JavaScript,
 * declarations, source maps: what its tsc writes), with the metadata tspc writes for the same source. Each module's
 * usages are read by the core on TypeScript 7's API and spliced into its text (the bundler plugins' module
 * transform); 7.1's program then emits over a file-system layer holding the spliced texts, and each source map of a
 * spliced module is composed with the splice's, so maps point at the source as written. One `tsc --api` process for
 * the build, or for the whole watch.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { formatHostDiagnostic } from "../shared/diagnostic-format";
import { ProjectError } from "../shared/tsconfig";
import { TypeScript7Project } from "../shared/ts7-project";

/** @jridgewell/remapping, by its runtime shape: its CommonJS declarations do not parse (`export = function`). */
type Remapping = (maps: string[], loader: () => null) => { toString(): string };

interface RawMap {
  sources: string[];
  sourceRoot?: string;
  sourcesContent?: (string | null)[];
}

/** Builds once; the exit status (1 when a TT error or TypeScript's emit stopped it). */
export function buildOnce(project: TypeScript7Project, out: NodeJS.WritableStream = process.stdout): number {
  const spliced: Record<string, string> = {};
  const maps = new Map<string, string>();
  const originals = new Map<string, string>();
  let errors = 0;
  let tools = 0;
  for (const file of project.sourceFiles()) {
    const text = fs.readFileSync(file, "utf8");
    const result = project.transform(file, text);
    for (const d of result.diagnostics) out.write(formatHostDiagnostic(d) + "\n");
    errors += result.diagnostics.filter((d) => d.category === "error").length;
    if (result.code === undefined) continue;
    tools++;
    spliced[file] = result.code;
    originals.set(file, text);
    if (result.map) maps.set(file, result.map.toString());
  }
  if (errors > 0) {
    out.write(`\nFound ${errors} tooltype error(s): nothing written (a tool with an error has no correct schema).\n`);
    return 1;
  }
  const emitted = project.emitWith(spliced);
  if (!emitted) throw new ProjectError(noEmit(project));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const remapping = require("@jridgewell/remapping") as Remapping;
  for (const [name, file] of emitted.files) {
    let text = file.text;
    const source = file.sourceFileName?.split(path.sep).join("/");
    const spliceMap = source !== undefined && name.endsWith(".map") ? maps.get(source) : undefined;
    if (spliceMap !== undefined) {
      const own = JSON.parse(text) as RawMap;
      const composed = JSON.parse(remapping([text, spliceMap], () => null).toString()) as RawMap;
      // Names and places as TypeScript wrote them; the mappings lead to the source as written.
      text = JSON.stringify({ ...own, mappings: (composed as RawMap & { mappings: string }).mappings, ...(own.sourcesContent ? { sourcesContent: [originals.get(source!) ?? null] } : {}) });
    }
    fs.mkdirSync(path.dirname(name), { recursive: true });
    fs.writeFileSync(name, text);
  }
  out.write(`${emitted.files.size} file(s) written; ${tools} module(s) with tools.\n`);
  return 0;
}

function noEmit(project: TypeScript7Project): string {
  return `tooltype build: ${project.tsconfig} is on TypeScript ${project.openSession().ts.version}, whose API cannot emit (TypeScript 7.1's can: npm i -D typescript@7.1). With 7.0, build with a bundler plugin, or install a JavaScript-API compiler (npm i -D @typescript/typescript6 ts-patch) and build with tspc.`;
}

/** Builds, then again whenever a source file under the tsconfig's folder changes, until the process is stopped. */
export function watch(project: TypeScript7Project): void {
  const dir = path.dirname(project.tsconfig);
  const run = (): void => {
    try {
      buildOnce(project);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
    }
    process.stdout.write("Watching for file changes.\n");
  };
  run();
  // Stopped by a signal, Node runs no exit handlers: end the tsc --api process here.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      project.close();
      process.exit(130);
    });
  }
  let due: NodeJS.Timeout | undefined;
  fs.watch(dir, { recursive: true }, (_event, name) => {
    if (!name || !/\.[cm]?tsx?$/.test(name) || /\.d\.[cm]?ts$/.test(name) || /(^|[\\/])node_modules[\\/]/.test(name)) return;
    project.refresh(path.join(dir, name));
    // One rebuild for a burst of changes (an editor's save writes more than once).
    clearTimeout(due);
    due = setTimeout(run, 50);
  });
}
