/**
 * Every code block of README.md and docs/ is checked, so the documentation cannot drift from the package:
 * - each ```ts block is compiled as a user's ES module (`.mts`) against the built package, with the real compiler,
 *   the transformer and the real SDKs' types, all blocks in one program; a block may use the names the guides
 *   take as given (`registry`, `openai`, `model`, `messages`, …), declared in test/fixtures/docs/prelude.d.ts, and
 *   whatever it declares itself shadows them. No error, from TypeScript or tooltype, is allowed;
 * - a block marked `<!-- check: run -->` is also run (it must not reach the network); one marked
 *   `<!-- check: cjs -->` is compiled as CommonJS (`.cts`), for what only a CommonJS project writes;
 * - the ES module blocks type-check again under the options `tsc --init` writes, of the TypeScript npm installs
 *   today (7: exactOptionalPropertyTypes, noUncheckedIndexedAccess, verbatimModuleSyntax, module nodenext, …), with
 *   `"types": ["node"]` added as docs/providers.md says a project using `node:http` must: a user starting from them
 *   meets no error in a guide's code or in tooltype's types (CommonJS blocks are left out: those options make
 *   `import` in a CommonJS file an error whatever it imports);
 * - ```json blocks parse as JSON, ```jsonc blocks as TypeScript's tsconfig JSON;
 * - a block marked `<!-- check: fragment -->` is a piece of code that is not a module (none today); one marked
 *   `<!-- check: own-test -->` needs a project of its own kind (a bundler's module resolution, path aliases, Web
 *   types only): it must also carry a `readme-compile: NAME` marker that a test under test/ reads.
 * Blocks a named test checks more closely keep their own markers: readme:tsconfig in docs/building.md
 * (test/transformer/tspc-cli.integration.test.ts builds and runs it with tspc), readme:tool-factory in
 * docs/marking-tools.md
 * (test/transformer/usage.test.ts), and the `readme-compile: NAME` blocks that tests find through
 * test/support/readme.ts. Blocks that import "your code" (`./tools.mjs`, `./orders.js`) get the modules of
 * test/fixtures/docs.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileProgram } from "../support/compile";
import { codeBlocks, pages, repo, type CodeBlock } from "./markdown";

const blocks = pages().flatMap(codeBlocks);
const typescript = blocks.filter(
  (b) => (b.lang === "ts" || b.lang === "typescript") && !b.check.includes("fragment") && !b.check.includes("own-test"),
);
/** ES modules by default; `<!-- check: cjs -->` compiles a block as CommonJS (`.cts`), as a CommonJS project would. */
const fileOf = (b: CodeBlock): string =>
  `${b.page.replace(/[/.]/g, "_")}_${b.line}.${b.check.includes("cjs") ? "cts" : "mts"}`;
const emitted = (b: CodeBlock): string => path.join(compiled.dir, fileOf(b).replace(/\.([mc])ts$/, ".$1js"));
const where = (b: CodeBlock, line = 1): string => `${b.page}:${b.line + line - 1}`;

const support = path.join(repo, "test", "fixtures", "docs");
// The prelude and the modules the guides import as "your code" (`./tools.mjs`, `./orders.js`), next to the blocks.
const supportFiles = Object.fromEntries(
  fs.readdirSync(support).map((name) => [name, fs.readFileSync(path.join(support, name), "utf8")]),
);
const compiled = compileProgram({ ...supportFiles, ...Object.fromEntries(typescript.map((b) => [fileOf(b), b.code])) });

test("every TypeScript block of README.md and docs/ compiles with the transformer, without errors", () => {
  assert.ok(typescript.length >= 20, `only ${typescript.length} TypeScript blocks found`);
  const byFile = new Map(typescript.map((b) => [fileOf(b), b]));
  const errors = compiled.diagnostics
    .filter((d) => d.category === "error")
    .map((d) => {
      const block = byFile.get(d.file);
      return `${block ? where(block, d.line) : `${d.file}:${d.line}`} ${d.code} ${d.message.split("\n")[0]}`;
    });
  assert.equal(errors, []);
});

/**
 * The compiler options of the tsconfig.json that `tsc --init` writes, of the TypeScript 7 this repository installs
 * under the alias `typescript-7` (what `npm i -D typescript` installs today).
 */
