#!/usr/bin/env node
/**
 * The `tooltype` command: the transformer run over a whole project without emitting.
 *
 * - `tooltype check [-p tsconfig]`: every TT diagnostic, printed like tsc; exit status 1 when there is an error
 *   (warnings print and exit 0). For CI, and for builds whose compile step does not report tooltype's diagnostics.
 * - `tooltype schema [-p tsconfig] [--format json|openai|anthropic|gemini|mcp] [--strict]`: the tools' schemas as
 *   JSON, made by the runtime's own export functions from the derived metadata, so the output is what a
 *   `ToolRegistry` of all the project's tools exports.
 *
 * - `tooltype build [-p tsconfig] [-w]`: the project built to its outDir with the tools' metadata, on TypeScript 7
 *   (build.ts) or on a compiler with the JavaScript API (build-on-js-api.ts).
 *
 * Exit status 2 for a usage or tsconfig problem; 1 when the tools cannot be exported as asked.
 */
// First: on a Node too old for tooltype, one line saying so, before anything else loads.
import "../node-floor";
// Then, so that the modules below load through Node's compile cache where Node has one.
import "./compile-cache";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type * as ts from "typescript";
import tooltypeTransformer, { type TooltypeTransformerExtras } from "../../index";
import { formatDiagnostics } from "../diagnostic-format";
import {
  createTsconfigProgram,
  hasJavaScriptApiCompiler,
  ProjectError,
  projectSourceFiles,
  readTsconfig,
  typescriptFor,
} from "../project/tsconfig";
import { analyseTypeScript7 } from "../../readers/ts7/analyse";
import {
  isTypeScript7,
  loadTypeScript7,
  preloadTypeScript7,
  TypeScript7NeedsNode,
  TypeScript7Session,
} from "../../readers/ts7/api";
import { tspcOnTypeScript7Note } from "../project/plugin-entry";
import { tooltypeVersion } from "../project/tooltype-version";
import type * as ts7Project from "../project/typescript-7";
import type * as buildModule from "./build";
import type * as buildOnJsApiModule from "./build-on-js-api";
import type * as watchModule from "./watch";

const FORMATS = ["json", "openai", "anthropic", "gemini", "mcp"] as const;
type Format = (typeof FORMATS)[number];

const HELP = `Usage:
  tooltype check  [-p <tsconfig>]
  tooltype schema [-p <tsconfig>] [--format json|openai|anthropic|gemini|mcp] [--strict]
  tooltype build  [-p <tsconfig>] [-w]

Commands:
  check    Print every tooltype diagnostic (TT codes) of the project, without emitting.
           Exit status 1 when there is an error; warnings are printed and exit 0.
  schema   Print the schemas of the project's tools as JSON, in a model API's tools format:
             json       { name, description, parameters, returns? } per tool (default)
             openai     Chat Completions "tools" (--strict: OpenAI strict mode)
             anthropic  Messages API "tools"
             gemini     [{ functionDeclarations }]
             mcp        MCP tools/list descriptors
  build    Build the project to its outDir, like tsc, with the tools' metadata, on any supported
           TypeScript (5.5 to 6.0 and 7); -w rebuilds on every change.

Options:
  -p, --project <path>  tsconfig.json, or the folder that holds it (default: ./tsconfig.json)
  --format <name>       schema output format (see above)
  --strict              with --format openai: rewrite the schemas into OpenAI's strict subset
  -w, --watch           with build: rebuild when a source file changes
  -v, --version         tooltype's version
  -h, --help            this text
`;

class UsageError extends Error {}

type ToolMeta = Parameters<NonNullable<TooltypeTransformerExtras["onToolMeta"]>>[0];

/** The part of the runtime's public API `schema` uses. */
interface Runtime {
  tool(fn: () => void, options: object, meta: ToolMeta): unknown;
  ToolRegistry: new (
    sources: unknown[],
  ) => {
    toOpenAITools(options?: { strict: boolean }): unknown;
    toAnthropicTools(): unknown;
    toGeminiTools(): unknown;
    toMCPTools(): unknown;
  };
}

interface Analysis {
  diagnostics: ts.Diagnostic[];
  tools: ToolMeta[];
  files: number;
  configPath: string;
  tsi: typeof ts;
}

