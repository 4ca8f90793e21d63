/**
 * The README's quick start, exactly as written: its tsconfig.json and src/main.ts in a fresh project (away from this
 * repository's node_modules/@types, with node_modules/tooltype linked to this repository's build as an installed
 * package would be), its commands run in order, and what it says the program prints. Also the README's first
 * example, pasted into that project as is: it must build without anything the docs' prelude declares.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { assertQuickStartOutput, readmeBlock, readmeMarkedBlock } from "../support/readme";
import { HANG_MS } from "../support/hang";
import { uncolouredEnv } from "../support/uncoloured-env";

const repo = path.resolve(__dirname, "../../..");
const readme = fs.readFileSync(path.join(repo, "README.md"), "utf8");

function project(main: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-quick-start-"));
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.mkdirSync(path.join(dir, "src"));
  fs.symlinkSync(repo, path.join(dir, "node_modules", "tooltype"), "dir");
  // What `npm init -y` writes, reduced to what matters here (npm 11 writes "type": "commonjs").
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "quick-start", version: "1.0.0", type: "commonjs" }),
  );
  fs.writeFileSync(path.join(dir, "tsconfig.json"), readmeMarkedBlock(readme, "quickstart:tsconfig", "jsonc"));
  fs.writeFileSync(path.join(dir, "src", "main.ts"), main);
  return dir;
}

/**
 * One command line of the README, run in `dir`: `npx tooltype` is the linked package's own bin (on this repository's
 * TypeScript 5.9: the project has none of its own), `node` this Node.
 */
function runLine(line: string, dir: string): Promise<{ code: number; out: string; stdout: string }> {
  const [first, ...args] = line.trim().split(/\s+/);
  const [file, rest] =
    first === "npx" && args[0] === "tooltype"
      ? [path.join(dir, "node_modules", "tooltype", "dist", "transformer", "hosts", "cli", "main.js"), args.slice(1)]
      : first === "node"
        ? [args[0]!, args.slice(1)]
        : ["", []];
  assert.ok(file, `no runner for the README's command ${line}`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file, ...rest],
      { cwd: dir, timeout: HANG_MS, env: uncolouredEnv() },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: `${stdout}${stderr}`, stdout: String(stdout) }),
    );
  });
}

test("the quick start builds and runs exactly as written, and prints what it says", async () => {
  const install = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("<!-- quickstart:tsconfig -->"));
  assert.match(install, "npm install tooltype\n");
  assert.match(install, "npm install --save-dev typescript\n");
  const dir = project(readmeBlock("quick-start"));
  try {
    const lines = readmeMarkedBlock(readme, "quickstart:commands", "sh")
      .split("\n")
      .filter((l) => l.trim());
    assert.equal(lines, ["npx tooltype build", "node dist/main.js"]);
    const build = await runLine(lines[0]!, dir);
    assert.is(build.code, 0, build.out);
    assert.is(build.out, "", "the build prints nothing");
    assert.ok(fs.existsSync(path.join(dir, "dist", "main.js")), "the build writes to the outDir");
    const ran = await runLine(lines[1]!, dir);
    assert.is(ran.code, 0, ran.out);
    assertQuickStartOutput(ran.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the README's first example, pasted into the quick start's project as is, builds cleanly", async () => {
  const first = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
  const dir = project(first);
  try {
    const build = await runLine("npx tooltype build", dir);
    assert.is(build.out, "", "no diagnostics: every name it uses is its own");
    assert.is(build.code, 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
