/**
 * The package's entries are in one place, each written once: read from package.json,
 * - every entry of the runtime ("exports" targets under dist/runtime/ and dist/esm/runtime/) is a file of
 *   runtime/entries/, except the framework adapters (runtime/adapters/, each one file with its adapter);
 * - a Node form (`<name>.node.js`, written by the build from the entry's own source, scripts/node-entries.mjs) has
 *   that source, and is typed and bundled from it: its "types" and "module" targets are the same entry's;
 * - `typesVersions` (what TypeScript's node10 resolution reads) says for each subpath what "exports" says;
 * - the agent loop's values are `tooltype/loop`'s alone: no other runtime entry re-exports one, since a CommonJS
 *   bundle takes a `require`d entry whole (a re-export on the main entry would put the loop back into it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as agent from "tooltype/loop";
import * as main from "tooltype";
import * as anthropic from "tooltype/anthropic";
import * as core from "tooltype/core";
import * as gemini from "tooltype/gemini";
import * as kit from "tooltype/kit";
import * as mcp from "tooltype/mcp";
import * as openai from "tooltype/openai";
import * as responses from "tooltype/responses";

const repo = path.resolve(__dirname, "../../..");

type Target = string | { [condition: string]: Target };
const manifest = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as {
  exports: Record<string, Target>;
  typesVersions: Record<string, Record<string, string[]>>;
};

/** Every file a target names, with its condition path (`import.types`, `default`, …). */
function leaves(target: Target, at = ""): [string, string][] {
  if (typeof target === "string") return [[at || "default", target]];
  return Object.entries(target).flatMap(([condition, inner]) => leaves(inner, at ? `${at}.${condition}` : condition));
}

test("every runtime entry is a file of runtime/entries/ (the adapters excepted)", () => {
  const outside: string[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    for (const [, file] of leaves(target)) {
      const runtimeFile = /^\.\/dist\/(esm\/)?runtime\/(.*)$/.exec(file)?.[2];
      if (runtimeFile !== undefined && !/^(entries|adapters)\/[^/]+$/.test(runtimeFile))
        outside.push(`${subpath}: ${file}`);
    }
  }
  assert.equal(outside, [], "entries outside runtime/entries/");
});

test("a Node form is written from its entry's source, and typed and bundled from that entry", () => {
  let forms = 0;
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const all = new Map(leaves(target));
    const form = /^\.\/dist\/runtime\/entries\/([a-z0-9-]+)\.node\.js$/.exec(all.get("default") ?? "")?.[1];
    if (form === undefined) continue;
    forms++;
    assert.ok(
      fs.existsSync(path.join(repo, "runtime", "entries", `${form}.ts`)),
      `${subpath}: runtime/entries/${form}.ts, the source of its Node form, is missing`,
    );
    assert.is(all.get("types"), `./dist/runtime/entries/${form}.d.ts`, `${subpath} is typed by its entry`);
    assert.is(all.get("module"), `./dist/esm/runtime/entries/${form}.js`, `${subpath} is bundled from its entry`);
  }
  assert.ok(forms >= 2, "the main entry and tooltype/kit have a Node form");
});

test("a Workers bundler (the workerd condition, which leaves out module) is given the ES module build of every entry", () => {
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const all = new Map(leaves(target));
    if (!all.has("module")) continue;
    assert.is(all.get("workerd"), all.get("module"), `${subpath}: workerd and module name the same build`);
  }
});

test("typesVersions says for each subpath what exports says", () => {
  const derived: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (subpath === "." || subpath === "./package.json") continue;
    // node10 resolution is a require: the types beside "default", not those under "import".
    const types = leaves(target).find(([condition]) => condition === "types")?.[1];
    if (types !== undefined) derived[subpath.slice(2)] = [types];
  }
  const sorted = (record: Record<string, string[]>): [string, string[]][] =>
    Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
  assert.equal(sorted(manifest.typesVersions["*"] ?? {}), sorted(derived));
});

test("the agent loop's values are exported by tooltype/loop and by no other runtime entry", () => {
  const loop = Object.keys(agent);
  for (const name of ["runTools", "structuredOutput", "accumulateToolCalls", "stepCountIs", "MaxStepsError"])
    assert.ok(loop.includes(name), `tooltype/loop does not export ${name}`);
  const entries = { tooltype: main, core, openai, responses, anthropic, gemini, mcp, kit };
  for (const [entry, exported] of Object.entries(entries))
    assert.equal(
      loop.filter((name) => name in exported),
      [],
      `${entry} re-exports values of tooltype/loop`,
    );
});

test.run();
