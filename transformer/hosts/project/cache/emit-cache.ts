/**
 * The persistent schema cache where tooltype's transformer runs inside the compiler's own emit (tspc, and `tooltype
 * build` on 5.x/6.0): the compiler has made the program and checked it already, so what the cache saves is
 * tooltype's reading of the tools' types and compiling of their validators. Its entries hold what the transformer
 * writes into a file (each usage's metadata text by position, the kit import, the TT diagnostics: compiled-file.ts),
 * in the module cache's store (module-cache.ts: the same record, keys, sealing and atomic writes), in files of their
 * own (`emit-*.json`, their text emit-entry.ts's), since a bundler's entry holds a module's spliced text instead.
 */
import type * as ts from "typescript";
import type { TS } from "../../../compat";
import type { CompiledFileCache } from "../../../compiled-file";
import type { TooltypePluginConfig } from "../../../plugin-config";
import type * as dependenciesFile from "../dependencies";
import { normalize } from "../files";
import { sortedKeys } from "../sorted-keys";
import type * as emitEntryFile from "./emit-entry";
import type * as moduleCacheFile from "./module-cache";
import type { CacheCounts, ModuleCache } from "./module-cache";
import type * as programFactsFile from "./program-facts";
import type * as sealedFile from "./sealed-file";
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
  // Loaded once the cache is on: a build with it off loads none of it.
  const { ModuleCache } = require("./module-cache") as typeof moduleCacheFile;
  const { factsOfProgram } = require("./program-facts") as typeof programFactsFile;
  const { dependenciesOf } = require("../dependencies") as typeof dependenciesFile;
  const { sha256 } = require("./sealed-file") as typeof sealedFile;
  const { compiledFileOf, entryTextOf } = require("./emit-entry") as typeof emitEntryFile;
  // What the transformer's output depends on besides the program: its options, and NODE_ENV=test (result validators).
  // tooltype's build and the compiler's version are in the program's facts (their id), not here: an entry is then
  // written over in place by the next tooltype build or compiler, instead of a new set of entries for each.
  const setup = JSON.stringify(["emit", normalize(tsconfig), sortedKeys(config), process.env.NODE_ENV === "test"]);
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
          code: entryTextOf(compiled),
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
