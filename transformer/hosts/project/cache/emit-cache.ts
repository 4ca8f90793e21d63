/**
 * The persistent schema cache where tooltype's transformer runs inside the compiler's own emit (tspc, and `tooltype
 * build` on 5.x/6.0): the compiler has made the program and checked it already, so what the cache saves is
 * tooltype's reading of the tools' types and compiling of their validators. Its entries hold what the transformer
 * writes into a file (each usage's metadata text by position, the kit import, the TT diagnostics: compiled-file.ts),
 * in the module cache's store (module-cache.ts: the same record, keys, sealing and atomic writes), in files of their
 * own (`emit-*.json`), since a bundler's entry holds a module's spliced text instead.
 */
import type * as ts from "typescript";
import type { TS } from "../../../compat";
import type { CompiledFile, CompiledFileCache, CompiledSite } from "../../../compiled-file";
import type { TooltypePluginConfig } from "../../../plugin-config";
import { dependenciesOf } from "../dependencies";
import { normalize } from "../files";
import { sortedKeys } from "../sorted-keys";
import { tooltypeBuild } from "../tooltype-version";
import { type CacheCounts, ModuleCache } from "./module-cache";
import { factsOfProgram } from "./program-facts";
import { isRecord, jsonRecordOf, sha256 } from "./sealed-file";
import { cacheDirFor } from "./settings";

const caches = new Map<string, ModuleCache>();
/** One per program: ts-patch makes the transformer again for each emit of a program (an incremental build's). */
const ofPrograms = new WeakMap<ts.Program, CompiledFileCache | null>();

/**
 * The cache of the program's tsconfig for the transformer in its emit, or undefined when it is off (`TOOLTYPE_CACHE=0`,
 * the plugin entry's `cache: false`) or the program has no tsconfig to place it by.
 */
export function emitCacheFor(
  tsi: TS,
  program: ts.Program,
  config: TooltypePluginConfig,
): CompiledFileCache | undefined {
  let found = ofPrograms.get(program);
  if (found === undefined) {
    found = made(tsi, program, config) ?? null;
    ofPrograms.set(program, found);
  }
  return found ?? undefined;
}

/** How many files the emit caches of this process answered, and how many they read: what a test counts. */
export function emitCacheCounts(): CacheCounts {
  const counts = { hits: 0, misses: 0 };
  for (const cache of caches.values()) {
    counts.hits += cache.counts.hits;
    counts.misses += cache.counts.misses;
  }
  return counts;
}

function made(tsi: TS, program: ts.Program, config: TooltypePluginConfig): CompiledFileCache | undefined {
  const tsconfig = program.getCompilerOptions().configFilePath;
  if (typeof tsconfig !== "string") return undefined;
  const dir = cacheDirFor(tsconfig, {
    cache: typeof config.cache === "boolean" ? config.cache : undefined,
    cacheDir: typeof config.cacheDir === "string" ? config.cacheDir : undefined,
  });
  if (dir === undefined) return undefined;
  // What the transformer's output depends on besides the program: its options, and NODE_ENV=test (result validators).
  const setup = JSON.stringify([
    "emit",
    tooltypeBuild(),
    normalize(tsconfig),
    tsi.version,
    sortedKeys(config),
    process.env.NODE_ENV === "test",
  ]);
  const key = `${dir}\0${setup}`;
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new ModuleCache(dir, setup, "emit")));
  cache.refresh(); // a new program: the disk is looked at again
  const store = cache;
  const facts = () => factsOfProgram({ tsconfig, ts: tsi }, program, config);
  const hashes = new Map<string, string | undefined>();
  const readHash = (name: string): string | undefined => {
    if (!hashes.has(name)) {
      const text = program.getSourceFile(name)?.text;
      hashes.set(name, text === undefined ? undefined : sha256(text));
    }
    return hashes.get(name);
  };
  return {
    lookup(file) {
      const hit = store.lookupInProgram(file.fileName, file.text, facts);
      return typeof hit === "object" && hit.code !== undefined ? compiledFileOf(tsi, program, hit.code) : undefined;
    },
    store(file, compiled) {
      store.storeInProgram(
        file.fileName,
        file.text,
        {
          code: storedFileOf(compiled),
          map: undefined,
          diagnostics: [],
          dependencies: dependenciesOf(tsi, program, file),
        },
        facts(),
        readHash,
      );
    },
  };
}

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

/**
 * A compiled file as an entry's text: a JSON header on the first line (each site without its metadata, the length of
 * its metadata text instead), then the sites' metadata texts as they are, one after the other. A hit reads no JSON
 * but the header's: the metadata texts (the schemas and validators) are most of the entry.
 */
function storedFileOf(compiled: CompiledFile): string {
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
function compiledFileOf(tsi: TS, program: ts.Program, text: string): CompiledFile | undefined {
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
