/**
 * The main entry as Node loads it (the form scripts/node-entries.mjs writes from runtime/entries/index.ts): the same
 * exports as index.ts, but
 * the helpers an app that registers, exports and dispatches does not touch are required on first access; exporting
 * tools loads Chat Completions' tool lists without the chat provider, and the strict rewrite only for a strict export.
 * - `require("tooltype")` exports exactly what index.ts does, each deferred value the very object index.ts exports;
 * - an ES module importing "tooltype" sees every name (Node's CommonJS export detection reads the getters);
 * - at start no strict or provider module is loaded; each arrives on its first use; no agent module ever is.
 * `tooltype/loop` (the agent loop, structured output, stream accumulation) as Node loads it, its form written from
 * runtime/entries/loop.ts:
 * - under `require` and `import` it exports exactly what loop.ts does, each value the very object loop.ts exports;
 * - requiring it loads nothing but the entry, and `structuredOutput` does not load the loop;
 * - the main entry has none of its values (a re-export there would put the loop back into every CommonJS bundle).
 * `tooltype/kit` as Node loads it (its form written from runtime/entries/kit.ts), which every CommonJS file of compiled
 * tools using a format,
 * a pattern or `uniqueItems` requires as it loads:
 * - it exports exactly what kit.ts does, each value the very function kit.ts exports, and the same on every read;
 * - requiring it loads no check; a check's module arrives on its first read, and only that module;
 * - an ES module's `import * as kit from "tooltype/kit"` sees every name;
 * - a compiled tool whose validator uses a format validates through it (valid and invalid dates).
 * The CommonJS build requires its own modules by relative path (scripts/cjs-imports.mjs): no `require("#lazy/…")` is
 * left, and each loader of runtime/lazy/ that package.json "imports" gives Node (`*.node.js`) is required in its place.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { type ToolRegistry, ToolValidationError } from "tooltype";
import { compileFixture } from "../support/compile";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");

function runNode(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: repo, timeout: HANG_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`node ${args.join(" ")} failed: ${String(stderr)}`));
      else resolve(String(stdout));
    });
  });
}

test("require('tooltype') defers the helpers and strict mode to their first use, and has no agent loop", async () => {
  const script = `
const loaded = () => Object.keys(require.cache).map((file) => file.split(require("path").sep).join("/").replace(/^.*\\/dist\\/runtime\\//, ""));
const main = require("tooltype");
const atStart = loaded();
const search = main.tool.fromSchema(
  { name: "search", parameters: { type: "object", properties: { q: { type: "string" }, n: { type: "integer" } }, required: ["q"] } },
  (args) => args.q,
);
const registry = new main.ToolRegistry([search]);
const plain = registry.toOpenAITools();
const afterExport = loaded();
const strict = registry.toOpenAITools({ strict: true });
const afterStrict = loaded();
const parseToolCalls = main.parseToolCalls;
const afterParse = loaded();
const eager = require("${repo}/dist/runtime/entries/index.js");
const names = (module) => Object.keys(module).sort();
const differing = names(eager).filter((name) => eager[name] !== main[name]);
process.stdout.write(JSON.stringify({ atStart, afterExport, afterStrict, afterParse, plain, strict,
  parseToolCalls: typeof parseToolCalls, runTools: "runTools" in main, names: names(main), eagerNames: names(eager),
  differing }));`;
  const report = JSON.parse(await runNode(["-e", script])) as {
    atStart: string[];
    afterExport: string[];
    afterStrict: string[];
    afterParse: string[];
    plain: { function: { parameters: unknown; strict?: boolean } }[];
    strict: { function: { parameters: unknown; strict?: boolean } }[];
    parseToolCalls: string;
    runTools: boolean;
    names: string[];
    eagerNames: string[];
    differing: string[];
  };
  assert.ok(
    report.atStart.includes("entries/index.node.js"),
    "require('tooltype') did not resolve to runtime/entries/index.node.js",
  );
  const deferred =
    /^(agent\/|strict\/(openai|anthropic|walk|notes)\.js$|providers\/(openai-chat\/(tools|functions|loop|stream)|mcp\/(tools|answer))\.js$|registry\/(parse-tool-calls|answer|choice)\.js$|arguments\/(settle|invalid|coerce|schema-fit)\.js$)/;
  assert.equal(
    report.atStart.filter((file) => deferred.test(file)),
    [],
    "require('tooltype') loaded modules an app needs only later",
  );
  // Exporting loads Chat Completions' tool lists only: not the chat provider's loop, not the strict rewrite.
  assert.equal(
    report.afterExport.filter((file) => deferred.test(file)),
    ["providers/openai-chat/tools.js"],
  );
  assert.ok(report.afterStrict.includes("strict/openai.js"), "a strict export did not load the strict rewrite");
  assert.ok(
    report.afterParse.includes("registry/parse-tool-calls.js") && report.parseToolCalls === "function",
    "parseToolCalls was not loaded on first access",
  );
  assert.not.ok(report.runTools, "the main entry still exports runTools, which is tooltype/loop's");
  assert.equal(
    report.afterParse.filter((file) => file.startsWith("agent/")),
    [],
    "the main entry loaded a module of the agent loop",
  );

  const parameters = { type: "object", properties: { q: { type: "string" }, n: { type: "integer" } }, required: ["q"] };
  assert.equal(report.plain, [{ type: "function", function: { name: "search", parameters } }]);
  assert.equal(report.strict, [
    {
      type: "function",
      function: {
        name: "search",
        parameters: {
          type: "object",
          properties: { q: { type: "string" }, n: { type: ["integer", "null"] } },
          required: ["q", "n"],
          additionalProperties: false,
        },
        strict: true,
      },
    },
  ]);
  assert.equal(report.names, report.eagerNames, "entries/index.node.js and entries/index.js export different names");
  assert.equal(report.differing, [], "a deferred export is not the object entries/index.js exports");
});

test("an ES module importing 'tooltype' or 'tooltype/kit' under Node sees every export", async () => {
  const script = `import * as main from "tooltype";
import * as kit from "tooltype/kit";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const eager = require("${repo}/dist/runtime/entries/index.js");
const eagerKit = require("${repo}/dist/runtime/entries/kit.js");
const own = (names) => names.filter((name) => !["default", "module.exports", "__esModule"].includes(name)).sort();
process.stdout.write(JSON.stringify({ names: own(Object.keys(main)), expected: own(Object.keys(eager)), parseToolCalls: typeof main.parseToolCalls, same: main.parseToolCalls === eager.parseToolCalls,
  kitNames: own(Object.keys(kit)), expectedKit: own(Object.keys(eagerKit)), sameKit: kit.email === eagerKit.email && kit.unique === eagerKit.unique }));`;
  const report = JSON.parse(await runNode(["--input-type=module", "-e", script])) as {
    names: string[];
    expected: string[];
    parseToolCalls: string;
    same: boolean;
    kitNames: string[];
    expectedKit: string[];
    sameKit: boolean;
  };
  assert.equal(report.names, report.expected);
  assert.is(report.parseToolCalls, "function");
  assert.ok(report.same, "the ES module's parseToolCalls is not the CommonJS build's");
  assert.equal(report.kitNames, report.expectedKit);
  assert.ok(report.sameKit, "the ES module's kit checks are not the CommonJS build's");
});

test("tooltype/loop under require: the agent loop's values, each required on its first read; none on the main entry", async () => {
  const script = `
const loaded = () => Object.keys(require.cache).map((file) => file.split(require("path").sep).join("/")).filter((file) => file.includes("/dist/runtime/")).map((file) => file.replace(/^.*\\/dist\\/runtime\\//, ""));
const agent = require("tooltype/loop");
const atStart = loaded();
const structuredOutput = agent.structuredOutput;
const afterStructured = loaded();
const runTools = agent.runTools;
const afterRun = loaded();
const eager = require("${repo}/dist/runtime/entries/loop.js");
const names = (module) => Object.keys(module).sort();
const differing = names(eager).filter((name) => agent[name] !== eager[name]);
const main = require("tooltype");
process.stdout.write(JSON.stringify({ atStart, afterStructured, afterRun, structuredOutput: typeof structuredOutput,
  runTools: typeof runTools, names: names(agent), eagerNames: names(eager), differing,
  onMain: names(eager).filter((name) => name in main) }));`;
  const report = JSON.parse(await runNode(["-e", script])) as {
    atStart: string[];
    afterStructured: string[];
    afterRun: string[];
    structuredOutput: string;
    runTools: string;
    names: string[];
    eagerNames: string[];
    differing: string[];
    onMain: string[];
  };
  assert.equal(report.atStart, ["entries/loop.node.js"], "require('tooltype/loop') loaded more than its entry");
  assert.is(report.structuredOutput, "function");
  assert.ok(report.afterStructured.includes("agent/structured.js"), "structuredOutput was not loaded on first read");
  assert.not.ok(report.afterStructured.includes("agent/run-tools.js"), "structuredOutput loaded the agent loop");
  assert.ok(report.afterRun.includes("agent/run-tools.js") && report.runTools === "function");
  for (const name of ["runTools", "structuredOutput", "accumulateToolCalls", "stepCountIs", "PATCH_TOOL_NAME"])
    assert.ok(report.eagerNames.includes(name), `tooltype/loop does not export ${name}`);
  assert.equal(report.names, report.eagerNames, "entries/loop.node.js and entries/loop.js export different names");
  assert.equal(report.differing, [], "a value of entries/loop.node.js is not the object entries/loop.js exports");
  assert.equal(report.onMain, [], "the main entry exports values of tooltype/loop");
});

test("tooltype/loop under import: every name, the CommonJS build's objects; the main entry has none of them", async () => {
  const script = `import * as agent from "tooltype/loop";
import { runTools, structuredOutput } from "tooltype/loop";
import * as main from "tooltype";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const eager = require("${repo}/dist/runtime/entries/loop.js");
const own = (names) => names.filter((name) => !["default", "module.exports", "__esModule"].includes(name)).sort();
process.stdout.write(JSON.stringify({ names: own(Object.keys(agent)), expected: own(Object.keys(eager)),
  same: runTools === eager.runTools && structuredOutput === eager.structuredOutput,
  onMain: own(Object.keys(eager)).filter((name) => name in main) }));`;
  const report = JSON.parse(await runNode(["--input-type=module", "-e", script])) as {
    names: string[];
    expected: string[];
    same: boolean;
    onMain: string[];
  };
  assert.ok(report.expected.includes("runTools"), "tooltype/loop does not export runTools");
  assert.equal(report.names, report.expected);
  assert.ok(report.same, "the ES module's runTools or structuredOutput is not the CommonJS build's");
  assert.equal(report.onMain, [], "the main entry exports values of tooltype/loop");
});

test("require('tooltype/kit') loads each check's module on its first read, and exports what kit.ts does", async () => {
  const script = `
const loaded = () => Object.keys(require.cache).map((file) => file.split(require("path").sep).join("/")).filter((file) => file.includes("/dist/runtime/")).map((file) => file.replace(/^.*\\/dist\\/runtime\\//, ""));
const kit = require("tooltype/kit");
const atStart = loaded();
const first = kit.dateTime;
const afterDate = loaded();
const eager = require("${repo}/dist/runtime/entries/kit.js");
const names = (module) => Object.keys(module).sort();
const differing = names(eager).filter((name) => kit[name] !== eager[name] || kit[name] !== kit[name]);
process.stdout.write(JSON.stringify({ atStart, afterDate, same: first === kit.dateTime, names: names(kit), eagerNames: names(eager), differing }));`;
  const report = JSON.parse(await runNode(["-e", script])) as {
    atStart: string[];
    afterDate: string[];
    same: boolean;
    names: string[];
    eagerNames: string[];
    differing: string[];
  };
  assert.equal(report.atStart, ["entries/kit.node.js"], "require('tooltype/kit') loaded more than its entry");
  assert.equal(
    report.afterDate,
    ["entries/kit.node.js", "validation/formats.js"],
    "reading dateTime loaded more than the formats",
  );
  assert.ok(report.same, "a second read of dateTime gave another value");
  assert.ok(report.eagerNames.includes("dateTime") && report.eagerNames.includes("pattern"));
  assert.equal(report.names, report.eagerNames, "entries/kit.node.js and entries/kit.js export different names");
  assert.equal(report.differing, [], "a check of entries/kit.node.js is not the function entries/kit.js exports");
});

test("a compiled tool with a date-time parameter validates through the lazy kit", async () => {
  const fixture = compileFixture(`
import { tool, ToolRegistry } from "tooltype";
/**
 * Book a slot.
 * @param at When
 * @param tags Labels, each once
 */
