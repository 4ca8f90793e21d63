/**
 * The real `tspc` command on small projects, as a user runs it: the exit status with tooltype's warnings (0, also
 * on incremental rebuilds) and errors (non-zero), the warning text printed, and the minimal tsconfig of
 * docs/building.md
 * built exactly as written. Each project sits in a temporary folder (away from this repository's node_modules/@types)
 * with node_modules/tooltype linked to this repository's build, so `{ "transform": "tooltype/transformer" }` and
 * `import ... from "tooltype"` resolve as in an installed project. The folders are removed at the end.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { HANG_MS } from "../support/hang";
import { uncolouredEnv } from "../support/uncoloured-env";

const repo = path.resolve(__dirname, "../../..");
const projectsDir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-tspc-"));
const tspc = path.join(repo, "node_modules", "ts-patch", "bin", "tspc.js");

interface Run {
  code: number;
  out: string;
}

function project(name: string, files: Record<string, string>): string {
  const dir = path.join(projectsDir, name);
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.symlinkSync(repo, path.join(dir, "node_modules", "tooltype"), "dir");
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function runTspc(dir: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tspc, "-p", "."],
      { cwd: dir, timeout: HANG_MS, env: uncolouredEnv() },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

const tsconfig = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "node16",
      strict: true,
      types: [],
      outDir: "dist",
      rootDir: "src",
      plugins: [{ transform: "tooltype/transformer" }],
      ...extra,
    },
    include: ["src"],
  });

const WARNING_SOURCE = `import { tool } from "tooltype";
/**
 * Store a value.
 * @param value Anything
 * @param nmae A typo the JSDoc makes
 */
export const store = tool(function store(value: unknown) { return JSON.stringify(value) ?? "null"; });
`;

test("tspc: TT warnings are printed and leave the exit status 0, also on incremental rebuilds", async () => {
  const dir = project("warnings", { "tsconfig.json": tsconfig({ incremental: true }), "src/main.ts": WARNING_SOURCE });
  const first = await runTspc(dir);
  assert.is(first.code, 0, `first build:\n${first.out}`);
  assert.match(first.out, /warning TS991005: TT1005: parameter "value" is typed unknown/);
  assert.match(first.out, /warning TS991010: TT1010: /);
  assert.ok(fs.existsSync(path.join(dir, "dist", "main.js")), "emitted");
  const unchanged = await runTspc(dir);
  assert.is(unchanged.code, 0, `rebuild without changes:\n${unchanged.out}`);
  fs.appendFileSync(path.join(dir, "src", "main.ts"), "\nexport const touched = 1;\n");
  const changed = await runTspc(dir);
  assert.is(changed.code, 0, `rebuild after a change:\n${changed.out}`);
  assert.match(changed.out, /TT1005/);
});

test("tspc: a TT error fails the build (exit status non-zero)", async () => {
  const source = `import { tool } from "tooltype";
/** Call back. */
export const later = tool(function later(callback: () => void) { callback(); });
`;
  const dir = project("errors", { "tsconfig.json": tsconfig({ incremental: true }), "src/main.ts": source });
  const first = await runTspc(dir);
  assert.is.not(first.code, 0, first.out);
  assert.match(first.out, /error TS991001: TT1001: /);
});

/** A tool project's source: a `@tool` method and a `tool()` function, registered and called once. */
const TOOL_PROJECT_SOURCE = `import { tool, ToolRegistry, type Int } from "tooltype";
class Calculator {
  /**
   * Add two integers.
   * @param a First
   * @param b Second
   */
  @tool
  add(a: Int, b: Int): number { return a + b; }
}
/** Say hello. */
export const hello = tool(function hello(name: string | null) { return "hello " + (name ?? "you"); });
const registry = new ToolRegistry([new Calculator(), hello]);
registry.invoke("add", { a: 2, b: 3 }).then((sum) => console.log(JSON.stringify({ sum, tools: registry.list().map((t) => t.name) })));
`;

/** The README's and the guides' complete tsconfigs (a block with `compilerOptions.target`), by where they are. */
function documentedTsconfigs(): { where: string; text: string }[] {
  const found: { where: string; text: string }[] = [];
  const pages = [
    "README.md",
    ...fs
      .readdirSync(path.join(repo, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  for (const page of pages) {
    const text = fs.readFileSync(path.join(repo, page), "utf8");
    for (const block of text.matchAll(/```jsonc?\n([\s\S]*?)```/g)) {
      const parsed = ts.parseConfigFileTextToJson("tsconfig.json", block[1]!);
      const options = (parsed.config as { compilerOptions?: { target?: unknown } } | undefined)?.compilerOptions;
      if (options?.target !== undefined)
        found.push({ where: `${page}:${text.slice(0, block.index).split("\n").length}`, text: block[1]! });
    }
  }
  return found;
}

test("docs/building.md: the minimal tsconfig, exactly as written, builds a tool project in src/ cleanly with tspc, and it runs on this Node", async () => {
  const readme = fs.readFileSync(path.join(repo, "docs", "building.md"), "utf8");
  const block = /<!-- readme:tsconfig -->\n```jsonc\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, "docs/building.md's tsconfig block (marker readme:tsconfig)");
  const dir = project("readme-tsconfig", {
    "tsconfig.json": block!,
    "package.json": '{ "private": true }',
    "src/main.ts": TOOL_PROJECT_SOURCE,
  });
  const build = await runTspc(dir);
  assert.is(build.code, 0, build.out);
  assert.is(build.out, "", "no diagnostics at all");
  const ran = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(dir, "dist", "main.js")],
      { cwd: dir, timeout: HANG_MS },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
  assert.equal(JSON.parse(ran), { sum: 5, tools: ["add", "hello"] });
});

test("every documented tsconfig type-checks and emits a project in src/ under each supported compiler: TypeScript 5.5, 5.9 and 6.0", async () => {
  const configs = documentedTsconfigs();
  assert.ok(
    configs.some((c) => c.where.startsWith("docs/building.md")),
    `found: ${configs.map((c) => c.where).join(", ")}`,
  );
  const compilers = ["typescript-5.5", "typescript", "typescript-6"].map((name) =>
    path.join(repo, "node_modules", name, "bin", "tsc"),
  );
  const runs = configs.flatMap((config, i) =>
    compilers.map(async (tsc) => {
      const dir = project(`documented-${i}-${path.basename(path.dirname(path.dirname(tsc)))}`, {
        "tsconfig.json": config.text,
        "package.json": '{ "private": true }',
        "src/main.ts": TOOL_PROJECT_SOURCE,
      });
      const result = await new Promise<Run>((resolve) => {
        execFile(process.execPath, [tsc, "-p", "."], { cwd: dir, timeout: HANG_MS }, (error, stdout, stderr) =>
          resolve({ code: error ? 1 : 0, out: `${stdout}${stderr}` }),
        );
      });
      const version = JSON.parse(fs.readFileSync(path.join(tsc, "..", "..", "package.json"), "utf8")) as {
        version: string;
      };
      return {
        label: `${config.where} under TypeScript ${version.version}`,
        result,
        emitted: fs.existsSync(path.join(dir, "dist", "main.js")),
      };
    }),
  );
  for (const { label, result, emitted } of await Promise.all(runs)) {
    assert.is(result.out, "", `${label}: no diagnostics`);
    assert.is(result.code, 0, label);
    assert.ok(emitted, `${label}: src/main.ts emitted as dist/main.js`);
  }
});

test.after(() => fs.rmSync(projectsDir, { recursive: true, force: true }));

test.run();