/** The tsconfig `-p` names: the file, or tsconfig.json in the folder. */
function configPathOf(project: string): string {
  return path.resolve(project.endsWith(".json") ? project : path.join(project, "tsconfig.json"));
}

/**
 * Imports TypeScript 7's API when the project reads types through it, before the command's synchronous reads: its
 * modules are ES modules, which Node 20 before 20.19 cannot `require`.
 */
async function preloadFor(project: string): Promise<void> {
  const configDir = path.dirname(configPathOf(project));
  const ts7 = typeScript7Of(configDir);
  if (ts7 && !hasJavaScriptApiCompiler(configDir)) await preloadTypeScript7(ts7);
}

/** Runs the transformer over every project file in memory: its diagnostics and each tool's metadata. */
function analyse(project: string): Analysis {
  const given = configPathOf(project);
  const configDir = path.dirname(given);
  // The project's typescript is TypeScript 7 and it has no JavaScript-API compiler: read through TypeScript 7's API.
  const ts7 = typeScript7Of(configDir);
  if (ts7 && !hasJavaScriptApiCompiler(configDir)) return analyseOnTypeScript7(ts7, given);
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
  return { diagnostics, tools, files: files.length, configPath, tsi };
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
function analyseOnTypeScript7(packageDir: string, configPath: string): Analysis {
  if (!fs.existsSync(configPath))
    throw new UsageError(
      `No tsconfig.json at ${configPath}. Pass the path of the project's tsconfig (or its folder) with -p.`,
    );
  const note = tspcOnTypeScript7Note(configPath);
  if (note) process.stderr.write(`${note}\n\n`);
  const session = new TypeScript7Session(loadTypeScript7(packageDir), configPath);
  try {
    const a = analyseTypeScript7(session);
    return { diagnostics: a.diagnostics, tools: a.tools, files: a.files.length, configPath, tsi: a.tsi };
  } finally {
    session.close();
  }
}

function noTools(a: Analysis): string {
  return `No tools in ${a.configPath} (${a.files} source file(s) read). tooltype looks for \`tool(...)\` calls and \`@tool\` methods that import tool from "tooltype"; check that the tsconfig's "include" covers the files that declare them.`;
}

function check(project: string): number {
  const a = analyse(project);
  const errors = a.diagnostics.filter((d) => d.category === a.tsi.DiagnosticCategory.Error).length;
  const warnings = a.diagnostics.length - errors;
  if (a.diagnostics.length > 0) process.stdout.write(`${formatDiagnostics(a.tsi, a.diagnostics)}\n\n`);
  if (a.tools.length === 0 && a.diagnostics.length === 0) {
    process.stderr.write(`${noTools(a)}\n`);
    return 0;
  }
  const files = new Set(a.diagnostics.map((d) => d.file?.fileName)).size;
  process.stdout.write(
    a.diagnostics.length === 0
      ? `${a.tools.length} tool(s) checked, no problems.\n`
      : `Found ${errors} error(s) and ${warnings} warning(s) in ${files} file(s); ${a.tools.length} tool(s) checked.\n`,
  );
  return errors > 0 ? 1 : 0;
}

function schema(project: string, format: Format, strict: boolean): number {
  const a = analyse(project);
  const errors = a.diagnostics.filter((d) => d.category === a.tsi.DiagnosticCategory.Error);
  if (a.diagnostics.length > 0) process.stderr.write(`${formatDiagnostics(a.tsi, a.diagnostics)}\n`);
  if (errors.length > 0) {
    process.stderr.write(
      `\n${errors.length} error(s): no schema printed (a tool with an error has no correct schema). Fix them, or see them with \`tooltype check\`.\n`,
    );
    return 1;
  }
  if (a.tools.length === 0) {
    process.stderr.write(`${noTools(a)}\n`);
    return 1;
  }
  // The runtime's own export path: one registry of every tool, as an application would build it. Loaded by the
  // package's name, as an application loads it: the transformer shares only the metadata seam with the runtime.
  const { tool, ToolRegistry } = require("tooltype") as Runtime;
  const registry = new ToolRegistry(a.tools.map((meta) => tool(function unused() {}, {}, meta)));
  const out =
    format === "openai"
      ? registry.toOpenAITools(strict ? { strict } : undefined)
      : format === "anthropic"
        ? registry.toAnthropicTools()
        : format === "gemini"
          ? registry.toGeminiTools()
          : format === "mcp"
            ? registry.toMCPTools()
            : a.tools.map(({ name, description, parameters, returns }) => ({
                name,
                description,
                parameters,
                ...(returns ? { returns } : {}),
              }));
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  return 0;
}

function build(project: string, watching: boolean): number {
  // Loaded here, not at the top: `check` and `schema` never build, and these bring the splicing of module text, source
  // maps and the validator generator with them.
  const { typeScript7ProjectFor } = require("../project/typescript-7") as typeof ts7Project;
  const { buildOnce, typeScript7Rebuilder } = require("./build") as typeof buildModule;
  const { watch } = require("./watch") as typeof watchModule;
  const { buildOnJavaScriptApi } = require("./build-on-js-api") as typeof buildOnJsApiModule;
  const given = configPathOf(project);
  if (!fs.existsSync(given))
    throw new UsageError(
      `No tsconfig.json at ${given}. Pass the path of the project's tsconfig (or its folder) with -p.`,
    );
  const ts7 = typeScript7ProjectFor(given, undefined);
  if (!ts7) {
    // A compiler with the JavaScript API: its program emits with tooltype's transformer, as tspc's does.
    const tsi = typescriptFor(path.dirname(given));
    if (!watching) return buildOnJavaScriptApi(tsi, given).status;
    let last: ts.Program | undefined;
    watch(path.dirname(given), {
      build: () => {
        const built = buildOnJavaScriptApi(tsi, given, process.stdout, last);
        last = built.program;
        return built.errors;
      },
      // The compiler host reads every file again for each program; the old program lends what did not change.
      changed: () => {},
      close: () => {},
    });
    return 0;
  }
  if (watching) {
    watch(path.dirname(given), typeScript7Rebuilder(ts7));
    return 0;
  }
  try {
    return buildOnce(ts7).status;
  } finally {
    ts7.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      project: { type: "string", short: "p" },
      format: { type: "string" },
      strict: { type: "boolean" },
      watch: { type: "boolean", short: "w" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  const [command, ...rest] = positionals;
  if (values.version || command === "version") {
    process.stdout.write(`${tooltypeVersion()}\n`);
    return 0;
  }
  if (values.help || command === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (rest.length > 0) throw new UsageError(`Unexpected argument ${rest[0]}.`);
  const project = values.project ?? "tsconfig.json";
  if (command === "check") {
    if (values.format !== undefined || values.strict)
      throw new UsageError("--format and --strict belong to `tooltype schema`.");
    await preloadFor(project);
    return check(project);
  }
  if (command === "schema") {
    const format = (values.format ?? "json") as Format;
    if (!FORMATS.includes(format))
      throw new UsageError(`Unknown --format ${values.format}; use one of ${FORMATS.join(", ")}.`);
    if (values.strict && format !== "openai")
      throw new UsageError("--strict rewrites schemas for OpenAI: use it with --format openai.");
    await preloadFor(project);
    return schema(project, format, values.strict ?? false);
  }
  if (command === "build") {
    await preloadFor(project);
    return build(project, values.watch ?? false);
  }
  throw new UsageError(
    command === undefined
      ? "Missing command: check, schema or build."
      : `Unknown command ${command}: use check, schema or build.`,
  );
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      (error instanceof TypeError && (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS"))
    ) {
      process.stderr.write(`tooltype: ${error.message}\n\n${HELP}`);
      process.exitCode = 2;
    } else if (error instanceof ProjectError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else if (
      (error as { name?: string }).name === "ToolRegistrationError" ||
      (error as { name?: string }).name === "ToolExportError"
    ) {
      // The tools cannot be exported as asked (a clash of names, a schema outside strict mode): the project's problem.
      process.stderr.write(`tooltype: ${(error as Error).message}\n`);
      process.exitCode = 1;
    } else if (error instanceof TypeScript7NeedsNode) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  },
);
