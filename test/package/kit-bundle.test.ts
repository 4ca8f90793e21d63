/**
 * `tooltype/kit`, what generated validators import by name (format checks, guarded patterns, `uniqueItems`), in the
 * build outputs a user gets:
 * - an app whose tools use no format, pattern or `uniqueItems`, compiled with tspc and bundled by esbuild (code
 *   splitting on): its start (the entry and its static chunks, from esbuild's metafile) holds no format check,
 *   no pattern guard and no reader of flat arguments (a chunk of its own), and its compiled module does not import
 *   `tooltype/kit` at all;
 * - the same with a tool taking `Format<"email">`: its start holds the email check and no other format, and the
 *   bundle, run alone, accepts a good address and refuses a bad one with the usual message;
 * - CommonJS output (tsc's `require`) and ES module output under `verbatimModuleSyntax` and `isolatedModules` carry
 *   the import, and the CommonJS build validates formats, patterns and `uniqueItems`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import tooltype from "tooltype/transformer";
import type { ToolRegistry } from "tooltype";
import { bundleEsmApp, type EsmAppBundle, staticOutputs } from "../../bench/bundle";
import { compileFixture } from "../support/compile";
import { KNOWN_FORMATS } from "../../transformer/schema/keywords";
import { kitFormatExport } from "../../runtime/tool/meta";
import * as kit from "../../runtime/entries/kit";
import { HANG_MS } from "../support/hang";

const DISPATCH = `
const call = (id: string, args: unknown) => ({ id, type: "function" as const, function: { name: "note", arguments: JSON.stringify(args) } });
const answers = await registry.dispatch({ role: "assistant", content: null, tool_calls: [call("a", GOOD), call("b", BAD)] });
process.stdout.write(JSON.stringify(answers.map((m) => [m.status, m.content])));
`;

const PLAIN_APP = `import { tool, ToolRegistry } from "tooltype/openai";

/**
 * Take a note.
 * @param title Title
 * @param body Text
 * @param tag Label
 */
export const note = tool(function note(title: string, body: string, tag: string): string {
  return title + ":" + body + ":" + tag;
});
const registry = new ToolRegistry([note]);
const GOOD = { title: "a", body: "b", tag: "c" };
const BAD = { title: "a", body: 1, tag: "c" };
const call = (id: string, args: unknown) => ({ id, type: "function" as const, function: { name: "note", arguments: JSON.stringify(args) } });
const message = { role: "assistant" as const, content: null, tool_calls: [call("a", GOOD), call("b", BAD)] };
// The first call asks for the reader of flat arguments (a chunk); later calls may read with it, to the same answers.
const first = await registry.dispatch(message);
await new Promise((resolve) => setTimeout(resolve, 20));
const second = await registry.dispatch(message);
process.stdout.write(JSON.stringify([...first, ...second].map((m) => [m.status, m.content])));
`;

const EMAIL_APP = `import { tool, ToolRegistry, type Format } from "tooltype/openai";

/**
 * Take a note for someone.
 * @param title Title
 * @param to Who gets it
 */
