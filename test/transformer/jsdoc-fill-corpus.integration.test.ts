/**
 * tooltype parses the JSDoc it reads itself when tsc parsed only part of it
 * (transformer/readers/compiler-api/jsdoc-fill.ts), on whole
 * programs: the conformance corpus and the docs fixtures compiled with a host that parses JSDoc for type errors only
 * emit the same JavaScript and tooltype diagnostics as with one that parses all of it, also when TypeScript cached
 * the tags of every node before the transformer ran (the fill must replace those caches, which were computed without
 * the comments). In the integration tier: it compiles the corpus three times (jsdoc-fill.test.ts checks the same
 * fill node by node, fast).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import tooltype from "tooltype/transformer";

const root = path.resolve(__dirname, "../../..");
const fixtures = ["conformance", "docs"].flatMap((corpus) => {
  const dir = path.join(root, "test", "fixtures", corpus);
  return fs
    .readdirSync(dir)
    .filter((f) => /\.m?ts$/.test(f))
    .map((f) => path.join(dir, f));
});

/** The corpus as one program, emitted with tooltype: JavaScript by file, and tooltype's diagnostics. */
function compileCorpus(
  mode: ts.JSDocParsingMode,
  touchTags: boolean,
): { js: Record<string, string>; diagnostics: string[] } {
  const tsi: typeof ts = require("typescript");
  const dir = path.join(root, ".test-build", "fixtures", `jsdoc-fill-${process.pid}`);
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  if (!fs.existsSync(path.join(dir, "node_modules", "tooltype")))
    fs.symlinkSync(root, path.join(dir, "node_modules", "tooltype"), "dir");
  const files = fixtures.map((file) => {
    const copy = path.join(dir, path.basename(path.dirname(file)), path.basename(file));
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(file, copy);
    return copy;
  });
  const options: ts.CompilerOptions = {
    target: tsi.ScriptTarget.ES2022,
    module: tsi.ModuleKind.Node16,
    moduleResolution: tsi.ModuleResolutionKind.Node16,
    strict: true,
    skipLibCheck: true,
    types: [],
    lib: ["lib.es2022.d.ts"],
    noEmitOnError: false,
  };
  const host = tsi.createCompilerHost(options);
  host.jsDocParsingMode = mode;
  const program = tsi.createProgram({ rootNames: files, options, host });
  if (touchTags) {
    const touch = (node: ts.Node): void => {
      tsi.getJSDocTags(node);
      tsi.forEachChild(node, touch);
    };
    for (const file of program.getSourceFiles()) if (files.includes(file.fileName)) touch(file);
  }
  const js: Record<string, string> = {};
  const raw: ts.Diagnostic[] = [];
  program.emit(undefined, (name, text) => (js[path.relative(dir, name)] = text), undefined, false, {
    before: [tooltype(program, {}, { ts: tsi, addDiagnostic: (d) => raw.push(d) })],
  });
  const diagnostics = raw.map((d) => {
    const related = (d.relatedInformation ?? []).map(
      (r) =>
        `${r.file ? path.basename(r.file.fileName) : ""}:${r.start} ${tsi.flattenDiagnosticMessageText(r.messageText, "\n")}`,
    );
    return `${d.file ? path.basename(d.file.fileName) : ""}:${d.start}:${d.length} ${d.category} ${tsi.flattenDiagnosticMessageText(d.messageText, "\n")} ${related.join(" | ")}`;
  });
  return { js, diagnostics };
}

test("the corpus parsed for type errors only compiles to what it compiles to with all JSDoc parsed", () => {
  const tsi: typeof ts = require("typescript");
  const full = compileCorpus(tsi.JSDocParsingMode.ParseAll, false);
  assert.ok(Object.keys(full.js).length >= 150, "the corpus emitted");
  assert.ok(
    Object.values(full.js).some((text) => text.includes('description: "')),
    "descriptions from JSDoc",
  );
  for (const touchTags of [false, true]) {
    const part = compileCorpus(tsi.JSDocParsingMode.ParseForTypeErrors, touchTags);
    assert.equal(Object.keys(part.js).sort(), Object.keys(full.js).sort());
    for (const [file, text] of Object.entries(full.js))
      assert.fixture(part.js[file]!, text, `${file}${touchTags ? " (tags cached first)" : ""}`);
    assert.equal(part.diagnostics, full.diagnostics);
  }
});

test.run();
