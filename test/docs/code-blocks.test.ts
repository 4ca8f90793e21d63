/**
 * Every code block of README.md and docs/ is checked, so the documentation cannot drift from the package:
 * - each ```ts block is compiled as a user's ES module (`.mts`) against the built package, with the real compiler,
 *   the transformer and the real SDKs' types, all blocks in one program; a block may use the names the guides
 *   take as given (`registry`, `openai`, `model`, `messages`, …), declared in test/fixtures/docs/prelude.d.ts, and
 *   whatever it declares itself shadows them. No error, from TypeScript or tooltype, is allowed;
 * - a block marked `<!-- check: run -->` is also run (it must not reach the network); one marked
 *   `<!-- check: cjs -->` is compiled as CommonJS (`.cts`), for what only a CommonJS project writes;
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
import * as fs from "node:fs";
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