export const note = tool(function note(title: string, to: string & Format<"email">): string {
  return title + " for " + to;
});
const registry = new ToolRegistry([note]);
const GOOD = { title: "a", to: "ana@example.com" };
const BAD = { title: "a", to: "ana at example" };
${DISPATCH}`;

/** Text only the named format's check holds (in the minified output), for formats an email app must not carry. */
const OTHER_FORMATS: Record<string, string> = {
  uuid: "urn:uuid:",
  url: "https?|ftp",
  duration: "(?=\\d|T\\d)",
  "uri-template": "[+#./;?&=,!@|]",
  byte: "[A-Za-z\\d+/]{4}",
  hostname: "{0,61}",
  date: "31,28,31",
};

function runNode(file: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { cwd, timeout: HANG_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`node ${file} failed: ${String(stderr)}`));
      else resolve(String(stdout));
    });
  });
}

/** The app's start: its code, and the minified bytes of each runtime module in it. */
function atStart(bundle: EsmAppBundle): { code: string; modules: Map<string, number> } {
  const files = staticOutputs(bundle);
  const modules = new Map<string, number>();
  for (const file of files) {
    for (const [input, { bytesInOutput }] of Object.entries(bundle.outputs[file]!.inputs)) {
      const at = input.lastIndexOf("dist/esm/runtime/");
      if (at >= 0 && bytesInOutput > 0) modules.set(input.slice(at + "dist/esm/runtime/".length), bytesInOutput);
    }
  }
  return { code: files.map((file) => fs.readFileSync(path.resolve(file), "utf8")).join("\n"), modules };
}

/** Runs the bundle on its own, away from node_modules, and returns each answer's status and content. */
async function runAlone(bundle: EsmAppBundle, dir: string): Promise<[string, string][]> {
  const alone = path.join(dir, "alone");
  fs.cpSync(bundle.outdir, alone, { recursive: true });
  return JSON.parse(await runNode(path.join(alone, path.basename(bundle.entry)), alone)) as [string, string][];
}

test("an app whose tools use no format bundles no format check, pattern guard or uniqueness check at start", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-kit-plain-"));
  try {
    const bundle = await bundleEsmApp(path.join(dir, "app"), PLAIN_APP, ["node"]);
    const compiled = fs.readFileSync(path.join(dir, "app", "out", "app.js"), "utf8");
    assert.not.ok(compiled.includes("tooltype/kit"), "the compiled app imports tooltype/kit without needing it");
    const { modules } = atStart(bundle);
    assert.ok(modules.has("validation/kit.js"), `the start holds no validator kit: ${[...modules.keys()].join(", ")}`);
    for (const module of [
      "validation/formats.js",
      "validation/patterns/pattern-guard.js",
      "validation/unique.js",
      "validation/kit-imports.js",
      "kit.js",
    ]) {
      assert.not.ok(modules.has(module), `the start holds ${module} (${modules.get(module)} bytes)`);
    }
    // The reader of flat arguments is a chunk of its own, loaded on the first call it could read.
    for (const module of ["arguments/read/flat-json.js", "arguments/read/flat-keys.js", "dispatch/read-flat.js"])
      assert.not.ok(modules.has(module), `the start holds ${module}`);
    assert.ok(
      Object.values(bundle.outputs).some((output) =>
        Object.keys(output.inputs).some((i) => i.endsWith("read-flat.js")),
      ),
      "a chunk holds the reader",
    );
    const answers = await runAlone(bundle, dir);
    assert.equal(answers[0], ["success", "a:b:c"]);
    assert.is(answers[1]![0], "error");
    assert.match(answers[1]![1], /\/body: must be a string; got 1/);
    assert.equal(answers.slice(2), answers.slice(0, 2), "the same answers once the reader may have loaded");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an app whose tool takes Format<"email"> bundles the email check and no other at start, and it validates', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-kit-email-"));
  try {
    const bundle = await bundleEsmApp(path.join(dir, "app"), EMAIL_APP, ["node"]);
    const compiled = fs.readFileSync(path.join(dir, "app", "out", "app.js"), "utf8");
    assert.match(compiled, /import \* as __tooltype_kit from "tooltype\/kit";/);
    assert.match(compiled, /!__tooltype_kit\.email\(d\.to\)/);
    const { code, modules } = atStart(bundle);
    const formats = modules.get("validation/formats.js");
    assert.ok(formats !== undefined, "the start holds no format check");
    // All formats take about 6.7 KB minified; the email check and its length cap well under one.
    assert.ok(formats < 1000, `${formats} bytes of format checks at start`);
    assert.ok(code.includes("!#$%&'*+/=?^_"), "the start holds no email check");
    for (const [format, marker] of Object.entries(OTHER_FORMATS)) {
      assert.not.ok(code.includes(marker), `the start holds the ${format} check (${marker})`);
    }
    assert.not.ok(modules.has("validation/patterns/pattern-guard.js"), "the start holds the pattern guard");
    const answers = await runAlone(bundle, dir);
    assert.equal(answers[0], ["success", "a for ana@example.com"]);
    assert.is(answers[1]![0], "error");
    assert.match(
      answers[1]![1],
      /\/to: must be a string in the email format, such as "name@example\.com"; got "ana at example"/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("tooltype/kit exports the check of every format the transformer knows, under the name generated code reads", () => {
  const exports = kit as unknown as Record<string, unknown>;
  for (const format of KNOWN_FORMATS) assert.type(exports[kitFormatExport(format)], "function", format);
  assert.equal(
    Object.keys(exports).sort(),
    [...[...KNOWN_FORMATS].map(kitFormatExport), "pattern", "enginePattern", "unique", "codePoints", "oneOf"].sort(),
  );
});

const KIT_TOOL = `
import { tool, ToolRegistry, type Format, type Pattern, type UniqueItems } from "tooltype";
/**
 * Everything the kit holds.
 * @param code A code
 * @param mail An address
 * @param day A day
 * @param tags Tags
 */
