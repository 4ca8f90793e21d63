/**
 * `npm pack` on a fresh clone (the repository's tracked files, no dist/): packing builds the package first
 * (`prepack`), so the tarball holds the built entries instead of quietly leaving them out.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");

test("npm pack in a clone without dist/ builds first: the tarball holds the CommonJS and ES module builds", async () => {
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-clone-"));
  try {
    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: repo, encoding: "utf8" })
      .split("\0")
      .filter(Boolean);
    for (const file of tracked) {
      if (!fs.existsSync(path.join(repo, file))) continue; // deleted in the working tree, not yet committed
      fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
      fs.copyFileSync(path.join(repo, file), path.join(clone, file));
    }
    // What `npm ci` would install, without installing it again.
    fs.symlinkSync(path.join(repo, "node_modules"), path.join(clone, "node_modules"), "dir");
    assert.not.ok(fs.existsSync(path.join(clone, "dist")), "a fresh clone has no dist/");
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const packed = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        npm,
        ["pack", "--dry-run", "--json", "--loglevel=error"],
        { cwd: clone, env, timeout: HANG_MS, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout: String(stdout), stderr: String(stderr) }),
      );
    });
    assert.is(packed.code, 0, packed.stderr);
    // The build's own output precedes npm's JSON on stdout.
    const json = packed.stdout.slice(packed.stdout.indexOf("[\n"));
    const [info] = JSON.parse(json) as { files: { path: string }[] }[];
    const files = info!.files.map((f) => f.path);
    for (const required of [
      "dist/runtime/entries/index.js",
      "dist/runtime/entries/index.d.ts",
      "dist/runtime/entries/index.node.js",
      "dist/transformer/index.js",
      "dist/esm/runtime/entries/index.js",
      "dist/runtime/entries/mcp.mjs",
    ]) {
      assert.ok(files.includes(required), `the tarball lacks ${required}: ${files.length} files`);
    }
  } finally {
    fs.rmSync(clone, { recursive: true, force: true });
  }
});

test.run();
