/**
 * What a module's schemas may depend on, on TypeScript 7, read from texts (hosts/project/text-imports.ts): every
 * spelling of an import is seen, a relative one resolves to a superset of what TypeScript picks, a non-relative one
 * that may name a project file by a path the text does not show answers "every", and a file that can change types
 * in files that do not import it (a script, an augmentation) is known as one.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { declaresGlobally } from "../../transformer/hosts/project/declares-globally";
import { TextImportGraph, textFacts } from "../../transformer/hosts/project/text-imports";

test("every spelling of an import and of a reference is seen", () => {
  const facts = textFacts(`import type { A } from "./a";
import "./side-effect";
export * from './barrel.js';
export { B } from "./b";
import C = require("./c");
type D = import("./d").D;
const e = await import(\`./e\`);
/** @import { F } from "./f" */
/// <reference path="./g.d.ts" />
`);
  assert.equal(facts.specifiers, ["./a", "./side-effect", "./barrel.js", "./b", "./c", "./d", "./e", "./f"]);
  assert.equal(facts.references, ["./g.d.ts"]);
  assert.is(facts.global, false);
});

test("a file that declares globally is known from its text", () => {
  assert.ok(declaresGlobally("interface Window { x: 1 }\n"), "a script");
  assert.ok(declaresGlobally("const a = import('./x');\n"), "a dynamic import does not make a module");
  assert.ok(declaresGlobally("export {};\ndeclare global {\n  interface A {}\n}\n"));
  assert.ok(declaresGlobally('import "./a";\ndeclare module "./a" {\n  interface A { b: 1 }\n}\n'));
  assert.ok(declaresGlobally("export const a = 1;\nexport as namespace Lib;\n"));
  assert.not.ok(declaresGlobally('import { a } from "./a";\nexport const b = a;\n'));
  assert.not.ok(declaresGlobally("export interface A {\n  /** declare the module */\n  a: 1;\n}\n"));
});

test("imports resolve to a superset of TypeScript's picks; paths the text does not show answer every file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-text-imports-"));
  try {
    const texts: Record<string, string> = {
      "src/tools.ts": 'import type { Q } from "./query.js";\nimport { x } from "pkg";\nexport const t = 1;\n',
      "src/query.ts": 'import type { P } from "./lib";\nexport interface Q { p: P }\n',
      "src/query.test.ts": 'import "./query";\n',
      "src/lib/index.ts": 'export * from "../paging";\n',
      "src/paging.ts": "export interface P { page: number }\n",
      "src/other.ts": 'import { t } from "./tools";\nexport const o = t;\n',
      "src/globals.d.ts": "interface Window { app: string }\n",
      "src/aliased.ts": 'import { q } from "@app/query";\nexport const a = q;\n',
    };
    for (const [name, text] of Object.entries(texts)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    fs.mkdirSync(path.join(dir, "node_modules", "pkg"), { recursive: true });
    const root = fs.realpathSync(dir).split(path.sep).join("/");
    const files = Object.keys(texts).map((name) => `${root}/${name}`);
    const factsOf = (file: string) => textFacts(fs.readFileSync(file, "utf8"));
    const graph = new TextImportGraph(files, {}, factsOf);
    const reached = graph.reachedFrom(`${root}/src/tools.ts`);
    assert.ok(reached !== "every");
    assert.equal(
      [...reached].sort(),
      ["src/lib/index.ts", "src/paging.ts", "src/query.test.ts", "src/query.ts"].map((f) => `${root}/${f}`),
      "query.js names every query.* (query.test.ts too: a superset); a folder its index; a package nothing",
    );
    assert.equal(graph.globals(), [`${root}/src/globals.d.ts`]);
    assert.equal(graph.reachedFrom(`${root}/src/aliased.ts`), new Set(), "a package not installed: no project file");
    assert.is(
      new TextImportGraph(files, { paths: { "@app/*": ["src/*"] } }, factsOf).reachedFrom(`${root}/src/tools.ts`),
      "every",
      "with `paths`, a non-relative import may name any project file",
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
