/**
 * What `tooltype check` and `tooltype schema` read of a project: every project file run through the transformer in
 * memory (on the JavaScript API, or on TypeScript 7's API where the project's only compiler is TypeScript 7), each
 * TT diagnostic and each tool's metadata, and what the program was made from (its facts, the persistent cache's key
 * of `check`'s report). Loaded by the command only when it reads a project.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import tooltypeTransformer, { type TooltypeTransformerExtras } from "../../index";
import {
  createTsconfigProgram,
  hasJavaScriptApiCompiler,
  projectSourceFiles,
  readTsconfig,
  typescriptFor,
} from "../project/tsconfig";
import { analyseTypeScript7 } from "../../readers/ts7/analyse";
import { isTypeScript7, preloadTypeScript7 } from "../../readers/ts7/api";
import { factsOfProgram, factsOfTypeScript7, type ProgramFacts } from "../project/cache/program-facts";
import { tspcOnTypeScript7Note } from "../project/plugin-entry";
import { TypeScript7Project } from "../project/typescript-7";
import { configPathOf, UsageError } from "./usage";

export type ToolMeta = Parameters<NonNullable<TooltypeTransformerExtras["onToolMeta"]>>[0];

export interface Analysis {
  diagnostics: ts.Diagnostic[];
  tools: ToolMeta[];
  files: number;
  configPath: string;
  tsi: typeof ts;
  /** A line for stderr before the output (tspc's plugin entry on TypeScript 7, which tspc cannot run). */
  note: string | undefined;
  /** What the program was made from, when asked for. */
  facts: ProgramFacts | undefined;
}

/**
 * Imports TypeScript 7's API when the project reads types through it, before the command's synchronous reads: its
 * modules are ES modules, which Node 20 before 20.19 cannot `require`.
 */
export async function preloadFor(project: string): Promise<void> {
  const configDir = path.dirname(configPathOf(project));
  const ts7 = typeScript7Of(configDir);
  if (ts7 && !hasJavaScriptApiCompiler(configDir)) await preloadTypeScript7(ts7);
}

/**
 * Runs the transformer over every project file in memory: its diagnostics and each tool's metadata; with `withFacts`,
 * the program's facts too.
 */
export function analyse(project: string, withFacts = false): Analysis {
  const given = configPathOf(project);
  const configDir = path.dirname(given);
  // The project's typescript is TypeScript 7 and it has no JavaScript-API compiler: read through TypeScript 7's API.
  const ts7 = typeScript7Of(configDir);
  if (ts7 && !hasJavaScriptApiCompiler(configDir)) return analyseOnTypeScript7(ts7, given, withFacts);
  const tsi = typescriptFor(configDir);
  const { program, pluginConfig, configPath } = createTsconfigProgram(
    tsi,
    readTsconfig(tsi, project, { hint: "Pass the path of the project's tsconfig (or its folder) with -p." }),
  );
  const diagnostics: ts.Diagnostic[] = [];
  const tools: ToolMeta[] = [];
  const files = projectSourceFiles(program);
  // Validators add no diagnostics and are not part of a schema: not compiled here. Nothing is emitted either, so the
  // files are only walked (as the TypeScript 7 reader walks them), not rebuilt with the metadata's nodes.
  const factory = tooltypeTransformer(
    program,
    { ...pluginConfig, validators: false },
    {
      ts: tsi,
      analyseOnly: true,
      addDiagnostic: (d) => diagnostics.push(d),
      onToolMeta: (meta) => tools.push(meta),
    },
  );
  tsi.transform(files, [factory], program.getCompilerOptions()).dispose();
  // The program's facts need of the language service only its tsconfig and compiler: this program has the same.
  const facts = withFacts ? factsOfProgram({ tsconfig: configPath, ts: tsi }, program, pluginConfig) : undefined;
  return { diagnostics, tools, files: files.length, configPath, tsi, note: undefined, facts };
}

/** The folder of the project's `typescript` package when it is TypeScript 7 (the native compiler). */
function typeScript7Of(projectDir: string): string | undefined {
  try {
    const dir = path.dirname(require.resolve("typescript/package.json", { paths: [projectDir] }));
    return isTypeScript7(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** `analyse` through TypeScript 7's API: one tsc --api process for the command, closed before it returns. */
function analyseOnTypeScript7(packageDir: string, configPath: string, withFacts: boolean): Analysis {
  if (!fs.existsSync(configPath))
    throw new UsageError(
      `No tsconfig.json at ${configPath}. Pass the path of the project's tsconfig (or its folder) with -p.`,
    );
  const note = tspcOnTypeScript7Note(configPath);
  // The module transform's project: its session is the one `tsc --api` process, and it tells the program's facts.
  const project = new TypeScript7Project(configPath, packageDir, undefined);
  try {
    const a = analyseTypeScript7(project.openSession());
    const facts = withFacts ? factsOfTypeScript7(project) : undefined;
    return { diagnostics: a.diagnostics, tools: a.tools, files: a.files.length, configPath, tsi: a.tsi, note, facts };
  } finally {
    project.close();
  }
}
