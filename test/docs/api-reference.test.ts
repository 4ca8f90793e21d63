/**
 * The API reference (`npm run docs:api`, TypeDoc with typedoc.json) builds from the public entry points without a
 * single warning: every exported function, class, interface, type, variable and method has TSDoc, no public type
 * refers to an internal one that is not documented, and every {@link} resolves. A small project with one
 * undocumented export shows that the same configuration does fail.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { repo } from "./markdown";
import { stripVTControlCharacters } from "node:util";
import { HANG_MS } from "../support/hang";

const typedoc = path.join(repo, "node_modules", "typedoc", "bin", "typedoc");
const out = path.join(repo, ".test-build", "api");

function run(options: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [typedoc, "--options", options, "--treatWarningsAsErrors", ...args],
      { cwd: repo, timeout: HANG_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: stripVTControlCharacters(String(stdout) + String(stderr)) });
      },
    );
  });
}

test("npm run docs:api: the reference of every entry point (tooltype, tooltype/mcp, the adapters, the transformer and its bundler plugins) builds without warnings", async () => {
  fs.rmSync(out, { recursive: true, force: true });
  const { code, output } = await run(path.join(repo, "typedoc.json"), ["--out", out]);
  assert.is(code, 0, output);
  assert.not.match(output, /\[(warning|error)\]/, output);
  const bundlers = ["vite", "rollup", "rolldown", "esbuild", "webpack", "rspack", "bun"].map((b) => `tooltype_${b}`);
  for (const page of [
    "tooltype",
    "tooltype_mcp",
    "tooltype_ai",
    "tooltype_langchain",
    "tooltype_agents",
    "tooltype_mastra",
    "tooltype_transformer",
    ...bundlers,
  ]) {
    assert.ok(fs.existsSync(path.join(out, "modules", `${page}.html`)), `docs/api has no page for ${page}: ${output}`);
  }
  const registry = fs.readFileSync(path.join(out, "classes", "tooltype.ToolRegistry.html"), "utf8");
  assert.match(registry, /dispatch/, "the ToolRegistry page documents dispatch");
});

test("the same configuration fails on an undocumented export", async () => {
  const dir = path.join(repo, ".test-build", "api-undocumented");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "index.ts"),
    "/** Documented. */\nexport const documented = 1;\nexport function undocumented(): number {\n  return 2;\n}\n",
  );
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "node16", types: [] },
      files: ["index.ts"],
    }),
  );
  // The project's typedoc.json, with only the entry point and its tsconfig replaced.
  fs.writeFileSync(
    path.join(dir, "typedoc.json"),
    JSON.stringify({
      extends: [path.join(repo, "typedoc.json")],
      entryPoints: ["index.ts"],
      tsconfig: "tsconfig.json",
    }),
  );
  const { code, output } = await run(path.join(dir, "typedoc.json"), ["--emit", "none"]);
  assert.is.not(code, 0, output);
  assert.match(output, /undocumented.*does not have any documentation/, output);
  fs.rmSync(dir, { recursive: true, force: true });
});

test.run();
