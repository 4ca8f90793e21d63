/**
 * `tooltype build` on a compiler with the JavaScript API (TypeScript 5.5 to 6.0): the tsconfig's program emitted
 * with tooltype's transformer, as `tspc` runs it, without a patched compiler. TypeScript's own errors are printed
 * with tooltype's (build-diagnostics.ts) and set the exit status as tsc's do; a TT error writes nothing, as on
 * TypeScript 7 (a tool with an error has no correct schema). A file whose text and dependencies did not change since an
 * earlier build gets its metadata from the persistent schema cache (emit-cache.ts), its types not read.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { TS } from "../../compat";
import tooltypeTransformer from "../../index";
import { fromJavaScriptApi, printBuildDiagnostics } from "./build-diagnostics";
import { emitCacheFor } from "../project/cache/emit-cache";
import { createTsconfigProgram, readTsconfig } from "../project/tsconfig";

/**
 * Builds once; the exit status as tsc's: 0, 2 with errors and the output written, 1 when nothing was written (a TT
 * error, or TypeScript's `noEmitOnError`).
 */
export function buildOnJavaScriptApi(
  tsi: TS,
  configPath: string,
  out: NodeJS.WritableStream = process.stdout,
  oldProgram?: ts.Program,
): { status: number; errors: number; program: ts.Program } {
  const { program, pluginConfig } = createTsconfigProgram(
    tsi,
    readTsconfig(tsi, configPath, { hint: "Pass the path of the project's tsconfig (or its folder) with -p." }),
    {},
    [],
    oldProgram,
  );
  const own = new Set<ts.Diagnostic>();
  const transformer = tooltypeTransformer(
    program,
    pluginConfig,
    { ts: tsi, addDiagnostic: (d) => own.add(d) },
    undefined,
    emitCacheFor(tsi, program, pluginConfig),
  );
  const written: [string, string][] = [];
  const checked = [...tsi.getPreEmitDiagnostics(program)];
  const emitted = program.emit(undefined, (name, text) => written.push([name, text]), undefined, false, {
    before: [transformer],
  });
  const ttErrors = [...own].some((d) => d.category === tsi.DiagnosticCategory.Error);
  const writes = !ttErrors && !emitted.emitSkipped;
  const diagnostics = [...checked, ...emitted.diagnostics, ...own].map((d) => fromJavaScriptApi(tsi, d));
  const errors = printBuildDiagnostics(out, diagnostics, { written: writes });
  if (ttErrors) return { status: 1, errors, program };
  for (const [name, text] of written) {
    fs.mkdirSync(path.dirname(name), { recursive: true });
    fs.writeFileSync(name, text);
  }
  return { status: errors === 0 ? 0 : writes ? 2 : 1, errors, program };
}