export const kitted = tool(function kitted(code: string & Pattern<"^[A-Z]{2}-[0-9]+$">, mail: string & Format<"email">, day: string & Format<"date">, tags: string[] & UniqueItems) { return "ok"; });
export const registry = new ToolRegistry([kitted]);
`;

test("CommonJS output requires tooltype/kit, and formats, patterns and uniqueItems validate", async () => {
  const fixture = compileFixture(KIT_TOOL);
  assert.equal(
    fixture.diagnostics.filter((d) => d.category === "error"),
    [],
  );
  assert.match(fixture.js["main.js"]!, /const __tooltype_kit = __importStar\(require\("tooltype\/kit"\)\);/);
  const { registry } = fixture.load<{ registry: ToolRegistry }>();
  const good = { code: "AB-1", mail: "a@example.com", day: "2025-01-31", tags: ["x", "y"] };
  const [ok, ...bad] = await registry.dispatch({
    tool_calls: [
      { id: "0", name: "kitted", args: good },
      { id: "1", name: "kitted", args: { ...good, code: "ab-1" } },
      { id: "2", name: "kitted", args: { ...good, mail: "nope" } },
      { id: "3", name: "kitted", args: { ...good, day: "2025-02-30" } },
      { id: "4", name: "kitted", args: { ...good, tags: ["x", "x"] } },
    ],
  });
  assert.is(ok!.content, "ok");
  assert.equal(
    bad.map((m) => m.status),
    ["error", "error", "error", "error"],
  );
  assert.match(bad[0]!.content, /\/code: must match the pattern/);
  assert.match(bad[1]!.content, /\/mail: must be a string in the email format/);
  assert.match(bad[2]!.content, /\/day: must be a string in the date format/);
  assert.match(bad[3]!.content, /\/tags: must not contain duplicates \(items 0 and 1 are equal\)/);
});

test("ES module output keeps the import under verbatimModuleSyntax and isolatedModules, after a directive, named apart from the file's own", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-kit-esm-"));
  try {
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(path.resolve(__dirname, "../../.."), path.join(dir, "node_modules", "tooltype"), "dir");
    const file = path.join(dir, "main.ts");
    // The file already uses the name (a variable), so the import takes another.
    fs.writeFileSync(
      file,
      `"use client";\nconst __tooltype_kit = 1;\n${KIT_TOOL}\nexport const own = __tooltype_kit;\n`,
    );
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      strict: true,
      skipLibCheck: true,
      types: [],
      noEmitOnError: false,
      outDir: path.join(dir, "out"),
    };
    const program = ts.createProgram([file], options);
    let js = "";
    program.emit(undefined, (name, text) => name.endsWith(".js") && (js = text), undefined, false, {
      before: [tooltype(program, {}, { ts })],
    });
    const lines = js.split("\n");
    assert.is(lines[0], '"use client";');
    assert.is(lines[1], 'import * as __tooltype_kit1 from "tooltype/kit";');
    assert.match(js, /__tooltype_kit1\.pattern\("\^\[A-Z\]\{2\}-\[0-9\]\+\$"(, 1)?\)/);
    assert.match(js, /!__tooltype_kit1\.email\(/);
    assert.match(js, /!__tooltype_kit1\.unique\(/);
    assert.not.match(js, /[^\w]__tooltype_kit\.\w/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
