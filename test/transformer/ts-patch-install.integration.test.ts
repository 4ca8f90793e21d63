/**
 * docs/building.md's faster build: `ts-patch install` patches the project's own typescript once, and then plain
 * `tsc` runs tooltype's plugin. The test gives a small project a private copy of this repository's typescript
 * (the repository's own is never patched), runs the documented commands of the block marked
 * `readme-commands: ts-patch-install` there (ts-patch's CLI, pointed at that copy with `--dir` for safety, then the
 * copy's `tsc`),
 * and checks that the result is tspc's output byte for byte (so JSDoc descriptions arrive under the patched compiler
 * as under tspc) and that the built tool dispatches.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ToolRegistry } from "tooltype";
import { readmeCommands } from "../hosts/project";

const repo = path.resolve(__dirname, "../../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-ts-patch-install-"));
const typescriptCopy = path.join(dir, "node_modules", "typescript");
const bins: Record<string, string> = {
  "ts-patch": path.join(repo, "node_modules", "ts-patch", "bin", "ts-patch.js"),
  tspc: path.join(repo, "node_modules", "ts-patch", "bin", "tspc.js"),
  tsc: path.join(typescriptCopy, "bin", "tsc"),
};

const SOURCE = `import { tool, type Int } from "tooltype";

/**
 * Look up a city's weather.
 * @param city City name, e.g. "Paris"
 * @param days How many days ahead
 */
export const weather = tool(function weather(city: string, days: Int = 1) {
  return \`\${city}: sunny for \${days} day(s)\`;
});
`;

function run(argv: string[]): string {
  const [bin, ...args] = argv[0] === "npx" ? argv.slice(1) : argv;
  const file = bins[bin!];
  if (!file) throw new Error(`docs/building.md runs ${bin}, which this test does not know`);
  // `ts-patch install` patches the typescript it resolves from --dir: the project's copy, named explicitly.
  const extra = bin === "ts-patch" && args[0] === "install" ? ["--dir", typescriptCopy] : [];
  return execFileSync(process.execPath, [file, ...args, ...extra], { cwd: dir, encoding: "utf8" });
}

test("ts-patch install: tsc from the patched typescript emits exactly what tspc emits, and the tool dispatches", async () => {
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.symlinkSync(repo, path.join(dir, "node_modules", "tooltype"), "dir");
  fs.cpSync(path.join(repo, "node_modules", "typescript"), typescriptCopy, { recursive: true });
  fs.writeFileSync(path.join(dir, "src", "main.ts"), SOURCE);
  const compilerOptions = {
    target: "ES2022",
    module: "node16",
    strict: true,
    types: [],
    rootDir: "src",
    plugins: [{ transform: "tooltype/transformer" }],
  };
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { ...compilerOptions, outDir: "dist" }, include: ["src"] }),
  );

  const commands = readmeCommands("ts-patch-install");
  assert.equal(
    commands.map((c) => c.join(" ")),
    ["npx ts-patch install", "npx tsc -p ."],
    "the documented commands",
  );
  for (const argv of commands) run(argv);
  const patched = fs.readFileSync(path.join(dir, "dist", "main.js"), "utf8");

  fs.writeFileSync(
    path.join(dir, "tsconfig.tspc.json"),
    JSON.stringify({ compilerOptions: { ...compilerOptions, outDir: "dist-tspc" }, include: ["src"] }),
  );
  run(["tspc", "-p", "tsconfig.tspc.json"]);
  assert.is(
    patched,
    fs.readFileSync(path.join(dir, "dist-tspc", "main.js"), "utf8"),
    "patched tsc and tspc emit the same",
  );
  assert.match(patched, /description: "Look up a city's weather\."/);

  const { weather } = require(path.join(dir, "dist", "main.js")) as { weather: object };
  const [message] = await new ToolRegistry([weather]).dispatch({
    content: "",
    tool_calls: [{ id: "1", name: "weather", args: { city: "Paris", days: 2 } }],
  });
  assert.is(message!.content, "Paris: sunny for 2 day(s)");

  const repoTsc = fs.readFileSync(path.join(repo, "node_modules", "typescript", "lib", "_tsc.js"), "utf8");
  assert.not.match(repoTsc.slice(0, 2000), /tsp-module/, "the repository's own typescript stays unpatched");
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test.run();
