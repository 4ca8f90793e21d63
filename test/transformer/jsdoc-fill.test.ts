/**
 * tooltype parses the JSDoc it reads itself when tsc parsed only part of it
 * (transformer/readers/compiler-api/jsdoc-fill.ts): that must
 * give exactly what TypeScript's parser gives under `JSDocParsingMode.ParseAll`.
 * - Node by node: every node of the conformance corpus, the docs fixtures and TypeScript's own lib files, filled after
 *   a `ParseForTypeErrors` parse, holds the same JSDoc blocks (spans, texts, tags) as after a `ParseAll` parse, under
 *   every TypeScript version the tests use.
 * The whole-program check (the corpus compiled both ways) is jsdoc-fill-corpus.integration.test.ts: it compiles
 * the corpus three times, which is the integration tier's kind of work.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import { fillJsDoc } from "../../transformer/readers/compiler-api/jsdoc-fill";

const versions: { label: string; tsi: typeof ts }[] = [
  { label: "5.9", tsi: require("typescript") },
  { label: "5.5", tsi: require("typescript-5.5") },
  { label: "6.0", tsi: require("typescript-6") },
];

const root = path.resolve(__dirname, "../../..");
const fixtures = ["conformance", "docs"].flatMap((corpus) => {
  const dir = path.join(root, "test", "fixtures", corpus);
  return fs
    .readdirSync(dir)
    .filter((f) => /\.m?ts$/.test(f))
    .map((f) => path.join(dir, f));
});

type WithJsDoc = ts.Node & { jsDoc?: ts.JSDoc[] };

function signature(tsi: typeof ts, node: WithJsDoc): string {
  const text = (comment: ts.JSDoc["comment"]): string => tsi.getTextOfJSDocComment(comment) ?? "";
  return (node.jsDoc ?? [])
    .map(
      (doc) =>
        `${doc.pos}-${doc.end} ${text(doc.comment)} [${(doc.tags ?? []).map((tag) => `${tsi.SyntaxKind[tag.kind]}@${tag.pos}-${tag.end} ${text(tag.comment)}`).join("; ")}]`,
    )
    .join(" | ");
}

for (const { label, tsi } of versions) {
  test(`TS ${label}: every node holds the JSDoc ParseAll gives it`, () => {
    const lib = path.dirname(tsi.getDefaultLibFilePath({}));
    const libFiles = ["lib.es5.d.ts", "lib.es2015.core.d.ts", "lib.es2022.intl.d.ts"].map((f) => path.join(lib, f));
    let documented = 0;
    for (const file of [...fixtures, ...libFiles]) {
      const text = fs.readFileSync(file, "utf8");
      const parse = (mode: ts.JSDocParsingMode): ts.SourceFile =>
        tsi.createSourceFile(file, text, { languageVersion: tsi.ScriptTarget.Latest, jsDocParsingMode: mode }, true);
      const full = parse(tsi.JSDocParsingMode.ParseAll);
      const part = parse(tsi.JSDocParsingMode.ParseForTypeErrors);
      const walk = (a: ts.Node, b: ts.Node): void => {
        assert.is(tsi.SyntaxKind[b.kind], tsi.SyntaxKind[a.kind], `${file}: the two parses differ`);
        fillJsDoc(tsi, b);
        const expected = signature(tsi, a);
        if (expected) documented++;
        assert.is(signature(tsi, b), expected, `${path.basename(file)}: ${tsi.SyntaxKind[a.kind]} at ${a.pos}`);
        const children: ts.Node[] = [];
        tsi.forEachChild(b, (c) => void children.push(c));
        let i = 0;
        tsi.forEachChild(a, (c) => walk(c, children[i++]!));
        assert.is(i, children.length);
      };
      walk(full, part);
    }
    assert.ok(documented > 800, `only ${documented} documented nodes`);
  });
}

test("a TypeScript without the internals the fill uses stops the build with what to do, rather than losing descriptions", () => {
  const tsi = versions[0]!.tsi;
  const file = tsi.createSourceFile(
    "tool.ts",
    "/** Looks up a city. */\nexport function lookup(city: string) { return city; }\n",
    {
      languageVersion: tsi.ScriptTarget.Latest,
      jsDocParsingMode: tsi.JSDocParsingMode.ParseForTypeErrors,
    },
    true,
  );
  const declaration = file.statements[0]!;
  // The same module without one of the internals, as a future TypeScript might be.
  const lacking = Object.create(tsi, { parseIsolatedJSDocComment: { value: undefined } }) as typeof ts;
  assert.throws(
    () => fillJsDoc(lacking, declaration),
    (error: Error) =>
      error.message.includes("lacks parseIsolatedJSDocComment") &&
      error.message.includes(`TypeScript ${tsi.version}`) &&
      error.message.includes("5.5 to 6.0"),
  );
  // With them, the comment is read.
  fillJsDoc(tsi, declaration);
  assert.is(tsi.getTextOfJSDocComment((declaration as WithJsDoc).jsDoc?.[0]?.comment), "Looks up a city.");
});

test.run();
