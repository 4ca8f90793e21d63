/**
 * The transformer core over a TypeScript 7 project: every tool's metadata and every TT diagnostic, as `tooltype
 * check` and `tooltype schema` need them, and, for hosts that write the metadata into a module's text, each
 * compiled usage with its metadata as text (`onCompiled`). The same core as on the JavaScript API (the visitor of
 * index.ts, tool-meta, the schema reader) runs on TypeScript 7's nodes, asking types through the facade's reader.
 */
import type * as ts from "typescript";
import {
  transformerOn,
  type CompiledUsage,
  type TooltypePluginConfig,
  type TooltypeTransformerExtras,
} from "../../index";
import type { ValidatorCompiler } from "../../validator";
import type { TypeScript7Session } from "./api";
import { CheckerFacade, typeScript7Namespace } from "./facade";
import type { TS } from "../../compat";

type ToolMeta = Parameters<NonNullable<TooltypeTransformerExtras["onToolMeta"]>>[0];

export interface TypeScript7Analysis {
  /** TypeScript 7's AST helpers and flags as a `typeof ts`, which the diagnostics are formatted with. */
  tsi: TS;
  diagnostics: ts.Diagnostic[];
  tools: ToolMeta[];
  /** The file of each tool, in the order of `tools`. */
  toolFiles: string[];
  /** The project's own source files (not declarations, not dependencies), in the program's order. */
  files: ts.SourceFile[];
}

/** What reading one file gave. */
export interface FileReading {
  file: ts.SourceFile;
  diagnostics: ts.Diagnostic[];
  tools: ToolMeta[];
  /** Each compiled usage with its metadata as text (validators included unless the plugin options turn them off). */
  usages: CompiledUsage[];
  /**
   * The files of every declaration the core was handed while reading this file's tools (symbols', a type's symbol
   * and alias symbol, signatures'), the standard library's and packages' included, as TypeScript 7 names them.
   */
  visited: string[];
}

export interface ReaderOptions {
  pluginConfig?: TooltypePluginConfig;
  /** Build each usage's metadata text (with validators) for `FileReading.usages`; without it, metadata only. */
  splice?: boolean;
  /** Kept across readers by hosts that read many programs (watch mode): a schema's validator is compiled once. */
  validatorCompiler?: ValidatorCompiler;
}

/**
 * The core bound to the session's current program. A reader answers from what it has asked (the facade's memory),
 * so it serves one program: after `session.update`, `current()` makes a new one.
 */
export class TypeScript7Reader {
  readonly tsi: TS;
  readonly generation: number;
  private readonly facade: CheckerFacade;
  private readonly transform: (file: ts.SourceFile) => unknown;
  private sink: Omit<FileReading, "file" | "visited"> = { diagnostics: [], tools: [], usages: [] };

  constructor(
    readonly session: TypeScript7Session,
    options: ReaderOptions = {},
  ) {
    this.generation = session.generation;
    const tsi = (this.tsi = typeScript7Namespace(session));
    const compilerOptions = session.compilerOptions() as ts.CompilerOptions;
    this.facade = new CheckerFacade(session, compilerOptions);
    const reader = this.facade.reader(tsi);
    // The core asks a program for its options only: its types are asked through the reader.
    const program = { getCompilerOptions: () => compilerOptions };
    const config = options.splice ? (options.pluginConfig ?? {}) : { ...options.pluginConfig, validators: false };
    const factory = transformerOn(reader, program, config, {
      ts: tsi,
      analyseOnly: true,
      validatorCompiler: options.validatorCompiler,
      // The host writes `@tool` out as a static block (the hosts' module transform), as on the JavaScript API.
      rewritesDecorators: options.splice,
      addDiagnostic: (d) => this.sink.diagnostics.push(d),
      onToolMeta: (meta) => this.sink.tools.push(meta),
      onCompiled: options.splice ? (usage) => this.sink.usages.push(usage) : undefined,
    });
    this.transform = factory({
      factory: (tsi as unknown as { factory: ts.NodeFactory }).factory,
    } as ts.TransformationContext);
  }

  /** The project's own source file names: no declarations, nothing from node_modules. */
  sourceFileNames(): string[] {
    const names = this.session.sourceFileNames();
    return names.filter((name) => !/\.d\.[cm]?ts$/.test(name) && !/[\\/]node_modules[\\/]/.test(name));
  }

  /** Reads one file of the program; undefined when the program has no such file. */
  readFile(fileName: string): FileReading | undefined {
    const { session } = this;
    session.reading = fileName;
    const trace = session.trace;
    try {
      trace?.mark("the host's own work");
      const file = session.ask(() => session.program.getSourceFile(fileName)) as ts.SourceFile | undefined;
      trace?.mark("getting source files");
      if (!file) return undefined;
      this.sink = { diagnostics: [], tools: [], usages: [] };
      const visited = (this.facade.visited = new Set([file.fileName]));
      this.facade.prefetchFile(this.tsi, file);
      trace?.mark("asking ahead (the calls, the tools' types)");
      this.transform(file);
      trace?.mark("reading tools");
      return { file, ...this.sink, visited: [...visited] };
    } finally {
      this.facade.visited = undefined;
      session.reading = undefined;
    }
  }
}

/** Reads every tool of the session's project. */
export function analyseTypeScript7(
  session: TypeScript7Session,
  pluginConfig: TooltypePluginConfig = {},
): TypeScript7Analysis {
  const reader = new TypeScript7Reader(session, { pluginConfig });
  const out: TypeScript7Analysis = { tsi: reader.tsi, diagnostics: [], tools: [], toolFiles: [], files: [] };
  for (const name of reader.sourceFileNames()) {
    const read = reader.readFile(name);
    if (!read) continue;
    out.files.push(read.file);
    out.diagnostics.push(...read.diagnostics);
    out.tools.push(...read.tools);
    out.toolFiles.push(...read.tools.map(() => read.file.fileName));
  }
  return out;
}
