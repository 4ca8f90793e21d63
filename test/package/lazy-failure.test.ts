/**
 * Dispatch's failure path for arguments (lenient repair, coercion, the words of error messages: arguments/settle.ts)
 * in a bundle: esbuild (code splitting on, the package's `module` condition) puts it in a chunk behind a dynamic
 * `import()`, out of the entry's static graph, and the bundled app answers every kind of failed call exactly as the
 * same app does unbundled under Node (the CommonJS build, which loads the path synchronously): the same messages,
 * statuses, repairs and coercions in each call's hooks, on the first failure (while the chunk loads) and after.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { bundleEsmApp } from "../../bench/bundle";
import { HANG_MS } from "../support/hang";

const APP = `import { tool, ToolRegistry, type Int } from "tooltype";

/**
 * Repeat a word.
 * @param word The word
 * @param times How often
 */
export const repeat = tool(function repeat(word: string, times: Int): string {
  return word.repeat(times);
});

/**
 * Plan a day.
 * @param day When
 * @param tags Labels
 */
export const plan = tool(function plan(day: Date, tags: string[] = []): string {
  return day.toISOString() + " " + tags.join("+");
});

const events: Record<string, unknown[]> = {};
const note = (kind: string) => (event: { call: { id: string }; repairs: readonly unknown[]; coercions: readonly unknown[] }) => {
  (events[event.call.id] ??= []).push([kind, event.repairs, event.coercions]);
};
const registry = new ToolRegistry([repeat, plan], { onToolStart: note("start"), onToolError: note("error"), onToolEnd: note("end") });
const texts: [string, string][] = [
  ["repeat", '{"word": "ab", "times": 2}'],
  ["repeat", "{word: 'ab', times: 2,}"],
  ["repeat", '{"word": "ab", "times": }'],
  ["repeat", "{word: 'ab' times: 2}"],
  ["repeat", '{"word": "ab", "times": "3"}'],
  ["repeat", '{"word": "ab", "times": "x"}'],
  ["repeat", '{"word": "ab"}'],
  ["repeat", "{'word': 'ab', 'times': True}"],
  ["repeat", "[1]"],
  ["repeat", "\`\`\`json\\n{\\"word\\": \\"c\\", \\"times\\": 1}\\n\`\`\`"],
  ["plan", '{"day": "2025-01-02", "tags": "red"}'],
  ["plan", '{"day": "tomorrow"}'],
  ["nothing", "{}"],
];
const message = (round: number) => ({
  role: "assistant" as const,
  content: null,
  tool_calls: texts.map(([name, args], i) => ({ id: round + "-" + i, type: "function" as const, function: { name, arguments: args } })),
});
const rounds = [];
for (const round of [1, 2]) {
  const answers = await registry.dispatch(message(round));
  rounds.push(answers.map((a) => [a.tool_call_id, a.status, a.content]));
}
// Per call, in call order: calls answered while the chunk loads may be heard from before those that wait for it.
const perCall = Object.keys(events).sort().map((id) => [id, events[id]]);
process.stdout.write(JSON.stringify({ rounds, events: perCall }));
`;

/** The failure path's modules: none may be in the entry's static graph. */
const FAILURE = [
  "settle",
  "explain/invalid",
  "repair/repair-json",
  "repair/lenient-json",
  "repair/coerce",
  "repair/conform",
  "read/parse-arguments",
  "repair/optional-nulls",
].map((name) => `runtime/arguments/${name}.js`);

function runNode(file: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { cwd, timeout: HANG_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} failed: ${String(stderr)}`));
      else resolve(String(stdout));
    });
  });
}

test("esbuild splits the failure path for arguments into a lazy chunk, and the bundle answers as the unbundled app", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-lazy-failure-"));
  try {
    const { outputs, entry, outdir } = await bundleEsmApp(path.join(dir, "app"), APP, ["node"]);
    // The entry and the chunks it imports statically; the chunks behind import().
    const staticFiles = new Set<string>();
    const lazy = new Set<string>();
    const visit = (file: string): void => {
      if (staticFiles.has(file)) return;
      staticFiles.add(file);
      for (const imported of outputs[file]!.imports) {
        if (imported.kind === "import-statement") visit(imported.path);
        else if (imported.kind === "dynamic-import") lazy.add(imported.path);
      }
    };
    visit(entry);
    // A lazy chunk may itself load more behind import() (the failure path is loaded by the dispatch pipeline's chunk).
    for (const file of lazy) for (const imported of outputs[file]?.imports ?? []) lazy.add(imported.path);
    const inputsOf = (files: Iterable<string>) =>
      [...files].flatMap((file) => Object.keys(outputs[file]?.inputs ?? {}));
    const statically = inputsOf(staticFiles).filter((input) =>
      FAILURE.some((name) => input.endsWith(`dist/esm/${name}`)),
    );
    assert.equal(statically, [], "failure-path modules in the entry's static graph");
    const lazily = inputsOf([...lazy].filter((file) => !staticFiles.has(file)));
    for (const name of FAILURE)
      assert.ok(
        lazily.some((input) => input.endsWith(`dist/esm/${name}`)),
        `${name} is not in a chunk behind import()`,
      );

    const alone = path.join(dir, "alone");
    fs.cpSync(outdir, alone, { recursive: true });
    const bundled = await runNode(path.join(alone, path.basename(entry)), alone);
    // The same compiled app, unbundled: Node loads the CommonJS build through node_modules/tooltype.
    const unbundled = await runNode(path.join(dir, "app", "out", "app.js"), path.join(dir, "app"));
    assert.is(bundled, unbundled);

    // And the answers are the ones each failure is known for.
    const { rounds } = JSON.parse(bundled) as { rounds: [string, string, string][][] };
    assert.equal(
      rounds[0]!.map(([, status, content]) => [status, content]),
      rounds[1]!.map(([, status, content]) => [status, content]),
    );
    const [
      valid,
      repaired,
      broken,
      explained,
      coerced,
      invalid,
      missing,
      python,
      array,
      fenced,
      date,
      badDate,
      unknown,
    ] = rounds[0]!;
    assert.equal([valid![1], valid![2]], ["success", "abab"]);
    assert.equal([repaired![1], repaired![2]], ["success", "abab"]);
    assert.match(broken![2], /^Error: invalid JSON in the arguments for repeat: /);
    assert.match(explained![2], /Unexpected character 't' at line 1 column 13/);
    assert.equal([coerced![1], coerced![2]], ["success", "ababab"]);
    assert.match(invalid![2], /\/times: must be an integer; got "x"/);
    assert.match(missing![2], /missing required property "times"/);
    assert.match(python![2], /\/times: must be an integer; got true/);
    assert.match(array![2], /must be a JSON object, got an array/);
    assert.equal([fenced![1], fenced![2]], ["success", "c"]);
    assert.equal([date![1], date![2]], ["success", "2025-01-02T00:00:00.000Z red"]);
    assert.match(badDate![2], /\/day: must be a string in the date-time format/);
    assert.match(unknown![2], /not a valid tool/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
