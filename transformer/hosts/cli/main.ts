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
import { formatDiagnostics } from "../diagnostic-format";
import { ProjectError, typescriptFor } from "../project/tsconfig";
import { TypeScript7NeedsNode } from "../../readers/ts7/api";
import { tooltypeVersion } from "../project/tooltype-version";
import type * as ts7Project from "../project/typescript-7";
import type * as analyseModule from "./analyse";
import type { Analysis, ToolMeta } from "./analyse";
import type * as answersModule from "../project/cache/program-answers";
import type * as buildModule from "./build";
import type * as buildOnJsApiModule from "./build-on-js-api";
import { configPathOf, UsageError } from "./usage";
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

function noTools(a: Analysis): string {
  return `No tools in ${a.configPath} (${a.files} source file(s) read). tooltype looks for \`tool(...)\` calls and \`@tool\` methods that import tool from "tooltype"; check that the tsconfig's "include" covers the files that declare them.`;
}

/** What a command prints, in order: each text with the stream it goes to (1 stdout, 2 stderr). */
type Printed = [stream: 1 | 2, text: string][];

/**
 * `tooltype check`: the report from the persistent cache when nothing the project's program covers changed since
 * the check that made it (no compiler is loaded then), else from the analysis, recorded.
 */
async function check(project: string): Promise<number> {
  const { programAnswersFor } = require("../project/cache/program-answers") as typeof answersModule;
  const answers = programAnswersFor(configPathOf(project), "check");
  // The report names files relative to the folder the command runs in.
  const input = process.cwd();
  let report = reportOf(answers?.lookup("check", input));
  if (!report) {
    const { analyse, preloadFor } = require("./analyse") as typeof analyseModule;
    await preloadFor(project);
    const a = analyse(project, answers !== undefined);
    report = checkReport(a);
    if (answers && a.facts) answers.store("check", input, report, a.facts);
  }
  for (const [stream, text] of report.printed) (stream === 1 ? process.stdout : process.stderr).write(text);
  return report.status;
}

function checkReport(a: Analysis): { printed: Printed; status: number } {
  const printed: Printed = [];
  if (a.note) printed.push([2, `${a.note}\n\n`]);
  const errors = a.diagnostics.filter((d) => d.category === a.tsi.DiagnosticCategory.Error).length;
  const warnings = a.diagnostics.length - errors;
  if (a.diagnostics.length > 0) printed.push([1, `${formatDiagnostics(a.tsi, a.diagnostics)}\n\n`]);
  if (a.tools.length === 0 && a.diagnostics.length === 0) {
    printed.push([2, `${noTools(a)}\n`]);
    return { printed, status: 0 };
  }
  const files = new Set(a.diagnostics.map((d) => d.file?.fileName)).size;
  printed.push([
    1,
    a.diagnostics.length === 0
      ? `${a.tools.length} tool(s) checked, no problems.\n`
      : `Found ${errors} error(s) and ${warnings} warning(s) in ${files} file(s); ${a.tools.length} tool(s) checked.\n`,
  ]);
  return { printed, status: errors > 0 ? 1 : 0 };
}

/** A cached report, checked field by field (it is printed as it is). */
function reportOf(value: Record<string, unknown> | undefined): { printed: Printed; status: number } | undefined {
  if (!value || (value.status !== 0 && value.status !== 1) || !Array.isArray(value.printed)) return undefined;
  const printed = value.printed as unknown[];
  const ok = printed.every(
    (p) => Array.isArray(p) && p.length === 2 && (p[0] === 1 || p[0] === 2) && typeof p[1] === "string",
  );
  return ok ? { printed: printed as Printed, status: value.status } : undefined;
}

/**
 * `tooltype schema`: what it prints from the persistent cache when nothing the project's program covers changed since
 * the run that made it (as `check`; one entry per format), else from the analysis, recorded.
 */
function schema(project: string, format: Format, strict: boolean): number {
  const { programAnswersFor } = require("../project/cache/program-answers") as typeof answersModule;
  const answers = programAnswersFor(configPathOf(project), "schema");
  const name = `schema ${format}${strict ? " strict" : ""}`;
  // Diagnostics name files relative to the folder the command runs in.
  const input = process.cwd();
  let report = reportOf(answers?.lookup(name, input));
  if (!report) {
    const { analyse } = require("./analyse") as typeof analyseModule;
    const a = analyse(project, answers !== undefined);
    report = schemaReport(a, format, strict);
    if (answers && a.facts) answers.store(name, input, report, a.facts);
  }
  for (const [stream, text] of report.printed) (stream === 1 ? process.stdout : process.stderr).write(text);
  return report.status;
}

function schemaReport(a: Analysis, format: Format, strict: boolean): { printed: Printed; status: number } {
  const printed: Printed = [];
  if (a.note) printed.push([2, `${a.note}\n\n`]);
  const errors = a.diagnostics.filter((d) => d.category === a.tsi.DiagnosticCategory.Error);
  if (a.diagnostics.length > 0) printed.push([2, `${formatDiagnostics(a.tsi, a.diagnostics)}\n`]);
  if (errors.length > 0) {
    printed.push([
      2,
      `\n${errors.length} error(s): no schema printed (a tool with an error has no correct schema). Fix them, or see them with \`tooltype check\`.\n`,
    ]);
    return { printed, status: 1 };
  }
  if (a.tools.length === 0) {
    printed.push([2, `${noTools(a)}\n`]);
    return { printed, status: 1 };
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
  printed.push([1, `${JSON.stringify(out, null, 2)}\n`]);
  return { printed, status: 0 };
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
    return await check(project);
  }
  if (command === "schema") {
    const format = (values.format ?? "json") as Format;
    if (!FORMATS.includes(format))
      throw new UsageError(`Unknown --format ${values.format}; use one of ${FORMATS.join(", ")}.`);
    if (values.strict && format !== "openai")
      throw new UsageError("--strict rewrites schemas for OpenAI: use it with --format openai.");
    await (require("./analyse") as typeof analyseModule).preloadFor(project);
    return schema(project, format, values.strict ?? false);
  }
  if (command === "build") {
    await (require("./analyse") as typeof analyseModule).preloadFor(project);
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
