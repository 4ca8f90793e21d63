/**
 * `bun --preload tooltype/bun-register src/main.ts`, and the same preload from bunfig.toml for `bun src/main.ts` and
 * `bun test`, as docs/building.md gives them, on the shared sample (runner-sample.ts): Bun runs the TypeScript
 * directly, with the tools' metadata; one tool's parameter type comes from another file. Also: without the preload,
 * registration fails naming Bun and the command; a TT error stops the run with its position.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { bunBinary, run } from "./app";
import { docsBlock, makeProject, readmeCommands, writeFiles } from "./project";
import { CALL, ERROR_LINE, sampleFiles, TOOLS_WITH_ERROR } from "./runner-sample";

const MAIN = `import { ToolRegistry } from "tooltype";
import { weather } from "./tools";

const registry = new ToolRegistry([weather]);
${CALL}
const [ok] = await registry.dispatch(call('{"city":"Oslo","span":{"from":3}}'));
const [bad] = await registry.dispatch(call('{"city":"Oslo","span":{"from":"three"}}'));
console.log(JSON.stringify({ tools: registry.toOpenAITools(), ok: ok!.content, bad: bad!.status }));
`;

/** The bunfig.toml of docs/building.md. */
const BUNFIG = `preload = ["tooltype/bun-register"]

[test]
preload = ["tooltype/bun-register"]
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
    ...sampleFiles('import { expect, test } from "bun:test";'),
    "src/main.ts": MAIN,
    ...files,
  });
}

async function bun(args: string[], dir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return run(bunBinary(), args, dir, { NO_COLOR: "1" });
}

interface Output {
  tools: {
    function: {
      name: string;
      parameters: {
        properties: { span: { properties: Record<string, { description?: string }> } };
        required: string[];
      };
    };
  }[];
  ok: string;
  bad: string;
}

function check(result: { code: number | null; stdout: string; stderr: string }, how: string): void {
  assert.is(result.code, 0, `${how}:\n${result.stderr}${result.stdout}`);
  const out = JSON.parse(result.stdout.trim().split("\n").pop()!) as Output;
  const parameters = out.tools[0]!.function.parameters;
  assert.equal(parameters.required, ["city"], how);
  assert.equal(
    Object.keys(parameters.properties.span.properties).sort(),
    ["from", "to"],
    `${how}: the type from another file`,
  );
  assert.is(parameters.properties.span.properties.from!.description, "First day", how);
  assert.is(out.ok, "Sunny in Oslo from day 3", how);
  assert.is(out.bad, "error", `${how}: a wrong type is refused`);
}

test("bun --preload tooltype/bun-register and bunfig.toml's preload run TypeScript with the tools' metadata", async () => {
  const [command] = readmeCommands("bun"); // the command of docs/building.md, as written
  assert.equal(command, ["bun", "--preload", "tooltype/bun-register", "src/main.ts"]);
  const dir = project("bun-register");
  check(await bun(command!.slice(1), dir), command!.join(" "));
  const configured = project("bun-register-bunfig", { "bunfig.toml": BUNFIG });
  check(await bun(["src/main.ts"], configured), "bunfig.toml");
  const tested = await bun(["test"], configured);
  assert.is(tested.code, 0, `bun test:\n${tested.stderr}${tested.stdout}`);
  assert.match(`${tested.stderr}${tested.stdout}`, /1 pass/);
});

test("bun without the preload: registration fails naming Bun and the command", async () => {
  const result = await bun(["src/main.ts"], project("bun-plain"));
  assert.is.not(result.code, 0);
  assert.match(result.stderr, 'Tool "get_weather" (function passed to tool()) has no compiled metadata');
  assert.match(result.stderr, "bun --preload tooltype/bun-register src/main.ts");
});

test("a TT error stops the run with its position", async () => {
  const dir = project("bun-register-error");
  writeFiles(dir, { "src/tools.ts": TOOLS_WITH_ERROR });
  const result = await bun(["--preload", "tooltype/bun-register", "src/main.ts"], dir);
  assert.is.not(result.code, 0);
  assert.match(
    result.stderr,
    "tooltype/bun-register: src/tools.ts has tooltype errors, so its tools have no correct schema:",
  );
  assert.match(
    result.stderr,
    new RegExp(`src/tools\\.ts:${ERROR_LINE}:\\d+ - error TT1001: parameter "cb" has type a function`),
  );
});

test("the configuration is the one docs/building.md gives", () => {
  assert.is(BUNFIG, docsBlock("Bun, without a build step", "toml"));
});

test.run();