export const book = tool(function book(at: Date, tags: string[] = []) { return at.toISOString() + tags.length; });
export const registry = new ToolRegistry([book]);
`);
  assert.equal(fixture.diagnostics, []);
  assert.match(fixture.js["main.js"]!, /require\("tooltype\/kit"\)/);
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  assert.is(await registry.invoke("book", { at: "2026-01-02T03:04:05Z" }), "2026-01-02T03:04:05.000Z0");
  const refused = await Promise.resolve(registry.invoke("book", { at: "tomorrow" })).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.instance(refused, ToolValidationError);
  assert.match((refused as ToolValidationError).message, /date-time/);
});

test("the CommonJS build requires each loader of runtime/lazy/ by relative path, where the source wrote #lazy/…", () => {
  const imports = (
    JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as {
      imports: Record<string, { default: string }>;
    }
  ).imports;
  assert.equal(Object.keys(imports), ["#lazy/*"], 'package.json "imports" has one pattern, #lazy/*');
  const [prefix, suffix] = imports["#lazy/*"]!.default.split("*") as [string, string];
  const required = new Set<string>();
  for (const js of listJs(path.join(repo, "dist"))) {
    const text = fs.readFileSync(js, "utf8");
    assert.not.match(text, /\brequire\("#/, `${path.relative(repo, js)} still requires a "#" specifier`);
    for (const match of text.matchAll(/\brequire\("(\.[^"]+)"\)/g))
      required.add(path.resolve(path.dirname(js), match[1]!));
  }
  const loaders = fs
    .readdirSync(path.join(repo, "runtime", "lazy"))
    .filter((file) => file.endsWith(".node.ts"))
    .map((file) => file.slice(0, -".node.ts".length));
  assert.ok(loaders.length >= 5, "runtime/lazy/ has the runtime's loaders");
  for (const name of loaders) {
    const target = path.join(repo, `${prefix}${name}${suffix}`);
    assert.ok(
      required.has(target),
      `no CommonJS file requires ${path.relative(repo, target)}, what #lazy/${name} gives Node`,
    );
  }
});

function* listJs(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "esm") yield* listJs(file);
    } else if (entry.name.endsWith(".js")) yield file;
  }
}

test.run();
