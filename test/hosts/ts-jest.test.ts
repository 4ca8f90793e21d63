/**
 * Jest with ts-jest, as a user tests tools with it: `jest` with `tooltype/ts-jest` in ts-jest's
 * `astTransformers.before`, as docs/building.md configures it; the test registers a tool whose parameter type comes
 * from another file, checks its schema and dispatches a valid and an invalid call. Also: without the transformer,
 * the test fails on the registration error; a TT error fails the test file with its position; ts-jest's
 * isolatedModules mode is refused with a message.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as path from "node:path";
import { run } from "./app";
import { docsBlock, makeProject, repo } from "./project";
import { ERROR_LINE, sampleFiles, TOOLS_WITH_ERROR } from "./runner-sample";

/** Jest's globals, declared for the compiler (the projects install no @types/jest). */
const JEST_GLOBALS = `declare const test: (name: string, fn: () => Promise<void>) => void;
declare const expect: (value: unknown) => { toEqual(expected: unknown): void; toBe(expected: unknown): void };`;

const JEST = path.join(repo, "node_modules", "jest", "bin", "jest.js");

/** The jest.config.cjs of docs/building.md. */
const CONFIG = `module.exports = {
  testEnvironment: "node",
  transform: {
    "^.+\\\\.tsx?$": ["ts-jest", { astTransformers: { before: [require.resolve("tooltype/ts-jest")] } }],
  },
};
`;

function project(name: string, files: Record<string, string> = {}): string {
  return makeProject(name, {
    "package.json": JSON.stringify({ name, private: true }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "commonjs",
        strict: true,
        skipLibCheck: true,
        esModuleInterop: true,
        types: [],
      },
      include: ["src"],
    }),
    "jest.config.cjs": CONFIG,
    ...sampleFiles(JEST_GLOBALS),
    ...files,
  });
}

async function jest(dir: string): Promise<{ code: number | null; output: string }> {
  const result = await run(process.execPath, [JEST, "--ci", "--no-cache"], dir, { NO_COLOR: "1", FORCE_COLOR: "0" });
  return { code: result.code, output: `${result.stdout}${result.stderr}` };
}

test("jest with tooltype/ts-jest in astTransformers.before: the tests see the tools' schemas and validation", async () => {
  const result = await jest(project("ts-jest"));
  assert.is(result.code, 0, result.output);
  assert.match(result.output, /Tests:\s+1 passed/);
});

test("without the transformer, the test fails on the registration error", async () => {
  const config = `module.exports = { testEnvironment: "node", transform: { "^.+\\\\.tsx?$": ["ts-jest", {}] } };\n`;
  const result = await jest(project("ts-jest-none", { "jest.config.cjs": config }));
  assert.is.not(result.code, 0);
  assert.match(result.output, 'Tool "get_weather" (function passed to tool()) has no compiled metadata');
  assert.match(result.output, "This process runs under Jest (JEST_WORKER_ID is set)", "the runner it found named");
});

test("a TT error fails the test file with its position", async () => {
  const result = await jest(project("ts-jest-error", { "src/tools.ts": TOOLS_WITH_ERROR }));
  assert.is.not(result.code, 0);
  assert.match(
    result.output,
    "tooltype/ts-jest: src/tools.ts has tooltype errors, so its tools have no correct schema:",
  );
  assert.match(
    result.output,
    new RegExp(`src/tools\\.ts:${ERROR_LINE}:\\d+ - error TT1001: parameter "cb" has type a function`),
  );
});

test("ts-jest's isolatedModules mode is refused with a message saying why", async () => {
  const config = CONFIG.replace("astTransformers:", "isolatedModules: true, astTransformers:");
  const result = await jest(project("ts-jest-isolated", { "jest.config.cjs": config }));
  assert.is.not(result.code, 0);
  assert.match(
    result.output,
    "tooltype/ts-jest reads the types of each tool's parameters, which ts-jest's isolatedModules mode does not have",
  );
});

/** A class whose method is a tool under standard decorators (no experimentalDecorators), and a test of it. */
const SHOP = {
  "src/shop.ts": `import { tool } from "tooltype";\n\nexport class Shop {\n  /**\n   * Price of an item.\n   * @param item Item name\n   */\n  @tool\n  price(item: string): string {\n    return \`\${item}: 3\`;\n  }\n}\n`,
  "src/shop.test.ts": `${JEST_GLOBALS}\nimport { ToolRegistry } from "tooltype";\nimport { Shop } from "./shop";\n\ntest("the method is a tool", async () => {\n  const registry = new ToolRegistry([new Shop()]);\n  expect((registry.toOpenAITools()[0]!.function.parameters as { required: string[] }).required).toEqual(["item"]);\n  const [answer] = await registry.dispatch({ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "price", arguments: '{"item":"tea"}' } }] });\n  expect(answer!.content).toBe("tea: 3");\n});\n`,
};

function decoratorProject(name: string, target: string): string {
  return project(name, {
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target,
        module: "commonjs",
        strict: true,
        skipLibCheck: true,
        esModuleInterop: true,
        types: [],
      },
      include: ["src"],
    }),
    ...SHOP,
  });
}

test("a @tool method under standard decorators, which TypeScript lowers for target ES2022, runs under Jest", async () => {
  const result = await jest(decoratorProject("ts-jest-decorator", "ES2022"));
  assert.is(result.code, 0, result.output);
  assert.match(result.output, /Tests:\s+2 passed/);
});

test("a @tool method under standard decorators with target ESNext, which no toolchain lowers, fails with TT1025 at the decorator", async () => {
  const result = await jest(decoratorProject("ts-jest-decorator-esnext", "ESNext"));
  assert.is.not(result.code, 0);
  assert.match(
    result.output,
    /src\/shop\.ts:8:\d+ - error TT1025: @tool on price would be emitted as a standard decorator/,
  );
});

test("the configuration is the one docs/building.md gives", () => {
  assert.is(CONFIG, docsBlock("Testing with Jest (ts-jest)", "js"));
});

test.run();
