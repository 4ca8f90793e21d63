/**
 * The README's code blocks for the framework adapters, MCP import and run-time schema tools (each follows the
 * marker `<!-- compiled by test/adapters/readme.test.ts -->`) compile with the real compiler and the tooltype
 * transformer, as ES modules (they use top-level await) against the installed frameworks. A block that uses
 * `registry` without declaring it gets one declared.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { compileProgram } from "../support/compile";

const MARKER = "<!-- compiled by test/adapters/readme.test.ts -->";
const readme = fs.readFileSync(path.resolve(__dirname, "../../../README.md"), "utf8");

function markedBlocks(): string[] {
  const blocks: string[] = [];
  for (const part of readme.split(MARKER).slice(1)) {
    const match = /^\s*```ts\n([\s\S]*?)\n```/.exec(part);
    assert.ok(match, `a ${MARKER} marker is not followed by a ts code block`);
    blocks.push(match![1]!);
  }
  return blocks;
}

test("the marked README blocks compile", () => {
  const blocks = markedBlocks();
  assert.is(blocks.length, 6);
  const files: Record<string, string> = {};
  blocks.forEach((block, i) => {
    const prelude = /\bconst registry\b/.test(block)
      ? ""
      : 'import type { ToolRegistry as DeclaredRegistry } from "tooltype";\ndeclare const registry: DeclaredRegistry;\n';
    files[`block${i + 1}.mts`] = `${prelude}${block}\nexport {};\n`;
  });
  const compiled = compileProgram(files);
  const problems = compiled.diagnostics.filter((d) => d.category === "error");
  assert.equal(
    problems.map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`),
    [],
    "README blocks:\n" + Object.entries(files).map(([name, text]) => `--- ${name}\n${text}`).join("\n"),
  );
});

test.run();