function tscInitOptions(): ts.CompilerOptions {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-tsc-init-"));
  try {
    execFileSync(process.execPath, [path.join(repo, "node_modules", "typescript-7", "bin", "tsc"), "--init"], {
      cwd: dir,
      stdio: "ignore",
    });
    const parsed = ts.parseConfigFileTextToJson(
      "tsconfig.json",
      fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8"),
    );
    const { options, errors } = ts.convertCompilerOptionsFromJson(parsed.config?.compilerOptions, dir);
    assert.equal(
      errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, "\n")),
      [],
      "tsc --init's options",
    );
    return options;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("every ES module block type-checks under tsc --init's options (exactOptionalPropertyTypes, ...)", () => {
  const init = tscInitOptions();
  assert.ok(
    init.exactOptionalPropertyTypes && init.strict,
    "tsc --init turns on strict and exactOptionalPropertyTypes",
  );
  // A guide's block is not a tsconfig's whole program: type-checked only, with Node's types as the guides ask.
  const options: ts.CompilerOptions = {
    ...init,
    types: ["node"],
    noEmit: true,
    declaration: false,
    declarationMap: false,
  };
  // `<!-- check: not-init -->`: a block whose library (not tooltype) does not type-check under these options.
  const modules = typescript.filter((b) => !b.check.includes("cjs") && !b.check.includes("not-init"));
  const byFile = new Map(modules.map((b) => [path.join(compiled.dir, fileOf(b)), b]));
  const program = ts.createProgram([...byFile.keys(), path.join(compiled.dir, "prelude.d.ts")], options);
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    // The test's own stand-ins for "your code" (test/fixtures/docs/*.ts) are CommonJS files, which these options
    // refuse to export from: not what a guide shows.
    .filter((d) => !(d.file?.fileName.endsWith(".ts") && path.dirname(d.file.fileName) === compiled.dir))
    .map((d) => {
      const block = d.file && byFile.get(d.file.fileName);
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      const place = block ? where(block, line) : `${d.file?.fileName ?? "(options)"}:${line}`;
      return `${place} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`;
    });
  assert.equal(errors, []);
});

test("blocks left to their own test are read by one", () => {
  const sources: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "fixtures") walk(full);
      } else if (entry.name.endsWith(".ts")) sources.push(fs.readFileSync(full, "utf8"));
    }
  };
  walk(path.join(repo, "test"));
  for (const block of blocks.filter((b) => b.check.includes("own-test"))) {
    assert.ok(block.named, `${where(block)} is marked own-test but has no readme-compile marker`);
    assert.ok(
      sources.some((s) => s.includes(`readmeBlock("${block.named}")`)),
      `${where(block)}: no test reads readmeBlock("${block.named}")`,
    );
  }
});

test("blocks marked run are run", async () => {
  const runs = typescript.filter((b) => b.check.includes("run"));
  assert.ok(runs.length >= 1, "no block is marked <!-- check: run -->");
  for (const block of runs) {
    try {
      await import(pathToFileURL(emitted(block)).href);
    } catch (error) {
      assert.unreachable(`${where(block)} threw when run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
});

test("the README's first example exports exactly the tools the README shows", async () => {
  const readme = blocks.filter((b) => b.page === "README.md");
  const example = readme.find((b) => b.lang === "ts")!;
  const shown = readme.find((b) => b.lang === "json")!;
  assert.ok(example.check.includes("run"), "the README's first example is marked run");
  const module = (await import(pathToFileURL(emitted(example)).href)) as { registry: { toOpenAITools(): unknown } };
  assert.equal(module.registry.toOpenAITools(), JSON.parse(shown.code));
});

test("every JSON block parses; every JSONC block parses as tsconfig JSON", () => {
  const problems: string[] = [];
  for (const block of blocks) {
    if (block.check.includes("fragment")) continue;
    if (block.lang === "json") {
      try {
        JSON.parse(block.code);
      } catch (error) {
        problems.push(`${where(block)}: ${(error as Error).message}`);
      }
    } else if (block.lang === "jsonc") {
      const parsed = ts.parseConfigFileTextToJson("tsconfig.json", block.code);
      if (parsed.error)
        problems.push(`${where(block)}: ${ts.flattenDiagnosticMessageText(parsed.error.messageText, "\n")}`);
    }
  }
  assert.equal(problems, []);
});

test.run();
