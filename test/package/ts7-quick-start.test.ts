/**
 * The README's quick start on whatever `typescript` npm resolves today (TypeScript 7, the native compiler), as a new
 * user meets it: the packed tarball and the README's own `npm install --save-dev typescript` in a fresh project, with
 * nothing else that has TypeScript's JavaScript API. Its src/main.ts and tsconfig.json as the README writes them, its
 * commands run as written (`npx tooltype build`, then node), and `npx tooltype check`; the program prints what the
 * README says it prints.
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

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without a shell; npm's own `npm_*` variables are dropped so a nested npm is not steered by ours. */
function run(file: string, args: string[], cwd: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { NO_UPDATE_NOTIFIER: "1" };
  for (const [key, value] of Object.entries(uncolouredEnv())) if (!/^npm_/i.test(key)) env[key] = value;
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: HANG_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
        stdout: String(stdout),
        stderr: String(stderr),
      }),
    );
  });
}

function ok(step: string, result: Run): Run {
  assert.is(result.code, 0, `${step} failed:\n${result.stderr}\n${result.stdout}`);
  return result;
}

test("the README's quick start builds with its own commands and passes tooltype check on the typescript npm resolves today, alone", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-ts7-quick-start-"));
  try {
    const npm = "npm";
    const packed = ok(
      "npm pack",
      await run(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], repo),
    );
    const tarball = path.join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "quick-start", version: "1.0.0", type: "commonjs" }),
    );
    fs.writeFileSync(path.join(dir, "tsconfig.json"), readmeMarkedBlock(readme, "quickstart:tsconfig", "jsonc"));
    fs.mkdirSync(path.join(dir, "src"));
    fs.writeFileSync(path.join(dir, "src", "main.ts"), readmeBlock("quick-start"));
    ok("npm install", await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], dir));
    const install = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("<!-- quickstart:tsconfig -->"));
    assert.match(install, "npm install --save-dev typescript\n", "the README installs plain typescript");
    ok(
      "npm install --save-dev typescript",
      await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev", "typescript"], dir),
    );
    const version = (
      JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "typescript", "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    const listed = await run(npm, ["ls", "typescript", "--all", "--parseable"], dir);
    assert.equal(
      listed.stdout
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((p) => path.relative(dir, p)),
      [path.join("node_modules", "typescript")],
      "one typescript in the project",
    );

    const lines = readmeMarkedBlock(readme, "quickstart:commands", "sh")
      .split("\n")
      .filter((l) => l.trim());
    assert.equal(lines, ["npx tooltype build", "node dist/main.js"]);
    const built = ok(
      `npx tooltype build on TypeScript ${version}`,
      await run("npx", ["--no-install", "tooltype", "build"], dir),
    );
    assert.is(built.stdout + built.stderr, "", "the build prints nothing");
    const ran = ok("node dist/main.js", await run(process.execPath, [path.join("dist", "main.js")], dir));
    assertQuickStartOutput(ran.stdout);
    const checked = ok("npx tooltype check", await run("npx", ["--no-install", "tooltype", "check"], dir));
    assert.match(checked.stdout, /2 tool\(s\) checked, no problems/);
    assert.is(checked.stderr, "", "nothing to warn about");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
