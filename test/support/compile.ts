/**
 * Compiles fixture sources with the real TypeScript compiler and tooltype's transformer, the way a user's build
 * would, then loads the output. Fixtures live in a package of their own under .test-build/fixtures/, with
 * node_modules/tooltype linked to the test build (a package laid out like dist/, scripts/build-tests.mjs): like a
 * user's project, and unlike files inside tooltype itself, so a fixture's own function called `tool` is not
 * mistaken for tooltype's. A fixture type-checks against the sources' declarations, and at run time loads the
 * copy of tooltype this process loads (the test build in the unit tier, dist/ in the integration tier).
 *
 * Every schema the transformer emits (a tool's `parameters` and `returns`, a structured output's `schema`) is
 * checked against JSON Schema 2020-12's meta-schema and compiled in ajv's strict mode; a compile that emits an
 * invalid one throws, so every test that compiles a fixture checks that too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import tooltype from "tooltype/transformer";
import { schemaDocumentProblem } from "./schema";

export interface CompileOptions {
  /** The TypeScript module to compile with (a different version under an npm alias); default: the project's. */
  ts?: typeof ts;
  experimentalDecorators?: boolean;
  /** `strict` (default true). */
  strict?: boolean;
  /** Compilation target (default ES2022). */
  target?: ts.ScriptTarget;
  /** The plugin entry's options, as in tsconfig (`{ "transform": "tooltype/transformer", ... }`). */
  pluginConfig?: Record<string, unknown>;
  /** Extra files next to main.ts, by file name. */
  files?: Record<string, string>;
}

export interface FixtureDiagnostic {
  /** "TT1001", or "TS2322" for TypeScript's own. */
  code: string;
  category: "error" | "warning" | "message" | "suggestion";
  message: string;
  file: string;
  /** 1-based line and column of the start. */
  line: number;
  column: number;
  /** The source text the diagnostic spans. */
  text: string;
  /** Related locations (e.g. where a nested property is declared): file, line and spanned text. */
  related: { file: string; line: number; text: string; message: string }[];
}

export interface CompiledFixture {
  /** Emitted JavaScript by file name (main.js, ...). */
  js: Record<string, string>;
  /** tooltype's and TypeScript's diagnostics (semantic and emit). */
  diagnostics: FixtureDiagnostic[];
  /** Only tooltype's diagnostics. */
  tooltype: FixtureDiagnostic[];
  dir: string;
  /** Requires the emitted main.js (or another emitted module) and returns its exports. */
  load<T = Record<string, unknown>>(file?: string): T;
}

const root = path.resolve(__dirname, "../../..");
const fixturesDir = path.join(root, ".test-build", "fixtures");
let counter = 0;

