/**
 * `tooltype/ts-jest`: tooltype's transformer for Jest through ts-jest's `astTransformers.before`, so that tests run
 * by Jest see the same metadata as the build. ts-jest asks a transformer module for `name`, `version` (part of its
 * cache key) and `factory(compiler, options)`.
 *
 * Owns what ts-jest differs in: the program. ts-jest compiles each file through a language service whose program
 * changes as files are compiled, but hands transformers the compiler object, whose `program` is the first one; the
 * factory takes the program the file being emitted belongs to. A TT error fails the test file with every error's
 * position; warnings are printed once. ts-jest's `isolatedModules` mode compiles each file alone, without the types
 * of its imports, so it is refused with a message.
 *
 * @module tooltype/ts-jest
 */
import type * as ts from "typescript";
import type { TS } from "../../compat";
import type { TooltypePluginConfig } from "../../index";
import { formatByCategory, stopOnErrors } from "../diagnostic-format";
import { transformerFor } from "../splice/program-transformer";
import { tooltypeBuild } from "../project/tooltype-version";

/** The part of ts-jest's compiler object (`TsCompilerInstance`) this module reads. */
interface TsJestCompiler {
  program?: ts.Program;
  configSet: { compilerModule: TS; isolatedModules?: boolean };
  /** ts-jest's language service (not public API): where the current program is. */
  _languageService?: ts.LanguageService;
}

export const name = "tooltype";

/** Part of ts-jest's cache key: a new tooltype's output is not taken from the cache of an older one. */
export const version: string = tooltypeBuild();

export function factory(
  compiler: TsJestCompiler,
  options: TooltypePluginConfig = {},
): ts.TransformerFactory<ts.SourceFile> {
  const tsi = compiler.configSet.compilerModule;
  if (compiler.configSet.isolatedModules) {
    throw new Error(
      "tooltype/ts-jest reads the types of each tool's parameters, which ts-jest's isolatedModules mode does not have (it compiles each file alone). Turn isolatedModules off in ts-jest's options, or test with Vitest and tooltype/vite.",
    );
  }
  return (context) => (sourceFile) => {
    const program = programOf(compiler, sourceFile);
    const transformer = transformerFor(program, options, tsi);
    const result = transformer.factory(context)(sourceFile);
    const found = transformer.sink.splice(0);
    const { errors, warnings } = formatByCategory(tsi, found);
    stopOnErrors("tooltype/ts-jest", sourceFile.fileName, errors, warnings);
    return result;
  };
}

/** The program `sourceFile` was taken from: the language service's current one, else the one ts-jest handed over. */
function programOf(compiler: TsJestCompiler, sourceFile: ts.SourceFile): ts.Program {
  for (const program of [compiler._languageService?.getProgram(), compiler.program]) {
    if (program?.getSourceFile(sourceFile.fileName) === sourceFile) return program;
  }
  throw new Error(
    `tooltype/ts-jest: ${sourceFile.fileName} is not part of the program ts-jest compiles it with, so its tools' types cannot be read: this version of ts-jest hands transformers its program in a way tooltype does not know. tooltype/ts-jest is tested with ts-jest 29.4; use that release, or test with Vitest and tooltype/vite.`,
  );
}
