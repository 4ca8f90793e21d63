/**
 * The transformer core over a TypeScript 7 project, without emitting: every tool's metadata and every TT
 * diagnostic, as `tooltype check` and `tooltype schema` need them. The same core as on the JavaScript API (the
 * visitor of index.ts, tool-meta, the type reader) runs on TypeScript 7's nodes and the checker facade.
 */
import type * as ts from "typescript";
import tooltypeTransformer, { type TooltypePluginConfig, type TooltypeTransformerExtras } from "../index";
import type { TypeScript7Session } from "./api";
import { CheckerFacade, typeScript7Namespace } from "./facade";

type ToolMeta = Parameters<NonNullable<TooltypeTransformerExtras["onToolMeta"]>>[0];

export interface TypeScript7Analysis {
  diagnostics: ts.Diagnostic[];
  tools: ToolMeta[];
  /** The file of each tool, in the order of `tools`. */
  toolFiles: string[];
  /** The project's own source files (not declarations, not dependencies), in the program's order. */
  files: ts.SourceFile[];
}

/** Reads every tool of the session's project. */
export function analyseTypeScript7(session: TypeScript7Session, pluginConfig: TooltypePluginConfig = {}): TypeScript7Analysis {
  const tsi = typeScript7Namespace(session);
  const options = session.ask(() => session.program.getCompilerOptions()) as ts.CompilerOptions;
  const facade = new CheckerFacade(session, options);
  const checker = facade.checker(tsi);
  const program = { getTypeChecker: () => checker, getCompilerOptions: () => options } as unknown as ts.Program;
  const diagnostics: ts.Diagnostic[] = [];
  const tools: ToolMeta[] = [];
  const toolFiles: string[] = [];
  const factory = tooltypeTransformer(program, { ...pluginConfig, validators: false }, {
    ts: tsi,
    analyseOnly: true,
    addDiagnostic: (d) => diagnostics.push(d),
    onToolMeta: (meta, fn) => {
      tools.push(meta);
      toolFiles.push(fn.getSourceFile().fileName);
    },
  });
  const transform = factory({ factory: (tsi as unknown as { factory: ts.NodeFactory }).factory } as ts.TransformationContext);
  const names = session.ask(() => session.program.getSourceFileNames()) as string[];
  const files: ts.SourceFile[] = [];
  for (const name of names) {
    if (/\.d\.[cm]?ts$/.test(name) || /[\\/]node_modules[\\/]/.test(name)) continue;
    session.reading = name;
    const file = session.ask(() => session.program.getSourceFile(name)) as ts.SourceFile | undefined;
    if (!file) continue;
    files.push(file);
    facade.prefetchFile(tsi, file);
    transform(file);
  }
  session.reading = undefined;
  return { diagnostics, tools, toolFiles, files };
}
