/**
 * The one-provider entries (`tooltype/openai`, …): what a size-minded app bundles and loads.
 *
 * - An app of compiled tools written against `tooltype/openai`, compiled with tspc and the plugin and bundled by
 *   esbuild (code splitting on): the part the app loads on start (the entry and its static chunks, read from
 *   esbuild's metafile) holds no other provider, no stream accumulator, no agent loop, not the full pipeline nor
 *   what only it uses (reading arguments text, repair, coercion), no partial-json, json5 or ajv compiler;
 *   the other providers and the full pipeline sit in chunks of their own. Run alone, the bundle answers a chat
 *   message and then an Anthropic, a Gemini and a Responses API message (their chunks load on first need).
 * - Under Node (the CommonJS build), `require("tooltype/openai")` loads none of those modules either, and a
 *   message of another format still dispatches; `require("tooltype")` loads each provider on its first use.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { bundleEsmApp, staticOutputs } from "../../bench/bundle";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");

const APP = `import { tool, ToolRegistry } from "tooltype/openai";

/**
 * Repeat a word.
 * @param word The word
 * @param times How often
 */
export const repeat = tool(function repeat(word: string, times: number): string {
  return word.repeat(times);
});

const registry = new ToolRegistry([repeat]);
const args = { word: "ab", times: 2 };
const chat = await registry.dispatch({
  role: "assistant",
  content: null,
  tool_calls: [{ id: "a", type: "function", function: { name: "repeat", arguments: JSON.stringify(args) } }],
});
const anthropic = await registry.dispatch({ role: "assistant", content: [{ type: "tool_use", id: "b", name: "repeat", input: args }] });
const gemini = await registry.dispatch({ role: "model", parts: [{ functionCall: { id: "c", name: "repeat", args } }] });
const responses = await registry.dispatch({ output: [{ type: "function_call", call_id: "d", name: "repeat", arguments: JSON.stringify(args) }] });
process.stdout.write(JSON.stringify({ tools: registry.toOpenAITools(), strict: registry.toOpenAITools({ strict: true }), chat: chat.map((m) => m.toJSON()), anthropic, gemini, responses }));
`;

/** Modules no part of a Chat Completions app's start may hold (paths inside the ES module build or node_modules). */
const NOT_AT_START: readonly RegExp[] = [
  /dist\/esm\/runtime\/providers\/(anthropic|gemini|openai-responses)\//,
  /dist\/esm\/runtime\/providers\/stream\.js$/,
  /dist\/esm\/runtime\/providers\/openai-chat\/(stream|functions|loop)\.js$/,
  /dist\/esm\/runtime\/(providers\/at-hand|lazy\/providers\.bundle)\.js$/,
  /dist\/esm\/runtime\/agent\//,
  // The stages' continuations and what only they use: reading arguments text, repairing it, coercing, the words for
  // failures.
  /dist\/esm\/runtime\/dispatch\/(continuations|continue-call)\.js$/,
  // The span wrapper of a traced dispatch: an app that never calls useOpenTelemetry carries none.
  /dist\/esm\/runtime\/dispatch\/tool-spans\.js$/,
  /dist\/esm\/runtime\/arguments\/(read-text|repair|parse|show|coerce)\.js$/,
  // The strict rewrites and the translation of a pattern into Rust's regex syntax: a compiled tool's metadata
  // carries its strict forms and its grammar from the build, so exporting it rewrites nothing.
  /dist\/esm\/runtime\/strict\/(openai|anthropic|walk|notes|rewrites)\.js$/,
  /dist\/esm\/runtime\/validation\/patterns\/rust-regex\.js$/,
  /node_modules\/partial-json\//,
  /node_modules\/json5\//,
  /node_modules\/ajv\/dist\/(2020|compile\/index|core)\.js$/,
];

function runNode(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd, timeout: HANG_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`node ${args.join(" ")} failed: ${String(stderr)}`));
      else resolve(String(stdout));
    });
  });
}

test("a tooltype/openai app bundles no other provider, stream or agent code at start, and loads them on first need", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-provider-entry-"));
  try {
    const bundle = await bundleEsmApp(path.join(dir, "app"), APP, ["node"]);
    const atStart = staticOutputs(bundle);
    const startInputs = atStart
      .flatMap((file) => Object.keys(bundle.outputs[file]!.inputs))
      .map((file) => path.resolve(file));
    assert.ok(
      startInputs.some((file) => file.endsWith("dist/esm/runtime/registry/presets/openai-chat.js")),
      `the app's start holds no tooltype/openai registry: ${startInputs.join(", ")}`,
    );
    for (const pattern of NOT_AT_START) {
      assert.equal(
        startInputs.filter((file) => pattern.test(file)),
        [],
        `the app's start holds modules matching ${pattern}`,
      );
    }
    const later = Object.keys(bundle.outputs).filter((file) => !atStart.includes(file));
    for (const module of [
      "providers/anthropic/provider",
      "providers/gemini/provider",
      "providers/openai-responses/provider",
      "dispatch/continue-call",
      "arguments/read/read-text",
    ]) {
      const chunk = later.find((file) =>
        Object.keys(bundle.outputs[file]!.inputs).some((input) => input.endsWith(`dist/esm/runtime/${module}.js`)),
      );
      assert.ok(chunk, `no chunk loaded on need holds ${module}.js`);
    }

    // Away from any node_modules: the bundle must stand alone.
    const alone = path.join(dir, "alone");
    fs.cpSync(bundle.outdir, alone, { recursive: true });
    const report = JSON.parse(await runNode([path.join(alone, path.basename(bundle.entry))], dir)) as {
      tools: { function: { name: string; parameters: unknown } }[];
      strict: { function: { name: string; parameters: unknown; strict?: boolean } }[];
      chat: unknown[];
      anthropic: unknown;
      gemini: unknown;
      responses: unknown;
    };
    assert.equal(
      report.tools.map((entry) => entry.function.name),
      ["repeat"],
    );
    // A strict export with no rewrite at start: the form the build wrote (both parameters required, so as it is).
    assert.equal(report.strict, [{ type: "function", function: { ...report.tools[0]!.function, strict: true } }]);
    assert.equal(report.chat, [{ role: "tool", tool_call_id: "a", content: "abab" }]);
    assert.equal(report.anthropic, {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "b", content: "abab" }],
    });
    assert.equal(report.gemini, {
      role: "user",
      parts: [{ functionResponse: { id: "c", name: "repeat", response: { output: "abab" } } }],
    });
    assert.equal(report.responses, [{ type: "function_call_output", call_id: "d", output: "abab" }]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** The app of the test above, traced: the API is what the page's OpenTelemetry setup gave it (here, a runner). */
const TRACED_APP = `import { tool, ToolRegistry, useOpenTelemetry } from "tooltype/openai";

/**
 * Repeat a word.
 * @param word The word
 * @param times How often
 */
export const repeat = tool(function repeat(word: string, times: number): string {
  return word.repeat(times);
});

useOpenTelemetry((globalThis as unknown as { otelApi: object }).otelApi);
const registry = new ToolRegistry([repeat]);
const [answer] = await registry.dispatch({
  role: "assistant",
  content: null,
  tool_calls: [{ id: "a", type: "function", function: { name: "repeat", arguments: '{"word":"ab","times":2}' } }],
});
process.stdout.write(JSON.stringify({ content: answer!.content }));
`;

test("a bundled app traces once useOpenTelemetry gave it the API: the call's execute_tool span, with its attributes", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-provider-entry-traced-"));
  try {
    const bundle = await bundleEsmApp(path.join(dir, "app"), TRACED_APP, ["node"]);
    const alone = path.join(dir, "alone");
    fs.cpSync(bundle.outdir, alone, { recursive: true });
    // The runner sets up OpenTelemetry from this repository's packages, as the app's host would, then runs the bundle.
    const runner = path.join(dir, "runner.mjs");
    fs.writeFileSync(
      runner,
      `import { createRequire } from "node:module";
const require = createRequire(${JSON.stringify(path.join(repo, "package.json"))});
const api = require("@opentelemetry/api");
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");
const exporter = new InMemorySpanExporter();
api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
globalThis.otelApi = api;
await import(${JSON.stringify(path.join(alone, path.basename(bundle.entry)))});
process.stdout.write("\\n" + JSON.stringify(exporter.getFinishedSpans().map((span) => [span.name, span.attributes["gen_ai.tool.call.id"]])));
`,
    );
    const [app, spans] = (await runNode([runner], dir)).split("\n");
    assert.equal(JSON.parse(app!), { content: "abab" });
    assert.equal(JSON.parse(spans!), [["execute_tool repeat", "a"]]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("require('tooltype/openai') loads no other provider, stream or agent module, and still dispatches any format", async () => {
  const script = `
const { ToolRegistry } = require("tooltype/openai");
const loaded = () => Object.keys(require.cache).map((file) => file.split(require("path").sep).join("/"));
const atStart = loaded();
const registry = new ToolRegistry();
registry.dispatch({ role: "assistant", content: [{ type: "tool_use", id: "b", name: "nope", input: {} }] }).then((answer) => {
  process.stdout.write(JSON.stringify({ atStart, answer, after: loaded() }));
});`;
  const report = JSON.parse(await runNode(["-e", script], repo)) as {
    atStart: string[];
    answer: { role: string; content: { tool_use_id: string; is_error?: boolean }[] };
    after: string[];
  };
  assert.ok(
    report.atStart.some((file) => file.endsWith("dist/runtime/entries/openai.js")),
    "tooltype/openai did not resolve to the CommonJS build",
  );
  const unwanted = report.atStart.filter((file) =>
    /dist\/runtime\/(providers\/(anthropic\/|gemini\/|openai-responses\/|stream\.js|at-hand\.js|openai-chat\/(loop|stream)\.js)|agent\/)|node_modules\/(partial-json|ajv)\//.test(
      file,
    ),
  );
  assert.equal(
    unwanted,
    [],
    "require('tooltype/openai') loaded another provider, the agent loop or an optional parser",
  );
  assert.is(report.answer.role, "user");
  assert.is(report.answer.content[0]!.tool_use_id, "b");
  assert.is(report.answer.content[0]!.is_error, true);
  assert.ok(
    report.after.some((file) => file.endsWith("dist/runtime/providers/anthropic/provider.js")),
    "the Anthropic provider was not loaded on need",
  );
});

test("require('tooltype') loads a provider on its first use, not before", async () => {
  const script = `
const { ToolRegistry, formatAnswer } = require("tooltype");
const loaded = () => Object.keys(require.cache).map((file) => file.split(require("path").sep).join("/"));
const atStart = loaded();
const registry = new ToolRegistry();
const gemini = registry.toGeminiTools();
const afterExport = loaded();
registry.dispatch({ role: "assistant", content: [{ type: "tool_use", id: "b", name: "nope", input: {} }] }).then((answer) => {
  const formatted = formatAnswer({ output: [] }, []);
  process.stdout.write(JSON.stringify({ atStart, gemini, afterExport, answer, formatted, after: loaded() }));
});`;
  const report = JSON.parse(await runNode(["-e", script], repo)) as {
    atStart: string[];
    gemini: unknown;
    afterExport: string[];
    answer: { role: string; content: { tool_use_id: string }[] };
    formatted: unknown;
    after: string[];
  };
  const providers = (files: string[]) =>
    files
      .filter((file) =>
        /dist\/runtime\/providers\/(openai-chat|openai-responses|anthropic|gemini)\/provider\.js$|node_modules\/partial-json\//.test(
          file,
        ),
      )
      .map((file) => file.replace(/^.*\/(dist|node_modules)\//, "$1/"))
      .sort();
  assert.equal(
    providers(report.atStart),
    [],
    "require('tooltype') loaded a provider (or an optional parser) before its first use",
  );
  assert.equal(report.gemini, [{ functionDeclarations: [] }]);
  assert.equal(providers(report.afterExport), ["dist/runtime/providers/gemini/provider.js"]);
  assert.is(report.answer.content[0]!.tool_use_id, "b");
  assert.equal(report.formatted, []);
  assert.equal(providers(report.after), [
    "dist/runtime/providers/anthropic/provider.js",
    "dist/runtime/providers/gemini/provider.js",
    "dist/runtime/providers/openai-responses/provider.js",
  ]);
});

test.run();
