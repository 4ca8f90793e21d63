/**
 * tooltype/register on a project whose only compiler is TypeScript 7: each file's metadata is spliced into its text
 * by the module transform on TypeScript 7 (the bundler plugins' own), then the text becomes JavaScript through
 * 7.1's `transpileModule` in the same `tsc --api` process, one per tsconfig for the whole run (TypeScript 7's
 * client ends it when Node exits). The two source maps are composed, so stack traces point at the .ts file as
 * written. TypeScript 7.0's API has no emit: there, the error says what works.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { formatHostDiagnostic, stopOnErrors } from "../shared/diagnostic-format";
import { ProjectError } from "../shared/tsconfig";
import { TypeScript7Project, typeScript7ProjectFor } from "../shared/ts7-project";

/** @jridgewell/remapping, by its runtime shape: its CommonJS declarations do not parse (`export = function`). */
type Remapping = (maps: string[], loader: () => null) => { toString(): string };

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

function nearestTsconfig(dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, "tsconfig.json");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(at) === at) return undefined;
  }
}

/** How Node loads the file (register-compile's NodeFormat, which imports this module). */
type NodeFormat = "module" | "commonjs";

/** ModuleKind.CommonJS and ModuleKind.ESNext: TypeScript 7's API takes options by their numbers. */
const MODULE_KIND: Record<NodeFormat, number> = { commonjs: 1, module: 99 };

/** The JavaScript Node runs for `fileName`, with tooltype's metadata in it. Throws on TT errors. */
export function compileOnTypeScript7(project: TypeScript7Project, fileName: string, format: NodeFormat): string {
  const text = fs.readFileSync(fileName, "utf8");
  const result = project.transform(fileName, text);
  const errors = result.diagnostics.filter((d) => d.category === "error").map((d) => formatHostDiagnostic(d));
  const warnings = result.diagnostics.filter((d) => d.category === "warning").map((d) => formatHostDiagnostic(d));
  stopOnErrors("tooltype/register", fileName, errors, warnings);
  const session = project.openSession();
  if (!session.transpiles) {
    throw new ProjectError(
      `tooltype/register: ${fileName} belongs to ${project.tsconfig}, whose only compiler is TypeScript ${session.ts.version}, and TypeScript 7.0's API cannot turn TypeScript into JavaScript (7.1's can). ` +
        `Install a JavaScript-API compiler next to it (npm i -D @typescript/typescript6), which tooltype/register then uses, or build with a bundler plugin or \`npx tooltype check\` instead.`,
    );
  }
  const module = /\.[cm]ts$/.test(fileName) ? {} : { module: MODULE_KIND[format] };
  const { js, map } = session.transpile(result.code ?? text, fileName, { ...module, sourceMap: true, inlineSourceMap: false, inlineSources: true, declaration: false, noEmit: false });
  const body = js.replace(/\n?\/\/# sourceMappingURL=.*\s*$/, "");
  if (map === undefined) return body;
  // The transpiled text's map points into the spliced text; the splice's map, into the file as written.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const remapping = require("@jridgewell/remapping") as Remapping;
  const composed = JSON.parse(result.map ? remapping([map, result.map.toString()], () => null).toString() : map) as object;
  const mapJson = JSON.stringify({ ...composed, sources: [fileName], sourcesContent: [text] });
  return `${body}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(mapJson).toString("base64")}\n`;
}
