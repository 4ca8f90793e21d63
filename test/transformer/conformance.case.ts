/**
 * The conformance corpus: every `test/fixtures/conformance/*.ts` file is a small tool (or a few) with its
 * expectations exported next to it. All fixtures are compiled as ONE program per TypeScript version (5.5, 5.9 and
 * 6.0 with standard decorators, and 5.9 with experimentalDecorators), loaded, and registered in a ToolRegistry.
 *
 * What a fixture may export besides its tools (everything else it exports is registered as a tool source):
 * - `valid` / `invalid`: argument objects the main tool's emitted `parameters` must accept / reject (ajv 2020-12,
 *   formats on);
 * - `schema`: the expected `parameters`; each key given (e.g. only `properties`) is compared exactly;
 * - `meta`: expected CompiledToolMeta fields (`description`, `returns`, `dates`, `flatten`, ...), each exact;
 * - `calls`: `{ args, result }` invoked through `registry.invoke` (validation, date revival, injection, defaults),
 *   or `{ args, error }` that must be rejected with a message containing `error`;
 * - `diagnostics`: every diagnostic the file must produce, in source order: `code`, the exact spanned `text`, and
 *   optionally `line`, `category` ("error" default, "warning"), a `message` substring and a `related` text. Any
 *   diagnostic not listed fails the case; a file with no `diagnostics` export must compile cleanly;
 * - `main`: the main tool's name when the file defines several; `others`: `{ [tool]: { valid, invalid, schema,
 *   meta, calls } }` for the rest.
 *
 * Every tool's `parameters` (and `returns`) must be valid JSON Schema 2020-12 by ajv's meta-schema and compile in
 * ajv's strict mode; every fixture's metadata and tooltype diagnostics must be identical under all compiles.
 *
 * Each compile of the corpus costs seconds of CPU: the unit tier (conformance.test.ts) compiles it once, with the
 * TypeScript the package is built with; conformance.integration.test.ts compiles it under every version and mode
 * and compares them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type * as ts from "typescript";
import { type CompiledToolMeta, type RegisteredTool, ToolRegistry } from "tooltype";
import { type CompiledFixture, compileProgram, type FixtureDiagnostic, metaData } from "../support/compile";
import { corpusFixtureNames, corpusSources } from "../support/corpus";
import { schemaDocumentProblem } from "../support/schema";

const fixtureNames = corpusFixtureNames;

// The last compile lists the files in reverse: TypeScript then creates (and numbers) types in another order, which
// would show up as a different schema wherever the transformer followed type ids instead of the source.
export interface CorpusCompile {
  label: string;
  tsi: typeof ts;
  experimentalDecorators: boolean;
  reverse?: boolean;
}
export const COMPILES: CorpusCompile[] = [
  { label: "5.9", tsi: require("typescript"), experimentalDecorators: false },
  { label: "5.5", tsi: require("typescript-5.5"), experimentalDecorators: false },
  { label: "6.0", tsi: require("typescript-6"), experimentalDecorators: false },
  { label: "5.9 experimentalDecorators", tsi: require("typescript"), experimentalDecorators: true },
  { label: "5.9 files in reverse order", tsi: require("typescript"), experimentalDecorators: false, reverse: true },
];

const RESERVED = new Set(["valid", "invalid", "schema", "meta", "calls", "diagnostics", "main", "others"]);

interface ExpectedDiagnostic {
  code: string;
  text: string;
  line?: number;
  category?: string;
  message?: string;
  related?: string;
}

interface ToolExpectations {
  valid?: unknown[];
  invalid?: unknown[];
  schema?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  calls?: { args: Record<string, unknown>; result?: unknown; error?: string }[];
}

interface FixtureModule extends ToolExpectations {
  diagnostics?: ExpectedDiagnostic[];
  main?: string;
  others?: Record<string, ToolExpectations>;
  [exported: string]: unknown;
}

/** One fixture as compiled under one version: its exports, registry (when it registers) and diagnostics. */
interface Loaded {
  module?: FixtureModule;
  loadError?: unknown;
  registry?: ToolRegistry;
  registryError?: unknown;
  diagnostics: FixtureDiagnostic[];
}

const sources = corpusSources();

// Behaviour with formats on; the meta-schema check and strict compile are the shared ones (support/schema.ts).
const behaviourAjv = new Ajv2020({ strict: false, allErrors: true });
addFormats(behaviourAjv);

function compileCorpus(version: CorpusCompile): { compiled: CompiledFixture; byFixture: Map<string, Loaded> } {
  const files = version.reverse ? Object.fromEntries(Object.entries(sources).reverse()) : sources;
  const compiled = compileProgram(files, { ts: version.tsi, experimentalDecorators: version.experimentalDecorators });
  const byFixture = new Map<string, Loaded>();
  for (const name of fixtureNames) {
    const loaded: Loaded = { diagnostics: compiled.diagnostics.filter((d) => d.file === name) };
    try {
      loaded.module = compiled.load<FixtureModule>(name.replace(/\.ts$/, ".js"));
      const toolSources = Object.entries(loaded.module).filter(([key]) => !RESERVED.has(key) && key !== "__esModule");
      loaded.registry = new ToolRegistry(toolSources.map(([, value]) => value as object));
    } catch (error) {
      if (loaded.module) loaded.registryError = error;
      else loaded.loadError = error;
    }
    byFixture.set(name, loaded);
  }
  return { compiled, byFixture };
}

