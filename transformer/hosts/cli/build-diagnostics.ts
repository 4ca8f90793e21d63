/**
 * The diagnostics of one `tooltype build`, whichever part found them (tooltype's TT codes, TypeScript's API on 5.x to
 * 7.1, the output of 7.0's own tsc), printed together at the end of the run in one format, tsc's with the position
 * first (`src/a.ts:3:5 - error TS2322: ...`), ordered by file and position, then one line that counts them: a
 * reader sees every problem of the run at once, in the order of the source.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { TS } from "../../compat";
import { type HostDiagnostic, readDiagnostic } from "../diagnostic-format";

/** One diagnostic of the run, as the CLI prints it. */
export interface BuildDiagnostic {
  category: "error" | "warning" | "suggestion" | "message";
  /** `TT1001` for tooltype's, `TS2322` for TypeScript's. */
  code: string;
  /** The message without its code; a chain's further lines indented below its first. */
  text: string;
  /** Absolute path; `""` for a diagnostic of no file (a compiler option). */
  file: string;
  /** 1-based; 0 without a position. */
  line: number;
  column: number;
  related?: { file: string; line: number; column: number; text: string }[];
}

/** A TT diagnostic of the TypeScript 7 path (already read into a host's shape). */
export function fromHost(d: HostDiagnostic): BuildDiagnostic {
  const prefix = `${d.code}: `;
  return {
    category: d.category,
    code: d.code,
    text: d.message.startsWith(prefix) ? d.message.slice(prefix.length) : d.message,
    file: d.file === "" ? "" : path.resolve(d.file),
    line: d.file === "" ? 0 : d.line,
    column: d.file === "" ? 0 : d.column,
  };
}

/** A diagnostic of a compiler with the JavaScript API (5.5 to 6.0), TypeScript's or tooltype's. */
export function fromJavaScriptApi(tsi: TS, d: ts.Diagnostic): BuildDiagnostic {
  const read = readDiagnostic(tsi, d);
  const placed = d.file !== undefined && d.start !== undefined;
  const related = (d.relatedInformation ?? []).map((r) => {
    const at = readDiagnostic(tsi, r);
    const here = r.file !== undefined && r.start !== undefined;
    return {
      file: r.file?.fileName ?? "",
      line: here ? at.line : 0,
      column: here ? at.column : 0,
      text: at.text,
    };
  });
  return {
    category: categoryName(d.category),
    code: read.code,
    text: read.text,
    file: d.file ? path.resolve(d.file.fileName) : "",
    line: placed ? read.line : 0,
    column: placed ? read.column : 0,
    ...(related.length > 0 ? { related } : {}),
  };
}

/** A diagnostic as TypeScript 7's API hands it: 7.1 with its position as line and character, 7.0 as an offset. */
export interface TypeScript7Diagnostic {
  fileName?: string;
  pos: number;
  startPosition?: { line: number; character: number };
  code: number;
  category: number;
  source?: string;
  text: string;
  messageChain?: readonly TypeScript7Diagnostic[];
  relatedInformation?: readonly TypeScript7Diagnostic[];
}

/** A diagnostic of TypeScript 7's API (its program's checks, its emit). */
export function fromTypeScript7(d: TypeScript7Diagnostic): BuildDiagnostic {
  const related = (d.relatedInformation ?? []).map((r) => ({ file: r.fileName ?? "", ...positionOf(r), text: r.text }));
  return {
    // DiagnosticCategory as in TypeScript's JavaScript API: 0 warning, 1 error, 2 suggestion, 3 message.
    category: categoryName(d.category),
    code: `${d.source || "TS"}${d.code}`,
    text: [d.text, ...chainLines(d.messageChain ?? [], 1)].join("\n"),
    file: d.fileName ? path.resolve(d.fileName) : "",
    ...positionOf(d),
    ...(related.length > 0 ? { related } : {}),
  };
}

function chainLines(chain: readonly TypeScript7Diagnostic[], depth: number): string[] {
  return chain.flatMap((c) => [`${"  ".repeat(depth)}${c.text}`, ...chainLines(c.messageChain ?? [], depth + 1)]);
}

/** Texts of files read to place 7.0's diagnostics, whose API gives an offset only. */
const texts = new Map<string, string | undefined>();

