/**
 * tooltype's diagnostics as the hosts print them, from one reading of a ts.Diagnostic (category, TT or TS code,
 * text, file, line and column):
 * - for the bundlers, a `HostDiagnostic` (what their error and warning APIs take, shaped per bundler by
 *   bundlers/bundler-message.mts), for those that print no position of their own the way plain tsc and tspc print
 *   one: `src/a.ts(3,5): error TT1001: ...`;
 * - for the CLI and the register hook, the way tsc prints with a position first: `src/a.ts:3:5 - error TT1001: ...`,
 *   related locations indented below, paths relative to the working directory.
 */
import * as path from "node:path";
import type * as ts from "typescript";
import type { TS } from "../compat";
import { TS_CODE_OFFSET } from "../diagnostics";

export interface HostDiagnostic {
  category: "error" | "warning";
  /** `TT1001`. */
  code: string;
  /** The diagnostic's text, starting with its code (as tspc prints it). */
  message: string;
  file: string;
  /** 1-based line and column of the start. */
  line: number;
  column: number;
}

export interface Reading {
  /** `TT1001` for tooltype's, `TS2322` for TypeScript's own. */
  code: string;
  /** The message without its code. */
  text: string;
  /** 1-based; line 1, column 1 when the diagnostic has no position. */
  line: number;
  column: number;
}

/** A diagnostic's code (`TT1001`, `TS2322`), text without the code, and 1-based position. */
export function readDiagnostic(tsi: TS, d: ts.Diagnostic | ts.DiagnosticRelatedInformation): Reading {
  let text = tsi.flattenDiagnosticMessageText(d.messageText, "\n");
  let code = `TS${d.code}`;
  if (d.code > TS_CODE_OFFSET) {
    code = `TT${d.code - TS_CODE_OFFSET}`;
    if (text.startsWith(`${code}: `)) text = text.slice(code.length + 2);
  }
  const { line, character } =
    d.file && d.start !== undefined ? tsi.getLineAndCharacterOfPosition(d.file, d.start) : { line: 0, character: 0 };
  return { code, text, line: line + 1, column: character + 1 };
}

/** A diagnostic for a bundler's error and warning APIs (anything that is not an error is a warning there). */
export function hostDiagnostic(tsi: TS, d: ts.Diagnostic): HostDiagnostic {
  const { code, text, line, column } = readDiagnostic(tsi, d);
  return {
    category: d.category === tsi.DiagnosticCategory.Error ? "error" : "warning",
    code,
    message: `${code}: ${text}`,
    file: d.file?.fileName ?? "",
    line,
    column,
  };
}

/** `file(line,col): error TT1001: ...`, the way tsc prints a diagnostic. */
export function formatDiagnostic(d: HostDiagnostic): string {
  return `${d.file}(${d.line},${d.column}): ${d.category} ${d.message}`;
}

/**
 * Diagnostics as tsc prints them with the position first, one per line: `src/a.ts:3:5 - error TT1001: ...`,
 * related locations indented below, paths relative to `cwd`.
 */
export function formatDiagnostics(tsi: TS, diagnostics: readonly ts.Diagnostic[], cwd = process.cwd()): string {
  return diagnostics.map((d) => formatOne(tsi, d, cwd)).join("\n");
}

function formatOne(tsi: TS, d: ts.Diagnostic | ts.DiagnosticRelatedInformation, cwd: string, indent = ""): string {
  const { code, text, line, column } = readDiagnostic(tsi, d);
  const name = d.file ? (path.relative(cwd, d.file.fileName) || d.file.fileName).split(path.sep).join("/") : "";
  const where = d.file && d.start !== undefined ? `${name}:${line}:${column} - ` : "";
  const head = indent
    ? `${indent}${where}${text}`
    : `${where}${tsi.DiagnosticCategory[d.category].toLowerCase()} ${code}: ${text}`;
  const related = "relatedInformation" in d && d.relatedInformation ? d.relatedInformation : [];
  return [head, ...related.map((r) => formatOne(tsi, r, cwd, `${indent}    `))].join("\n");
}

/** `src/a.ts:3:5 - error TT1001: ...` for a bundler-shaped diagnostic (no related locations), path relative to `cwd`. */
export function formatHostDiagnostic(d: HostDiagnostic, cwd = process.cwd()): string {
  const name = (path.relative(cwd, d.file) || d.file).split(path.sep).join("/");
  return `${name}:${d.line}:${d.column} - ${d.category} ${d.message}`;
}

/** An Error whose stack is its message alone: where diagnostics are its text, the host's own frames say nothing. */
export function diagnosticError(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}`;
  return error;
}

/** Diagnostics formatted with the position first (`formatDiagnostics`), one text each, errors apart from warnings. */
export function formatByCategory(
  tsi: TS,
  diagnostics: readonly ts.Diagnostic[],
): { errors: string[]; warnings: string[] } {
  const of = (category: ts.DiagnosticCategory): string[] =>
    diagnostics.filter((d) => d.category === category).map((d) => formatDiagnostics(tsi, [d]));
  return { errors: of(tsi.DiagnosticCategory.Error), warnings: of(tsi.DiagnosticCategory.Warning) };
}

/** Warnings already printed by the hosts that compile while the program runs: each is printed once per process. */
const printed = new Set<string>();

/**
 * For the hosts that compile a file while the program runs (tooltype/register, tooltype/bun-register,
 * tooltype/ts-jest): the file's warnings printed to stderr, each once per process, then its errors thrown as one
 * Error naming the host and the file: a tool with an error has no correct schema, so the run stops there. The texts
 * come formatted with the position first (`formatDiagnostics`, `formatHostDiagnostic`).
 */
export function stopOnErrors(
  host: string,
  fileName: string,
  errors: readonly string[],
  warnings: readonly string[],
): void {
  const fresh = warnings.filter((text) => !printed.has(text));
  for (const text of fresh) printed.add(text);
  if (fresh.length > 0) process.stderr.write(`${fresh.join("\n")}\n`);
  if (errors.length > 0) {
    const file = path.relative(process.cwd(), fileName) || fileName;
    throw diagnosticError(
      `${host}: ${file} has tooltype errors, so its tools have no correct schema:\n${errors.join("\n")}`,
    );
  }
}
