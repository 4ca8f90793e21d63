/**
 * The package as a bundler sees it: an ES module app compiled with tspc and the plugin, bundled by esbuild (code
 * splitting on) through the package's `module` condition, then run with node from a folder with no node_modules.
 *
 * - An app of compiled tools gets the ES module build (tree-shaken: no agent loop, no JSON Patch) and none of ajv;
 *   registering a `tool.fromSchema` tool there fails at registration and says to import `tooltype/ajv`.
 * - The same app with `import "tooltype/ajv"` bundles ajv and validates the schema tool: a wrong argument gets
 *   ajv's error for the model.
 * - Strict mode: the compiled tool is exported in OpenAI's strict subset from the form the build wrote, so the app
 *   bundles no strict rewrite; `tooltype/ajv` brings the rewrite in for the schema tool.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { bundleEsmApp } from "../../bench/bundle";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");

const APP = (
  withAjv: boolean,
) => `${withAjv ? 'import "tooltype/ajv";\n' : ""}import { tool, ToolRegistry } from "tooltype";

/**
 * Repeat a word.
 * @param word The word
 * @param times How often
 */
export const repeat = tool(function repeat(word: string, times: number): string {
  return word.repeat(times);
});

const tools: object[] = [repeat];
if (process.env.WITH_SCHEMA_TOOL === "1") {
  tools.push(
    tool.fromSchema(
      { name: "half", description: "Halve a number", parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false } },
      (args: { n: number }) => String(args.n / 2),
    ),
  );
}
const call = (id: string, name: string, args: unknown) => ({ id, type: "function" as const, function: { name, arguments: JSON.stringify(args) } });
const calls = [call("a", "repeat", { word: "ab", times: 2 }), call("b", "repeat", { word: "ab", times: "x" })];
if (process.env.WITH_SCHEMA_TOOL === "1") calls.push(call("c", "half", { n: 8 }), call("d", "half", { n: "eight" }));
let registry: ToolRegistry;
try {
  registry = new ToolRegistry(tools);
} catch (error) {
  process.stdout.write(JSON.stringify({ error: String(error) }));
  process.exit(0);
}
if (process.env.STRICT_EXPORT === "1") {
  process.stdout.write(JSON.stringify(registry.toOpenAITools({ strict: true }).map((entry) => entry.function.parameters)));
  process.exit(0);
}
const answers = await registry.dispatch({ role: "assistant", content: null, tool_calls: calls });
process.stdout.write(JSON.stringify(answers.map((a) => [a.tool_call_id, a.status, a.content])));
`;

function runNode(file: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [file],
      { cwd, env: { ...process.env, ...env }, timeout: HANG_MS },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${file} failed: ${String(stderr)}`));
        else resolve(String(stdout));
      },
    );
  });
}

async function bundled(dir: string, withAjv: boolean): Promise<{ main: string; entryInputs: string[] }> {
  const { outputs, entry, outdir } = await bundleEsmApp(dir, APP(withAjv), ["node"]);
  // Run away from any node_modules: the bundle must stand alone.
  const alone = path.join(dir, "alone");
  fs.cpSync(outdir, alone, { recursive: true });
  const inputs = new Set<string>();
  for (const output of Object.values(outputs)) for (const input of Object.keys(output.inputs)) inputs.add(input);
  return { main: path.join(alone, path.basename(entry)), entryInputs: [...inputs] };
}

