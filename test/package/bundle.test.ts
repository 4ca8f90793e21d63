/**
 * The package as a bundler sees it: an ES module app compiled with tspc and the plugin, bundled by esbuild (code
 * splitting on) through the package's `module` condition, then run with node from a folder with no node_modules.
 *
 * - An app of compiled tools gets the ES module build (tree-shaken: no agent loop, no JSON Patch) and none of ajv's
 *   compiler in what it loads: ajv sits in a chunk of its own behind `import()`.
 * - An app that also registers a `tool.fromSchema` tool still validates it: the registry loads that chunk before
 *   its first dispatch, and a wrong argument gets ajv's error for the model.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { bundleEsmApp } from "../../bench/bundle";

const APP = `import { tool, ToolRegistry } from "tooltype";

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
const registry = new ToolRegistry(tools);
const call = (id: string, name: string, args: unknown) => ({ id, type: "function" as const, function: { name, arguments: JSON.stringify(args) } });
const calls = [call("a", "repeat", { word: "ab", times: 2 }), call("b", "repeat", { word: "ab", times: "x" })];
if (process.env.WITH_SCHEMA_TOOL === "1") calls.push(call("c", "half", { n: 8 }), call("d", "half", { n: "eight" }));
const answers = await registry.dispatch({ role: "assistant", content: null, tool_calls: calls });
process.stdout.write(JSON.stringify(answers.map((a) => [a.tool_call_id, a.status, a.content])));
`;

function runNode(file: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { cwd, env: { ...process.env, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} failed: ${String(stderr)}`));
      else resolve(String(stdout));
    });
  });
}

test("esbuild bundles the ES module build; ajv is a chunk of its own, loaded when a schema tool needs it", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-bundle-test-"));
  try {
    const { outputs, entry, outdir } = await bundleEsmApp(path.join(dir, "app"), APP, ["node"]);
    const entryInputs = Object.keys(outputs[entry]!.inputs);
    // Input paths are relative to the working directory: match a part at the start or after a slash.
    const fromBuild = (part: string) => entryInputs.filter((file) => `/${file}`.includes(`/${part}`));
    assert.ok(fromBuild("dist/esm/runtime/").length > 0, `the entry holds no ES module build files: ${entryInputs.join(", ")}`);
    assert.equal(fromBuild("dist/runtime/"), [], "the CommonJS build was bundled");
    assert.equal(fromBuild("dist/esm/runtime/agent/"), [], "the agent loop was not tree-shaken");
    assert.equal(fromBuild("node_modules/rfc6902/"), [], "rfc6902 (JSON Patch) was bundled");
    assert.equal(fromBuild("node_modules/ajv/dist/2020"), [], "ajv's compiler is in the entry chunk");
    assert.equal(fromBuild("node_modules/ajv/dist/compile/"), [], "ajv's compiler is in the entry chunk");
    const dynamic = outputs[entry]!.imports.filter((imported) => imported.kind === "dynamic-import").map((imported) => imported.path);
    const ajvChunk = dynamic.find((file) => Object.keys(outputs[file]!.inputs).some((input) => input.includes("node_modules/ajv/dist/2020")));
    assert.ok(ajvChunk, `no chunk behind import() holds ajv: ${dynamic.join(", ")}`);

    // Run away from any node_modules: the bundle must stand alone.
    const alone = path.join(dir, "alone");
    fs.cpSync(outdir, alone, { recursive: true });
    const main = path.join(alone, path.basename(entry));
    const compiledOnly = JSON.parse(await runNode(main, alone, { WITH_SCHEMA_TOOL: "0" })) as [string, string, string][];
    assert.equal(compiledOnly[0], ["a", "success", "abab"]);
    assert.is(compiledOnly[1]![1], "error");
    assert.match(compiledOnly[1]![2], /\/times: must be a number/);

    const withSchema = JSON.parse(await runNode(main, alone, { WITH_SCHEMA_TOOL: "1" })) as [string, string, string][];
    assert.equal(withSchema[0], ["a", "success", "abab"]);
    assert.equal(withSchema[2], ["c", "success", "4"]);
    assert.is(withSchema[3]![1], "error");
    assert.match(withSchema[3]![2], /\/n: must be a number/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
