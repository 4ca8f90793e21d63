/**
 * Vitest, as a user tests tools with it: `vitest run` with tooltype's Vite plugin in vitest.config.ts, as
 * docs/building.md configures it; the test file registers a tool from another module, checks its exported schema
 * and dispatches a call. Also: without the plugin, the test fails on the registration error naming the cause; a TT
 * error fails the run with its position.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as path from "node:path";
import { docsBlock, makeProject } from "./project";
import { run } from "./app";

const REPO = path.resolve(__dirname, "../../..");
const VITEST = path.join(REPO, "node_modules", "vitest", "vitest.mjs");

/** The vitest.config.ts of docs/building.md. */
const CONFIG = `import { defineConfig } from "vitest/config";
import tooltype from "tooltype/vite";

export default defineConfig({
  plugins: [tooltype()],
});
`;

const TOOLS = `import { tool } from "tooltype";

/** How to count. */
export interface Span {
  /** First day, 1 to 7 */
  from: number;
  /** Last day */
  to?: number;
}

/**
 * Get the weather.
 * @param city City name
 * @param span Which days
 */
export const weather = tool(function get_weather(city: string, span?: Span): string {
  return \`Sunny in \${city} from day \${span?.from ?? 1}\`;
});
`;

const TEST = `import { expect, test } from "vitest";
import { ToolRegistry } from "tooltype";
import { weather } from "./tools";

const call = (args: string) => ({ role: "assistant" as const, content: null, tool_calls: [{ id: "c1", type: "function" as const, function: { name: "get_weather", arguments: args } }] });

test("the tool's schema, a valid call and an invalid one", async () => {
  const registry = new ToolRegistry([weather]);
  const [exported] = registry.toOpenAITools();
  expect(exported!.function.parameters).toMatchObject({
    properties: { city: { type: "string", description: "City name" }, span: { properties: { from: { description: "First day, 1 to 7" } } } },
    required: ["city"],
  });
  const [ok] = await registry.dispatch(call('{"city":"Oslo","span":{"from":3}}'));
  expect(ok!.content).toBe("Sunny in Oslo from day 3");
  const [bad] = await registry.dispatch(call('{"city":"Oslo","span":{"from":"three"}}'));
  expect(bad!.status).toBe("error");
});
`;

function project(name: string, files: Record<string, string> = {}): string {
  return makeProject(name, {
    "package.json": JSON.stringify({ name, private: true, type: "module" }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022", module: "esnext", moduleResolution: "bundler", strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ["src"] }),
    "vitest.config.ts": CONFIG,
    "src/tools.ts": TOOLS,
    "src/tools.test.ts": TEST,
    ...files,
  });
}

async function vitest(dir: string): Promise<{ code: number | null; output: string }> {
  const result = await run(process.execPath, [VITEST, "run"], dir, { NO_COLOR: "1", CI: "1" });
  return { code: result.code, output: `${result.stdout}${result.stderr}`.replace(/\u001b\[[0-9;]*m/g, "") };
}

test("vitest run with tooltype/vite in vitest.config.ts: the tests see the tools' schemas and validation", async () => {
  const result = await vitest(project("vitest"));
  assert.is(result.code, 0, result.output);
  assert.match(result.output, /Tests\s+1 passed/);
});

test("without the plugin the test fails on the registration error, which names the cause and the fix", async () => {
  const result = await vitest(project("vitest-no-plugin", { "vitest.config.ts": `import { defineConfig } from "vitest/config";\n\nexport default defineConfig({});\n` }));
  assert.is.not(result.code, 0);
  assert.match(result.output, 'Tool "get_weather" (function passed to tool()) has no compiled metadata');
  assert.match(result.output, "tooltype/vite, also in vitest.config");
});

test("a TT error fails the run with its file, line and column", async () => {
  const result = await vitest(
    project("vitest-error", {
      "src/tools.ts": `${TOOLS}
/**
 * Run later.
 * @param cb What to run
 */
export const later = tool(function run_later(cb: () => void): string { return ""; });
`,
    }),
  );
  assert.is.not(result.code, 0);
  assert.match(result.output, /src\/tools\.ts\(24,\d+\): error TT1001: parameter "cb" has type a function/);
});

test("the configuration is the one docs/building.md gives", () => {
  assert.is(CONFIG, docsBlock("Testing with Vitest", "ts"));
});

test.run();
