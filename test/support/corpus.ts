/**
 * The type corpus (test/fixtures/conformance): each fixture a file of tools with the schema and the valid and
 * invalid arguments they must give. Several test files read it; `corpusRegistries` compiles it once per test
 * process (uvu runs every file in one), with the plugin and default options, and registers each fixture's tools.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ToolRegistry } from "tooltype";
import { type CompiledFixture, compileProgram } from "./compile";

export const CORPUS_DIR = path.resolve(__dirname, "../../../test/fixtures/conformance");

/** The fixtures' file names, in order. */
export const corpusFixtureNames: readonly string[] = fs
  .readdirSync(CORPUS_DIR)
  .filter((f) => /^\d{3}-.*\.ts$/.test(f))
  .sort();

/** Each fixture's source text by file name. */
export function corpusSources(): Record<string, string> {
  return Object.fromEntries(
    corpusFixtureNames.map((name) => [name, fs.readFileSync(path.join(CORPUS_DIR, name), "utf8")]),
  );
}

/** Exports of a fixture that are its expectations, not tools. */
const RESERVED = new Set([
  "valid",
  "invalid",
  "schema",
  "meta",
  "calls",
  "diagnostics",
  "main",
  "others",
  "__esModule",
]);

export interface CorpusEntry {
  /** The fixture's file name. */
  name: string;
  module: Record<string, unknown>;
  /** A registry of the fixture's tools. */
  registry: ToolRegistry;
  /** Whether the build reported an error in this fixture (its tools then carry no validator, by design). */
  failedBuild: boolean;
}

let corpus: { compiled: CompiledFixture; entries: CorpusEntry[] } | undefined;

/**
 * The fixtures whose module loads and whose tools register (the ones meant to fail with diagnostics have none),
 * compiled as one program. The same registries are handed to every caller: make fresh ones for state that matters.
 */
export function corpusRegistries(): { compiled: CompiledFixture; entries: CorpusEntry[] } {
  if (corpus) return corpus;
  const compiled = compileProgram(corpusSources());
  const entries: CorpusEntry[] = [];
  for (const name of corpusFixtureNames) {
    let module: Record<string, unknown>;
    let registry: ToolRegistry;
    try {
      module = compiled.load<Record<string, unknown>>(name.replace(/\.ts$/, ".js"));
      registry = new ToolRegistry(
        Object.entries(module)
          .filter(([key]) => !RESERVED.has(key))
          .map(([, value]) => value as object),
      );
    } catch {
      continue;
    }
    const failedBuild = compiled.diagnostics.some((d) => d.file === name && d.category === "error");
    entries.push({ name, module, registry, failedBuild });
  }
  corpus = { compiled, entries };
  return corpus;
}
