/**
 * Untrusted text is parsed in one place: every `JSON.parse` of the runtime is in arguments/read/bounded-json.ts (size
 * and depth checked first), or is named below with the reason it reads text the runtime wrote itself.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";

const repo = path.resolve(__dirname, "../../..");

/** Files allowed a `JSON.parse`, and why what they parse is not untrusted. */
const ALLOWED: Record<string, string> = {
  "runtime/arguments/read/bounded-json.ts": "the bounded reader itself",
  "runtime/dispatch/call-state.ts": "the ToolMessage content dispatch itself wrote, for the result check",
  "runtime/providers/gemini/answer.ts": "the ToolMessage content dispatch wrote, back into Gemini's response object",
  "runtime/mcp/format/answer.ts": "the ToolMessage content dispatch wrote, back into structured content",
  "runtime/mcp/server-info.ts": "the app's own package.json (at most 1 MB), for a server's default name",
};

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}

test("JSON.parse in the runtime only in the bounded reader, or of text the runtime wrote", () => {
  const found: string[] = [];
  for (const file of files(path.join(repo, "runtime"))) {
    const relative = path.relative(repo, file).split(path.sep).join("/");
    // Comments and strings blanked, so that only code is searched; a deep copy through JSON
    // (`JSON.parse(JSON.stringify(x))`) parses text it has just written.
    const code = fs
      .readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
      .replace(/\/\/[^\n]*/g, "")
      .replace(/`(?:[^`\\]|\\.)*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (literal) =>
        literal.replace(/[^\n]/g, " "),
      );
    for (const match of code.matchAll(/\bJSON\.parse\((?!\s*JSON\.stringify\()/g)) {
      if (relative in ALLOWED) continue;
      found.push(`${relative}:${code.slice(0, match.index).split("\n").length}`);
    }
  }
  assert.equal(
    found,
    [],
    `parse untrusted text with readJson (runtime/arguments/read/bounded-json.ts), or name the file in ALLOWED with why its text is the runtime's own:\n${found.join("\n")}`,
  );
});

test("every file ALLOWED still parses JSON (a stale entry is dropped)", () => {
  for (const file of Object.keys(ALLOWED)) {
    assert.ok(fs.existsSync(path.join(repo, file)), `${file} no longer exists`);
    assert.match(fs.readFileSync(path.join(repo, file), "utf8"), /JSON\.parse\(/, `${file} no longer calls JSON.parse`);
  }
});

test.run();