/** The fixtures' package, made once; test files running at the same time may race to make it, and each may win. */
function prepareFixturePackage(): void {
  const link = path.join(fixturesDir, "node_modules", "tooltype");
  if (fs.existsSync(link)) return;
  fs.mkdirSync(path.join(fixturesDir, "node_modules"), { recursive: true });
  // Written whole under its name (a rename), so that no process reads a half-written manifest.
  const draft = path.join(fixturesDir, `package.json.${process.pid}`);
  fs.writeFileSync(draft, JSON.stringify({ name: "tooltype-fixtures", private: true }));
  fs.renameSync(draft, path.join(fixturesDir, "package.json"));
  try {
    fs.symlinkSync(path.join(root, ".test-build"), link, "dir");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

export function compileFixture(source: string, options: CompileOptions = {}): CompiledFixture {
  return compileProgram({ "main.ts": source, ...options.files }, options);
}

/**
 * Compiles several files as one program (one checker, one emit), the way a project with many tools is built.
 * `files` maps file names (relative, may contain folders) to their text; `load(name)` requires an emitted module.
 */
export function compileProgram(
  files: Record<string, string>,
  options: Omit<CompileOptions, "files"> = {},
): CompiledFixture {
  const tsi: typeof ts = options.ts ?? require("typescript");
  prepareFixturePackage();
  const dir = path.join(fixturesDir, `${process.pid}-${++counter}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }

  const compilerOptions: ts.CompilerOptions = {
    target: options.target ?? tsi.ScriptTarget.ES2022,
    module: tsi.ModuleKind.Node16,
    moduleResolution: tsi.ModuleResolutionKind.Node16,
    strict: options.strict ?? true,
    experimentalDecorators: options.experimentalDecorators ?? false,
    skipLibCheck: true,
    types: [],
    lib: ["lib.es2022.d.ts"],
    outDir: dir,
    rootDir: dir,
  };
  const program = tsi.createProgram(
    Object.keys(files).map((f) => path.join(dir, f)),
    compilerOptions,
    sharingHost(tsi, compilerOptions),
  );
  const emitted: Record<string, string> = {};
  const raw: ts.Diagnostic[] = [];
  const result = program.emit(
    undefined,
    (fileName, text) => {
      emitted[path.relative(dir, fileName)] = text;
      fs.writeFileSync(fileName, text);
    },
    undefined,
    false,
    { before: [tooltype(program, { ...options.pluginConfig }, { ts: tsi, addDiagnostic: (d) => raw.push(d) })] },
  );
  for (const [file, text] of Object.entries(emitted)) if (file.endsWith(".js")) checkEmittedSchemas(tsi, file, text);
  const all = [...tsi.getPreEmitDiagnostics(program), ...result.diagnostics, ...raw];
  const diagnostics = all.map((d) => toFixtureDiagnostic(tsi, dir, d));
  return {
    js: emitted,
    diagnostics,
    tooltype: diagnostics.filter((d) => d.code.startsWith("TT")),
    dir,
    load<T>(file = "main.js"): T {
      return require(path.join(dir, file)) as T;
    },
  };
}

/** Where this process's fixtures are written, one new folder per compile. */
const ownFolders = `${fixturesDir}${path.sep}${process.pid}-`;

/**
 * Parsed declaration files (TypeScript's lib files, tooltype's and the SDKs' .d.ts), shared by every fixture compiled
 * with the same TypeScript in this process, as an editor's language service shares them between programs, and so
 * are the file system lookups of module resolution outside the fixture's own folder: parsing and looking them up
 * again for each fixture took about a fifth of the transformer tests' time. A source file depends only on its text
 * and on the options it was parsed with, which are part of the key; the files do not change while the tests run
 * (the package is built before).
 */
const sharedDeclarations = new WeakMap<typeof ts, Map<string, ts.SourceFile>>();
const sharedLookups = new Map<string, unknown>();

/** `lookup(name)`, remembered for names outside the fixtures' own folders (which are new for each compile). */
function remembered<T>(kind: string, lookup: (name: string) => T): (name: string) => T {
  return (name) => {
    if (name.startsWith(ownFolders)) return lookup(name);
    const key = `${kind}:${name}`;
    if (!sharedLookups.has(key)) sharedLookups.set(key, lookup(name));
    return sharedLookups.get(key) as T;
  };
}

function sharingHost(tsi: typeof ts, options: ts.CompilerOptions): ts.CompilerHost {
  const host = tsi.createCompilerHost(options);
  let cache = sharedDeclarations.get(tsi);
  if (!cache) sharedDeclarations.set(tsi, (cache = new Map()));
  const files = cache;
  host.fileExists = remembered("file", host.fileExists.bind(host));
  if (host.directoryExists) host.directoryExists = remembered("directory", host.directoryExists.bind(host));
  if (host.realpath) host.realpath = remembered("realpath", host.realpath.bind(host));
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (!fileName.endsWith(".d.ts") || fileName.startsWith(ownFolders) || shouldCreateNewSourceFile) {
      return parse(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    }
    const parsedAs =
      typeof languageVersionOrOptions === "object"
        ? `${languageVersionOrOptions.languageVersion}:${languageVersionOrOptions.impliedNodeFormat}:${languageVersionOrOptions.jsDocParsingMode}`
        : String(languageVersionOrOptions);
    const key = `${parsedAs}:${fileName}`;
    let file = files.get(key);
    if (!file) {
      file = parse(fileName, languageVersionOrOptions, onError);
      if (file) files.set(key, file);
    }
    return file;
  };
  return host;
}

/** Finds the metadata literals in emitted JavaScript and checks each schema in them (see the header). */
function checkEmittedSchemas(tsi: typeof ts, file: string, text: string): void {
  const source = tsi.createSourceFile(file, text, tsi.ScriptTarget.ES2022, false, tsi.ScriptKind.JS);
  const visit = (node: ts.Node): void => {
    if (tsi.isObjectLiteralExpression(node)) {
      const props = new Map<string, ts.Expression>();
      for (const p of node.properties)
        if (tsi.isPropertyAssignment(p) && (tsi.isIdentifier(p.name) || tsi.isStringLiteral(p.name)))
          props.set(p.name.text, p.initializer);
      const isMeta =
        props.has("v") &&
        ((props.has("parameters") && props.has("params")) || (props.has("schema") && props.has("name")));
      if (isMeta) {
        for (const key of ["parameters", "returns", "schema"]) {
          const expression = props.get(key);
          if (!expression) continue;
          const schema = literalValue(tsi, expression);
          const problem = schemaDocumentProblem(schema);
          if (problem) throw new Error(`${file}: the emitted ${key} ${problem}\n${JSON.stringify(schema)}`);
        }
        return;
      }
    }
    tsi.forEachChild(node, visit);
  };
  visit(source);
}

/**
 * The JSON value of an emitted literal (the transformer writes metadata as plain object and array literals, and a
 * long schema as `JSON.parse('...')` of its JSON text).
 */
function literalValue(tsi: typeof ts, node: ts.Expression): unknown {
  if (tsi.isParenthesizedExpression(node)) return literalValue(tsi, node.expression);
  if (
    tsi.isCallExpression(node) &&
    isJsonParse(tsi, node.expression) &&
    node.arguments.length === 1 &&
    tsi.isStringLiteral(node.arguments[0]!)
  ) {
    return JSON.parse(node.arguments[0].text);
  }
  if (tsi.isStringLiteral(node) || tsi.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (tsi.isNumericLiteral(node)) return Number(node.text);
  if (tsi.isPrefixUnaryExpression(node) && node.operator === tsi.SyntaxKind.MinusToken)
    return -(literalValue(tsi, node.operand) as number);
  if (node.kind === tsi.SyntaxKind.TrueKeyword) return true;
  if (node.kind === tsi.SyntaxKind.FalseKeyword) return false;
  if (node.kind === tsi.SyntaxKind.NullKeyword) return null;
  if (tsi.isArrayLiteralExpression(node)) return node.elements.map((e) => literalValue(tsi, e));
  if (tsi.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const p of node.properties) {
      if (!tsi.isPropertyAssignment(p)) throw new Error(`unexpected ${tsi.SyntaxKind[p.kind]} in emitted metadata`);
      if (!(tsi.isIdentifier(p.name) || tsi.isStringLiteral(p.name) || tsi.isNumericLiteral(p.name)))
        throw new Error("unexpected computed key in emitted metadata");
      const key = p.name.text;
      out[key] = literalValue(tsi, p.initializer);
    }
    return out;
  }
  throw new Error(`unexpected ${tsi.SyntaxKind[node.kind]} in emitted metadata`);
}

function isJsonParse(tsi: typeof ts, callee: ts.Expression): boolean {
  return (
    tsi.isPropertyAccessExpression(callee) &&
    tsi.isIdentifier(callee.expression) &&
    callee.expression.text === "JSON" &&
    callee.name.text === "parse"
  );
}

function toFixtureDiagnostic(tsi: typeof ts, dir: string, d: ts.Diagnostic): FixtureDiagnostic {
  const message = tsi.flattenDiagnosticMessageText(d.messageText, "\n");
  const tt = /^TT(\d+):/.exec(message);
  const category = (["warning", "error", "suggestion", "message"] as const)[d.category] ?? "error";
  let line = 0;
  let column = 0;
  let text = "";
  if (d.file && d.start !== undefined) {
    const pos = d.file.getLineAndCharacterOfPosition(d.start);
    line = pos.line + 1;
    column = pos.character + 1;
    text = d.file.text.slice(d.start, d.start + (d.length ?? 0));
  }
  const related = (d.relatedInformation ?? []).map((r) => ({
    file: r.file ? path.relative(dir, r.file.fileName).split(path.sep).join("/") : "",
    line: r.file && r.start !== undefined ? r.file.getLineAndCharacterOfPosition(r.start).line + 1 : 0,
    text: r.file && r.start !== undefined ? r.file.text.slice(r.start, r.start + (r.length ?? 0)) : "",
    message: tsi.flattenDiagnosticMessageText(r.messageText, "\n"),
  }));
  return {
    code: tt ? `TT${tt[1]}` : `TS${d.code}`,
    category,
    message,
    file: d.file ? path.relative(dir, d.file.fileName).split(path.sep).join("/") : "",
    line,
    column,
    text,
    related,
  };
}

/**
 * The data part of compiled metadata: everything but the precompiled validator function, which is code (its
 * behaviour is what the schema tests check) and differs in formatting between TypeScript printers.
 */
export function metaData<T extends { validator?: unknown }>(
  meta: T,
): Omit<T, "validator"> & { validator?: "function" } {
  const { validator, ...data } = meta;
  return typeof validator === "function" ? { ...data, validator: "function" } : data;
}
