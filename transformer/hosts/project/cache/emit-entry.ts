/**
 * The text of an entry of the emit's schema cache (emit-cache.ts): what the transformer wrote into a file
 * (compiled-file.ts), as a JSON header on the first line (each usage without its metadata, the length of its metadata
 * text instead; the kit import; the diagnostics, their files by name) and then the usages' metadata texts as they are,
 * one after the other. A hit reads no JSON but the header's: the metadata texts (schemas, validators) are most of it.
 */
import type * as ts from "typescript";
import type { TS } from "../../../compat";
import type { CompiledFile, CompiledSite } from "../../../compiled-file";
import { isRecord, jsonRecordOf } from "./sealed-file";

/** A diagnostic of tooltype's as an entry holds it: its file by name (makeDiagnostic's shape, diagnostics.ts). */
interface StoredDiagnostic {
  file: string;
  start: number;
  length: number;
  category: number;
  code: number;
  message: string;
  related: { file: string; start: number; length: number; message: string }[];
}

/** A compiled file as an entry's text. */
export function entryTextOf(compiled: CompiledFile): string {
  const header = JSON.stringify({
    sites: compiled.sites.map(({ meta, ...site }) => ({ ...site, length: meta.length })),
    kit: compiled.kit ?? null,
    tools: compiled.tools,
    diagnostics: compiled.diagnostics.map(storedDiagnosticOf),
    nullWarning: compiled.nullWarning ? storedDiagnosticOf(compiled.nullWarning) : null,
  });
  return `${header}\n${compiled.sites.map((site) => site.meta).join("")}`;
}

function storedDiagnosticOf(d: ts.Diagnostic): StoredDiagnostic {
  return {
    file: d.file?.fileName ?? "",
    start: d.start ?? 0,
    length: d.length ?? 0,
    category: d.category,
    code: d.code,
    message: typeof d.messageText === "string" ? d.messageText : d.messageText.messageText,
    related: (d.relatedInformation ?? []).map((r) => ({
      file: r.file?.fileName ?? "",
      start: r.start ?? 0,
      length: r.length ?? 0,
      message: typeof r.messageText === "string" ? r.messageText : r.messageText.messageText,
    })),
  };
}

/** An entry's compiled file, checked field by field (its metadata texts land in the output); undefined if unsound. */
export function compiledFileOf(tsi: TS, program: ts.Program, text: string): CompiledFile | undefined {
  const end = text.indexOf("\n");
  const value = end < 0 ? undefined : jsonRecordOf(text.slice(0, end));
  if (!value || !Array.isArray(value.sites) || !value.sites.every(isStoredSite)) return undefined;
  if (!(value.kit === null || typeof value.kit === "string") || !Number.isInteger(value.tools)) return undefined;
  if (!Array.isArray(value.diagnostics)) return undefined;
  const diagnostics = value.diagnostics.map((d) => diagnosticOf(tsi, program, d));
  const nullWarning = value.nullWarning === null ? undefined : diagnosticOf(tsi, program, value.nullWarning);
  if (diagnostics.some((d) => d === null) || nullWarning === null) return undefined;
  let at = end + 1;
  const sites: CompiledSite[] = value.sites.map(({ length, ...site }) => ({
    ...site,
    meta: text.slice(at, (at += length)),
  }));
  if (at !== text.length) return undefined;
  return {
    sites,
    kit: value.kit ?? undefined,
    tools: value.tools as number,
    diagnostics: diagnostics as ts.Diagnostic[],
    nullWarning,
  };
}

/** A site as the header holds it: its metadata text's length in place of the text. */
type StoredSite = Omit<CompiledSite, "meta"> & { length: number };

function isStoredSite(value: unknown): value is StoredSite {
  return (
    isRecord(value) &&
    (value.kind === "call" || value.kind === "decorator") &&
    Number.isInteger(value.pos) &&
    Number.isInteger(value.end) &&
    Number.isInteger(value.leading) &&
    Number.isInteger(value.length) &&
    (value.length as number) >= 0
  );
}

/** The diagnostic as makeDiagnostic made it, its files the program's; null when the value is not one. */
function diagnosticOf(tsi: TS, program: ts.Program, value: unknown): ts.Diagnostic | null {
  if (!isStoredDiagnostic(value)) return null;
  const file = sourceFileOf(program, value.file);
  if (file === null) return null;
  const related: ts.DiagnosticRelatedInformation[] = [];
  for (const r of value.related) {
    const relatedFile = sourceFileOf(program, r.file);
    if (relatedFile === null) return null;
    related.push({
      file: relatedFile,
      start: r.start,
      length: r.length,
      category: tsi.DiagnosticCategory.Message,
      code: value.code,
      messageText: r.message,
    });
  }
  return {
    file,
    start: value.start,
    length: value.length,
    category: value.category,
    code: value.code,
    source: "tooltype",
    messageText: value.message,
    relatedInformation: related,
  };
}

/** The program's file of that name (undefined for none recorded), or null when the program has no such file. */
function sourceFileOf(program: ts.Program, name: string): ts.SourceFile | undefined | null {
  if (name === "") return undefined;
  return program.getSourceFile(name) ?? null;
}

function isStoredDiagnostic(value: unknown): value is StoredDiagnostic {
  return (
    isRecord(value) &&
    typeof value.file === "string" &&
    Number.isInteger(value.start) &&
    Number.isInteger(value.length) &&
    Number.isInteger(value.category) &&
    Number.isInteger(value.code) &&
    typeof value.message === "string" &&
    Array.isArray(value.related) &&
    value.related.every(
      (r) =>
        isRecord(r) &&
        typeof r.file === "string" &&
        Number.isInteger(r.start) &&
        Number.isInteger(r.length) &&
        typeof r.message === "string",
    )
  );
}
