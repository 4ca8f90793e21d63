/**
 * Vitest, as a user tests tools with it: `vitest run` with tooltype's Vite plugin in vitest.config.ts, as
 * docs/building.md configures it, on the shared sample (runner-sample.ts): the test registers a tool whose
 * parameter type comes from another file, checks its exported schema and dispatches a valid and an invalid call. Also:
 * without the plugin, the test fails on the registration error naming the cause; a TT
 * error fails the run with its position.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as path from "node:path";
import { docsBlock, makeProject, repo } from "./project";
import { ERROR_LINE, sampleFiles, TOOLS_WITH_ERROR } from "./runner-sample";
import { run } from "./app";
import { stripVTControlCharacters } from "node:util";

const VITEST = path.join(repo, "node_modules", "vitest", "vitest.mjs");

/** The vitest.config.ts of docs/building.md. */
const CONFIG = `import { defineConfig } from "vitest/config";
import tooltype from "tooltype/vite";

export default defineConfig({
  plugins: [tooltype()],
});
`;

function project(name: string, files: Record<string, string> = {}): string {
  return makeProject(name, {
    "package.json": JSON.stringify({ name, private: true, type: "module" }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "esnext",
        moduleResolution: "bundler",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ["src"],
    }),
    "vitest.config.ts": CONFIG,
    ...sampleFiles('import { expect, test } from "vitest";'),
    ...files,
  });
}

async function vitest(dir: string): Promise<{ code: number | null; output: string }> {
  const result = await run(process.execPath, [VITEST, "run"], dir, { NO_COLOR: "1", CI: "1" });
  return { code: result.code, output: stripVTControlCharacters(`${result.stdout}${result.stderr}`) };
}

test("vitest run with tooltype/vite in vitest.config.ts: the tests see the tools' schemas and validation", async () => {
  const result = await vitest(project("vitest"));
  assert.is(result.code, 0, result.output);
  assert.match(result.output, /Tests\s+1 passed/);
});

test("a @tool method under standard decorators (target ESNext, which Vite 8's Oxc keeps as written) runs", async () => {
  const dir = project("vitest-decorator", {
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ESNext",
        module: "esnext",
        moduleResolution: "bundler",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ["src"],
    }),
    "src/shop.ts": `import { tool } from "tooltype";\n\nexport class Shop {\n  /**\n   * Price of an item.\n   * @param item Item name\n   */\n  @tool\n  price(item: string): string {\n    return \`\${item}: 3\`;\n  }\n}\n`,
    "src/shop.test.ts": `import { expect, test } from "vitest";\nimport { ToolRegistry } from "tooltype";\nimport { Shop } from "./shop";\n\ntest("the method is a tool", async () => {\n  const registry = new ToolRegistry([new Shop()]);\n  expect(registry.toOpenAITools()[0]!.function.parameters).toMatchObject({ required: ["item"] });\n  const [answer] = await registry.dispatch({ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "price", arguments: '{"item":"tea"}' } }] });\n  expect(answer!.content).toBe("tea: 3");\n});\n`,
  });
  const result = await vitest(dir);
  assert.is(result.code, 0, result.output);
  assert.match(result.output, /Tests\s+2 passed/);
});

test("without the plugin the test fails on the registration error, which names the cause and the fix", async () => {
  const result = await vitest(
    project("vitest-no-plugin", {
      "vitest.config.ts": `import { defineConfig } from "vitest/config";\n\nexport default defineConfig({});\n`,
    }),
  );
  assert.is.not(result.code, 0);
  assert.match(result.output, 'Tool "get_weather" (function passed to tool()) has no compiled metadata');
  assert.match(result.output, "tooltype/vite, also in vitest.config");
  assert.match(result.output, "This process runs under Vitest (VITEST is set)", "the runner it found named");
});

test("a TT error fails the run with its file, line and column", async () => {
  const result = await vitest(project("vitest-error", { "src/tools.ts": TOOLS_WITH_ERROR }));
  assert.is.not(result.code, 0);
  // Vite's convention (bundler-message.mts): a 1-based line, a 0-based column; the place named once.
  assert.match(
    result.output,
    new RegExp(`src/tools\\.ts:${ERROR_LINE}:\\d+: TT1001: parameter "cb" has type a function`),
  );
  assert.is(result.output.match(/TT1001/g)?.length, 1, result.output);
});

test("the configuration is the one docs/building.md gives", () => {
  assert.is(CONFIG, docsBlock("Testing with Vitest", "ts"));
});

test.run();
