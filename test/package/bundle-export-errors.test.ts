/**
 * A bundle without the run-time strict rewrites and Rust-regex translation (an app of compiled tools needs neither:
 * the build writes both into each tool's metadata) meets a tool whose metadata lacks them (an older tooltype build,
 * here written by hand): a strict export and a free-form tool's grammar are each a ToolExportError that names the
 * tool and says what to add, and the app bundled with the import the message names exports both.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");

/** Two tools as an older build wrote them: no `strict` forms, no `grammar`. */
const app = (head: string) => `${head}
import { tool, ToolRegistry } from "tooltype/openai";

const parameters = (pattern) => ({
  type: "object",
  properties: { text: pattern === undefined ? { type: "string" } : { type: "string", pattern } },
  required: ["text"],
  additionalProperties: false,
});
// The validator as the build writes it, on tooltype's validator kit.
const validator = (pattern) => (require) => {
  const k = require("tooltype/validator@3");
  return k.v((d) => {
    if (!k.o(d)) return 1;
    for (const key in d) if (key !== "text") return 1;
    return typeof d.text !== "string" || (pattern !== undefined && !new RegExp(pattern, "u").test(d.text)) ? 1 : 0;
  });
};
const meta = (name, pattern) => ({ v: 1, name, description: name, parameters: parameters(pattern), params: ["text"], validator: validator(pattern) });
const echo = tool((text) => text, undefined, meta("echo"));
const code = tool((text) => text, { freeform: true }, meta("code", "^[a-z]+$"));

const out = {};
for (const [key, tools, options] of [["strict", [echo], { strict: true }], ["custom", [code], { customTools: true }]]) {
  try {
    out[key] = new ToolRegistry(tools).toOpenAITools(options);
  } catch (error) {
    out[key] = { error: error.name, message: error.message, toolName: error.toolName };
  }
}
process.stdout.write(JSON.stringify(out));
`;

async function bundleAndRun(dir: string, source: string): Promise<Record<string, unknown>> {
  fs.writeFileSync(path.join(dir, "app.mjs"), source);
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: [path.join(dir, "app.mjs")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["module"],
    splitting: true,
    outdir: path.join(dir, "dist"),
    logLevel: "silent",
  });
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [path.join(dir, "dist", "app.js")], { timeout: HANG_MS }, (error, out, err) =>
      error ? reject(new Error(`the bundle failed: ${String(err)}`)) : resolve(String(out)),
    ),
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

test("an older build's tools in a bundle without tooltype/ajv: each export says what to add; with it, both export", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-export-errors-"));
  try {
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(repo, path.join(dir, "node_modules", "tooltype"), "dir");
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));

    const without = await bundleAndRun(dir, app(""));
    assert.equal(without.strict, {
      error: "ToolExportError",
      toolName: "echo",
      message: (without.strict as { message: string }).message,
    });
    assert.match(
      (without.strict as { message: string }).message,
      /^Tool "echo" cannot be exported in strict mode: its schema was not rewritten at build time .* this bundle left the run-time rewrite out: add `import "tooltype\/ajv";`/,
    );
    assert.equal((without.custom as { error: string; toolName: string }).error, "ToolExportError");
    assert.is((without.custom as { toolName: string }).toolName, "code");
    assert.match(
      (without.custom as { message: string }).message,
      /^The pattern of free-form tool "code" was not written as OpenAI's regex grammar at build time .* this bundle left the translator out: add `import "tooltype\/ajv";`/,
    );

    const withAjv = await bundleAndRun(dir, app('import "tooltype/ajv";'));
    const [strict] = withAjv.strict as { function: { name: string; strict: boolean; parameters: unknown } }[];
    assert.is(strict!.function.name, "echo");
    assert.is(strict!.function.strict, true);
    assert.equal(strict!.function.parameters, {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    });
    const [custom] = withAjv.custom as { type: string; custom: { name: string; format: unknown } }[];
    assert.is(custom!.type, "custom");
    assert.is(custom!.custom.name, "code");
    assert.equal(custom!.custom.format, {
      type: "grammar",
      grammar: { syntax: "regex", definition: "^[a-z]+$" },
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
