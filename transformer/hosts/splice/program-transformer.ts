/**
 * One tooltype transformer per program, for the hosts that transform file by file (the bundler plugins, ts-jest), as
 * tspc makes one per program: its validator cache then serves every file of the program. The diagnostics of the file
 * being transformed collect in `sink`, emptied each time the transformer is asked for.
 */
import type * as ts from "typescript";
import type { TS } from "../../compat";
import tooltypeTransformer, { type TooltypePluginConfig } from "../../index";
import type { ValidatorCompiler } from "../../validator";

export interface ProgramTransformer {
  factory: ts.TransformerFactory<ts.SourceFile>;
  sink: ts.Diagnostic[];
}

const transformers = new WeakMap<ts.Program, ProgramTransformer>();

/**
 * The program's transformer, made on first need with `config`, its sink empty. `rewritesDecorators`: the caller
 * writes `@tool` decorators out as plain JavaScript (transform-module.ts), ts-jest emits them as TypeScript does.
 */
export function transformerFor(
  program: ts.Program,
  config: TooltypePluginConfig,
  tsi: TS,
  validatorCompiler?: ValidatorCompiler,
  rewritesDecorators = false,
): ProgramTransformer {
  let transformer = transformers.get(program);
  if (!transformer) {
    const sink: ts.Diagnostic[] = [];
    transformer = {
      factory: tooltypeTransformer(program, config, {
        ts: tsi,
        addDiagnostic: (d) => sink.push(d),
        validatorCompiler,
        rewritesDecorators,
      }),
      sink,
    };
    transformers.set(program, transformer);
  }
  transformer.sink.length = 0;
  return transformer;
}