/** Registers the corpus's tests for `compiles`; with more than one, also that they agree on every fixture. */
export function conformance(compiles: readonly CorpusCompile[]): void {
  const results = compiles.map((version) => ({ version, ...compileCorpus(version) }));

  test("the corpus has at least 80 cases", () => {
    assert.ok(fixtureNames.length >= 80, `only ${fixtureNames.length} fixtures`);
  });

  for (const { version, compiled } of results) {
    test(`[${version.label}] no diagnostics outside the fixtures`, () => {
      const stray = compiled.diagnostics.filter((d) => !fixtureNames.includes(d.file));
      assert.equal(stray, []);
    });
  }

  function checkDiagnostics(actual: FixtureDiagnostic[], expected: ExpectedDiagnostic[]): void {
    const shown = (ds: FixtureDiagnostic[]) =>
      ds.map((d) => `${d.code} line ${d.line} "${d.text}": ${d.message}`).join("\n");
    const sorted = [...actual].sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
    assert.is(sorted.length, expected.length, `expected ${expected.length} diagnostics, got:\n${shown(sorted)}`);
    expected.forEach((want, i) => {
      const got = sorted[i]!;
      assert.is(got.code, want.code, `diagnostic ${i}: ${shown([got])}`);
      assert.is(got.text, want.text, `diagnostic ${i} span: ${shown([got])}`);
      assert.is(got.category, want.category ?? "error", `diagnostic ${i} category: ${shown([got])}`);
      if (want.line !== undefined) assert.is(got.line, want.line, `diagnostic ${i} line: ${shown([got])}`);
      if (want.message !== undefined)
        assert.ok(
          got.message.includes(want.message),
          `diagnostic ${i} message should contain ${JSON.stringify(want.message)}: ${got.message}`,
        );
      if (want.related !== undefined) {
        assert.ok(
          got.related.some((r) => r.text === want.related),
          `diagnostic ${i} should relate to ${JSON.stringify(want.related)}: ${JSON.stringify(got.related)}`,
        );
      }
    });
  }

  function checkSchemaDocument(label: string, schema: unknown): void {
    const problem = schemaDocumentProblem(schema);
    assert.not.ok(problem, `${label} ${problem}\n${JSON.stringify(schema)}`);
  }

  async function checkTool(tool: RegisteredTool, registry: ToolRegistry, expect: ToolExpectations): Promise<void> {
    const schema = tool.parameters;
    if (expect.schema) {
      for (const [key, value] of Object.entries(expect.schema))
        assert.equal(schema[key], value, `parameters.${key} of ${tool.name}`);
    }
    if (expect.meta) {
      const meta = tool.meta as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(expect.meta))
        assert.equal(meta[key], value, `meta.${key} of ${tool.name}`);
    }
    if (expect.valid || expect.invalid) {
      const validate = behaviourAjv.compile(schema);
      for (const value of expect.valid ?? []) {
        assert.ok(
          validate(value),
          `${tool.name} should accept ${JSON.stringify(value)}: ${behaviourAjv.errorsText(validate.errors)}\nschema: ${JSON.stringify(schema)}`,
        );
      }
      for (const value of expect.invalid ?? []) {
        assert.not.ok(
          validate(value),
          `${tool.name} should reject ${JSON.stringify(value)}\nschema: ${JSON.stringify(schema)}`,
        );
      }
    }
    for (const call of expect.calls ?? []) {
      let outcome: { result: unknown } | { error: string };
      try {
        outcome = { result: await registry.invoke(tool.name, call.args) };
      } catch (error) {
        outcome = { error: error instanceof Error ? error.message : String(error) };
      }
      if (call.error !== undefined) {
        assert.ok(
          "error" in outcome && outcome.error.includes(call.error),
          `${tool.name}(${JSON.stringify(call.args)}) should fail with "${call.error}", got ${JSON.stringify(outcome)}`,
        );
      } else {
        assert.ok(
          "result" in outcome,
          `${tool.name}(${JSON.stringify(call.args)}) threw: ${"error" in outcome ? outcome.error : ""}`,
        );
        assert.equal(
          (outcome as { result: unknown }).result,
          call.result,
          `${tool.name}(${JSON.stringify(call.args)})`,
        );
      }
      // The same call as a model sends it: an OpenAI assistant message with the arguments as JSON text.
      const [message] = await registry.dispatch({
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: tool.name, arguments: JSON.stringify(call.args) } },
        ],
      });
      assert.is(
        message!.status,
        call.error === undefined ? "success" : "error",
        `dispatch of ${tool.name}(${JSON.stringify(call.args)}): ${message!.content}`,
      );
    }
  }

  for (const { version, byFixture } of results) {
    for (const name of fixtureNames) {
      test(`[${version.label}] ${name}`, async () => {
        const loaded = byFixture.get(name)!;
        const module = loaded.module;
        if (!module) throw loaded.loadError;
        const expectedDiagnostics = module.diagnostics ?? [];
        checkDiagnostics(loaded.diagnostics, expectedDiagnostics);
        const hasErrors = expectedDiagnostics.some((d) => (d.category ?? "error") === "error");
        const registry = loaded.registry;
        if (!registry) {
          // A tool whose build failed may be unusable at run time (e.g. an invalid name); that is the build's job.
          if (hasErrors) return;
          throw loaded.registryError;
        }
        const tools = registry.list();
        assert.ok(tools.length > 0, "the fixture registers at least one tool");
        for (const tool of tools) {
          checkSchemaDocument(`${tool.name}.parameters`, tool.parameters);
          if (tool.meta.returns) checkSchemaDocument(`${tool.name}.returns`, tool.meta.returns);
        }
        const mainName = module.main ?? (tools.length === 1 ? tools[0]!.name : undefined);
        const mainExpectations: ToolExpectations = {
          valid: module.valid,
          invalid: module.invalid,
          schema: module.schema,
          meta: module.meta,
          calls: module.calls,
        };
        const hasMainExpectations = Object.values(mainExpectations).some((v) => v !== undefined);
        if (hasMainExpectations) {
          assert.ok(mainName, `${name} defines several tools; export const main = "<tool name>"`);
          const tool = registry.get(mainName!);
          assert.ok(tool, `no tool named ${mainName}`);
          await checkTool(tool!, registry, mainExpectations);
        } else {
          assert.ok(
            hasErrors || module.others,
            `${name} checks nothing: export valid/invalid, schema, meta, calls or diagnostics`,
          );
        }
        for (const [other, expect] of Object.entries(module.others ?? {})) {
          const tool = registry.get(other);
          assert.ok(tool, `no tool named ${other}`);
          await checkTool(tool!, registry, expect);
        }
      });
    }
  }

  test("every TT code is produced by some fixture and documented", () => {
    const codes = [
      ...fs
        .readFileSync(path.resolve(__dirname, "../../../transformer/diagnostics.ts"), "utf8")
        .matchAll(/^\s+\w+ = (1\d{3}),$/gm),
    ].map((m) => `TT${m[1]}`);
    assert.ok(codes.length >= 14, `codes found in diagnostics.ts: ${codes.join(", ")}`);
    const produced = new Set(results[0]!.compiled.tooltype.map((d) => d.code));
    const docs = fs.readFileSync(path.resolve(__dirname, "../../../docs/types-to-schema.md"), "utf8");
    // A program-wide code cannot come from one fixture of this strict ES2022 program: its own test produces it.
    const elsewhere: Record<string, string> = {
      TT1023: "transformer/usage.test.ts",
      TT1025: "transformer/usage.test.ts",
      // A pattern refused for OpenAI's grammar (look-around, backreferences, \b, \p{…}) is one the dispatch corpus
      // cannot generate texts for (fast-check's stringMatching has none of them): its own test produces it.
      TT1028: "transformer/freeform.test.ts",
    };
    for (const code of codes) {
      const test =
        elsewhere[code] && fs.readFileSync(path.resolve(__dirname, "../../../test", elsewhere[code]!), "utf8");
      assert.ok(produced.has(code) || test?.includes(`"${code}"`), `no fixture produces ${code}`);
      assert.ok(
        docs.includes(`| ${code} |`),
        `${code} is missing from the diagnostics table of docs/types-to-schema.md`,
      );
    }
  });

  /** What must not depend on the TypeScript version or decorator mode: the metadata and tooltype's diagnostics. */
  function portable(loaded: Loaded): unknown {
    const metas: Record<string, ReturnType<typeof metaData<CompiledToolMeta>>> = {};
    for (const tool of loaded.registry?.list() ?? []) metas[tool.name] = metaData(tool.meta);
    const diagnostics = loaded.diagnostics
      .filter((d) => d.code.startsWith("TT"))
      .map((d) => ({ code: d.code, line: d.line, column: d.column, text: d.text, message: d.message }));
    return { metas, diagnostics };
  }

  const [reference, ...rest] = results;
  if (rest.length > 0) {
    for (const name of fixtureNames) {
      test(`${name}: identical metadata and diagnostics under every version`, () => {
        const expected = portable(reference!.byFixture.get(name)!);
        for (const other of rest) {
          assert.equal(
            portable(other.byFixture.get(name)!),
            expected,
            `${name} under ${other.version.label} differs from ${reference!.version.label}`,
          );
        }
      });
    }
  }
}
