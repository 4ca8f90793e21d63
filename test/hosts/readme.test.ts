/**
 * The README's bundler and TypeScript 7 sections: every code block marked `<!-- compiled: NAME -->` is
 * type-checked as an ES module against the real bundlers' types and tooltype's plugin entries (the builds those
 * configs describe run in bundlers.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { prepareApp, REPO } from "./app";

/** Bun's global, for the Bun block: Bun's own types are not installed here (only its binary is). */
const BUN_GLOBAL = "declare const Bun: { build(options: { entrypoints: string[]; outdir: string; target: string; plugins: unknown[] }): Promise<unknown> };\n";

test("the README's bundler configs compile", () => {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/<!-- compiled: ([\w-]+) -->\n```ts\n([\s\S]*?)```/g)];
  assert.ok(blocks.length >= 9, `found ${blocks.length} compiled blocks`);
  const dir = path.join(prepareApp("readme"), "configs");
  fs.mkdirSync(dir, { recursive: true });
  const files = blocks.map(([, name, code]) => {
    const file = path.join(dir, `${name}.mts`);
    fs.writeFileSync(file, (name === "bun" ? BUN_GLOBAL : "") + code);
    return file;
  });
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [path.join(REPO, "node_modules", "@types")],
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  assert.equal(problems, []);
});

test.run();