function positionOf(d: TypeScript7Diagnostic): { line: number; column: number } {
  if (!d.fileName) return { line: 0, column: 0 };
  if (d.startPosition) return { line: d.startPosition.line + 1, column: d.startPosition.character + 1 };
  if (!texts.has(d.fileName)) {
    let text: string | undefined;
    try {
      text = fs.readFileSync(d.fileName, "utf8");
    } catch {
      text = undefined;
    }
    texts.set(d.fileName, text);
  }
  const text = texts.get(d.fileName);
  if (text === undefined) return { line: 0, column: 0 };
  const before = text.slice(0, d.pos).split(/\r\n|\r|\n/);
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

const TSC_LINE = /^(?:(.+)\((\d+),(\d+)\): )?(error|warning|suggestion|message) ([A-Z]*\d+): (.*)$/;

/**
 * What a tsc run printed (`--pretty false`: `src/a.ts(3,5): error TS2322: ...`, a message chain's further lines
 * indented below), read back into diagnostics, paths relative to `cwd` made absolute; `rest`: lines that are no
 * diagnostic, printed as they came.
 */
export function fromTscOutput(output: string, cwd = process.cwd()): { diagnostics: BuildDiagnostic[]; rest: string[] } {
  const diagnostics: BuildDiagnostic[] = [];
  const rest: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const match = TSC_LINE.exec(line);
    const last = diagnostics[diagnostics.length - 1];
    if (match) {
      const [, file, row, column, category, code, text] = match;
      diagnostics.push({
        category: category as BuildDiagnostic["category"],
        code: code!,
        text: text!,
        file: file === undefined ? "" : path.resolve(cwd, file),
        line: Number(row ?? 0),
        column: Number(column ?? 0),
      });
    } else if (last && /^\s/.test(line)) last.text += `\n${line}`;
    else rest.push(line);
  }
  return { diagnostics, rest };
}

function categoryName(category: number): BuildDiagnostic["category"] {
  return category === 0 ? "warning" : category === 1 ? "error" : category === 2 ? "suggestion" : "message";
}

/** Ordered as tsc orders them: the ones of no file first, then by file, line and column; duplicates once. */
export function sortDiagnostics(diagnostics: readonly BuildDiagnostic[]): BuildDiagnostic[] {
  const seen = new Set<string>();
  return [...diagnostics]
    .sort(
      (a, b) =>
        compare(a.file, b.file) ||
        a.line - b.line ||
        a.column - b.column ||
        compare(a.code, b.code) ||
        compare(a.text, b.text),
    )
    .filter((d) => {
      const key = `${d.file}\0${d.line}\0${d.column}\0${d.code}\0${d.text}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `src/a.ts:3:5 - error TS2322: ...`, related locations indented below; paths relative to `cwd`. */
export function formatBuildDiagnostic(d: BuildDiagnostic, cwd = process.cwd()): string {
  const where = d.file === "" ? "" : `${placeName(d.file, d.line, d.column, cwd)} - `;
  const related = (d.related ?? []).map(
    (r) => `    ${r.file === "" ? "" : `${placeName(r.file, r.line, r.column, cwd)} - `}${r.text}`,
  );
  return [`${where}${d.category} ${d.code}: ${d.text}`, ...related].join("\n");
}

function placeName(file: string, line: number, column: number, cwd: string): string {
  const name = (path.relative(cwd, file) || file).split(path.sep).join("/");
  return line > 0 ? `${name}:${line}:${column}` : name;
}

/**
 * Prints the run's diagnostics, sorted, and a line counting them: with a tooltype error, that nothing was written;
 * nothing at all when there is none. Returns the number of errors.
 */
export function printBuildDiagnostics(
  out: NodeJS.WritableStream,
  diagnostics: readonly BuildDiagnostic[],
  { written }: { written: boolean },
): number {
  if (diagnostics.length === 0) return 0;
  const sorted = sortDiagnostics(diagnostics);
  out.write(`${sorted.map((d) => formatBuildDiagnostic(d)).join("\n")}\n`);
  const errors = sorted.filter((d) => d.category === "error");
  if (errors.length === 0) return 0;
  const warnings = sorted.filter((d) => d.category === "warning").length;
  const files = new Set(errors.map((d) => d.file).filter((file) => file !== "")).size;
  const own = errors.filter((d) => d.code.startsWith("TT")).length;
  const counted = `Found ${errors.length} error(s)${warnings > 0 ? ` and ${warnings} warning(s)` : ""}${files > 0 ? ` in ${files} file(s)` : ""}`;
  out.write(
    written
      ? `\n${counted}.\n`
      : own > 0
        ? `\n${counted}, ${own} of the errors tooltype's: nothing written (a tool with an error has no correct schema).\n`
        : `\n${counted}: nothing written.\n`,
  );
  return errors.length;
}
