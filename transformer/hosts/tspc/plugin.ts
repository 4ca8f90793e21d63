/**
 * tooltype's compile-time half as tspc (ts-patch) loads it: `{ "transform": "tooltype/transformer" }` in tsconfig
 * `compilerOptions.plugins`. It is the compiler core with, for incremental and watch builds, the dependency tracker
 * that re-emits tool files whose types changed in another file; only tspc re-emits, so only this host hands it in;
 * and the persistent schema cache (emit-cache.ts), so a file whose text and dependencies did not change since an earlier
 * build gets its metadata without tooltype reading a type.
 *
 * Under plain TypeScript (compiler API), call it the way ts-patch does and pass the TypeScript module the program
 * was made with: `program.emit(..., { before: [tooltype(program, {}, { ts, addDiagnostic })] })`.
 *
 * @module tooltype/transformer
 */
import type * as ts from "typescript";
import { resolveTypeScript } from "../../compat";
import tooltypeCore, { type TooltypePluginConfig, type TooltypeTransformerExtras } from "../../index";
import { emitCacheFor } from "../project/cache/emit-cache";
import { trackDependencies } from "../project/incremental";

export type { CompiledUsage, TooltypePluginConfig, TooltypeTransformerExtras } from "../../index";

/**
 * The ts-patch plugin (`"transform": "tooltype/transformer"` in tsconfig), also callable as a `before` transformer
 * of `program.emit`: it compiles every `@tool`, `tool(fn)` and `structuredOutput<T>()` of the program into metadata
 * (schema, descriptions, validator) and reports what cannot be a schema as `TT` diagnostics.
 * @param program The program being emitted: its type checker reads the tools' types.
 * @param config The plugin entry's options from tsconfig.
 * @param extras The TypeScript module that built the program and the diagnostics sink, as ts-patch passes them.
 */
export default function tooltypeTransformer(
  program: ts.Program,
  config: TooltypePluginConfig = {},
  extras: TooltypeTransformerExtras = {},
): ts.TransformerFactory<ts.SourceFile> {
  const tsi = resolveTypeScript(extras.ts);
  const tracker = trackDependencies(tsi, program, program.getTypeChecker(), config, extras.diagnostics);
  return tooltypeCore(program, config, extras, tracker, emitCacheFor(tsi, program, config));
}