test("esbuild bundles the ES module build, tree-shaken, without ajv unless the app imports tooltype/ajv", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-bundle-test-"));
  try {
    const plain = await bundled(path.join(dir, "plain"), false);
    // Input paths are relative to the working directory.
    const fromBuild = (part: string) =>
      plain.entryInputs.filter((file) => path.resolve(file).startsWith(path.join(repo, part)));
    assert.ok(
      fromBuild("dist/esm/runtime/").length > 0,
      `the bundle holds no ES module build files: ${plain.entryInputs.join(", ")}`,
    );
    assert.equal(fromBuild("dist/runtime/"), [], "the CommonJS build was bundled");
    assert.equal(fromBuild("dist/esm/runtime/agent/"), [], "the agent loop was not tree-shaken");
    assert.equal(fromBuild("node_modules/ajv/dist/2020"), [], "ajv's compiler was bundled");
    assert.equal(fromBuild("node_modules/ajv/dist/compile/"), [], "ajv's compiler was bundled");
    // Compiled tools, no schema written at run time: no linear-time pattern engine either, in any chunk.
    assert.equal(fromBuild("node_modules/re2js/"), [], "re2js was bundled for compiled tools");
    // Nor a strict rewrite or a pattern's translation into Rust's syntax: the build wrote the strict forms.
    assert.equal(
      plain.entryInputs.filter((file) =>
        /dist\/esm\/runtime\/(strict\/(openai|anthropic|walk|notes|rewrites)|validation\/patterns\/rust-regex)\.js$/.test(
          file,
        ),
      ),
      [],
      "an app of compiled tools bundled the strict rewrite or the Rust regex translation",
    );
    const repeatStrict = {
      type: "object",
      properties: {
        word: { type: "string", description: "The word" },
        times: { type: "number", description: "How often" },
      },
      required: ["word", "times"],
      additionalProperties: false,
    };
    assert.equal(JSON.parse(await runNode(plain.main, dir, { WITH_SCHEMA_TOOL: "0", STRICT_EXPORT: "1" })), [
      repeatStrict,
    ]);

    const compiledOnly = JSON.parse(await runNode(plain.main, dir, { WITH_SCHEMA_TOOL: "0" })) as [
      string,
      string,
      string,
    ][];
    assert.equal(compiledOnly[0], ["a", "success", "abab"]);
    assert.is(compiledOnly[1]![1], "error");
    assert.match(compiledOnly[1]![2], /\/times: must be a number/);
    const refused = JSON.parse(await runNode(plain.main, dir, { WITH_SCHEMA_TOOL: "1" })) as { error: string };
    assert.match(refused.error, /Tool "half".*needs ajv, which this bundle left out: add `import "tooltype\/ajv";`/);

    const withAjv = await bundled(path.join(dir, "with-ajv"), true);
    assert.ok(
      withAjv.entryInputs.some((file) => file.includes("node_modules/ajv/dist/2020")),
      "tooltype/ajv did not bundle ajv",
    );
    assert.ok(
      withAjv.entryInputs.some((file) => file.includes("node_modules/re2js/")),
      "tooltype/ajv did not bundle re2js, which run-time schemas' patterns need",
    );
    const withSchema = JSON.parse(await runNode(withAjv.main, dir, { WITH_SCHEMA_TOOL: "1" })) as [
      string,
      string,
      string,
    ][];
    assert.equal(withSchema[0], ["a", "success", "abab"]);
    assert.equal(withSchema[2], ["c", "success", "4"]);
    assert.is(withSchema[3]![1], "error");
    assert.match(withSchema[3]![2], /\/n: must be a number/);
    // The schema tool's strict form is rewritten at export, by the rewrite tooltype/ajv brought in.
    assert.equal(JSON.parse(await runNode(withAjv.main, dir, { WITH_SCHEMA_TOOL: "1", STRICT_EXPORT: "1" })), [
      repeatStrict,
      { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false },
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const PATTERNS_APP = (second: string) => `import { tool, ToolRegistry, type Pattern } from "tooltype";

/**
 * File a ticket.
 * @param code The ticket's code
 * @param note A note
 */
export const file = tool(function file(code: string & Pattern<"^[A-Z]{2}-[0-9]{1,6}$">, note: string & Pattern<${JSON.stringify(second)}>): string {
  return code;
});

const registry = new ToolRegistry([file]);
const call = (id: string, args: unknown) => ({ id, type: "function" as const, function: { name: "file", arguments: JSON.stringify(args) } });
const answers = await registry.dispatch({ role: "assistant", content: null, tool_calls: [call("a", { code: "AB-12", note: "ok x" }), call("b", { code: "ab-12", note: "ok x" }), call("c", { code: "AB-1", note: "no" })] });
process.stdout.write(JSON.stringify(answers.map((a) => [a.tool_call_id, a.status, a.content])));
`;

test("compiled patterns the automaton holds bundle no re2js; one it cannot hold brings it, and both validate", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-bundle-patterns-"));
  try {
    const run = async (name: string, second: string) => {
      const { outputs, entry, outdir } = await bundleEsmApp(path.join(dir, name), PATTERNS_APP(second), ["node"]);
      const inputs = new Set<string>();
      for (const output of Object.values(outputs)) for (const input of Object.keys(output.inputs)) inputs.add(input);
      const alone = path.join(dir, `${name}-alone`);
      fs.cpSync(outdir, alone, { recursive: true });
      const answers = JSON.parse(await runNode(path.join(alone, path.basename(entry)), dir, {})) as [
        string,
        string,
        string,
      ][];
      return {
        re2js: [...inputs].filter((file) => file.includes("node_modules/re2js/")),
        answers,
        compiled: fs.readFileSync(path.join(dir, name, "out", "app.js"), "utf8"),
      };
    };
    const held = await run("held", "^ok\\s\\w+$");
    assert.equal(held.re2js, [], "re2js was bundled for patterns tooltype's automaton holds");
    assert.not.match(held.compiled, /enginePattern/);
    assert.equal(held.answers[0], ["a", "success", "AB-12"]);
    assert.is(held.answers[1]![1], "error");
    assert.match(held.answers[1]![2], /\/code: must match the pattern/);
    assert.is(held.answers[2]![1], "error");
    assert.match(held.answers[2]![2], /\/note: must match the pattern/);

    // `\b`: tooltype's automaton does not read it, RE2's does; the build emits enginePattern and the bundle holds
    // re2js.
    const engine = await run("engine", "^ok\\b\\s\\w+$");
    assert.ok(
      engine.compiled.includes('enginePattern("^ok\\\\b'),
      "the build did not emit enginePattern for a pattern its automaton cannot hold",
    );
    assert.ok(engine.re2js.length > 0, "the bundle holds no re2js for a pattern only the engine can match");
    assert.equal(engine.answers[0], ["a", "success", "AB-12"]);
    assert.match(engine.answers[1]![2], /\/code: must match the pattern/);
    assert.match(engine.answers[2]![2], /\/note: must match the pattern/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
