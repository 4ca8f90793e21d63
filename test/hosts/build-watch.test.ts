/**
 * `tooltype build -w` as editors save: a file saved atomically (a temporary file renamed over it, as editors' safe
 * write and `sed -i` do) is rebuilt, and so is the next edit of that same file; each build ends with tsc's line
 * saying when and how many errors it found. On TypeScript 7 (the module transform over its API) and on a compiler
 * with the JavaScript API (the program's emit): the two paths of the command, one watch loop.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { prepareApp, REPO } from "./app";
import { start, waitFor } from "./project";

const CLI = path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js");
const SUMMARY = /^\[[^\]]+\] Found (\d+) errors?\. Watching for file changes\.$/gm;

const made: string[] = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** The sample app; on TypeScript 7, outside the repository with only typescript-7.1 as its `typescript`. */
function project(compiler: "typescript-7.1" | "javascript-api"): string {
  let dir = prepareApp(`build-watch-${compiler}`);
  if (compiler === "typescript-7.1") {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-build-watch-"));
    fs.cpSync(dir, outside, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(dir, { recursive: true, force: true });
    dir = outside;
    fs.symlinkSync(path.join(REPO, "node_modules", compiler), path.join(dir, "node_modules", "typescript"), "dir");
  }
  made.push(dir);
  const tsconfig = path.join(dir, "tsconfig.json");
  fs.writeFileSync(tsconfig, fs.readFileSync(tsconfig, "utf8").replace('"outDir":', '"rootDir": "src", "outDir":'));
  return dir;
}

/** An editor's safe write: the new text in a temporary file beside it, renamed over the file. */
function saveAtomically(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.swp`);
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

for (const compiler of ["typescript-7.1", "javascript-api"] as const) {
  test(`${compiler}: \`tooltype build -w\` rebuilds a file saved by renaming over it, and again on its next edit, each build ending with tsc's summary line`, async () => {
    const dir = project(compiler);
    const base = path.join(dir, "src", "base.ts");
    const out = path.join(dir, "out-tspc", "tools.js");
    const { child, output } = start(process.execPath, [CLI, "build", "-w"], dir);
    /** Waits for a build after `since` (an output length) whose summary counts `errors` and whose output has `text`. */
    const built = (since: number, errors: number, text: RegExp) =>
      waitFor(`a build with ${errors} error(s) whose output matches ${text}`, () => {
        const counts = [...output().slice(since).matchAll(SUMMARY)].map((m) => Number(m[1]));
        if (counts.includes(errors) && fs.existsSync(out) && text.test(fs.readFileSync(out, "utf8"))) return true;
        if (child.exitCode !== null) throw new Error(`the watch ended (status ${child.exitCode}):\n${output()}`);
        return undefined;
      });
    try {
      await built(0, 0, /City name/);
      assert.match(output(), /^\[[^\]]+\] Starting compilation in watch mode\.\.\.$/m);

      let mark = output().length;
      saveAtomically(base, fs.readFileSync(base, "utf8").replace("City name", "Town name"));
      await built(mark, 0, /Town name/);
      assert.match(output().slice(mark), /^\[[^\]]+\] File change detected\. Starting incremental compilation\.\.\.$/m);

      // The same file again, now the one renamed into place: with a type error, which the summary counts.
      mark = output().length;
      fs.writeFileSync(
        base,
        `${fs.readFileSync(base, "utf8").replace("Town name", "Village name")}\nexport const typo: number = "one";\n`,
      );
      await built(mark, 1, /Village name/);
      assert.match(output().slice(mark), /error TS2322/);

      mark = output().length;
      saveAtomically(
        base,
        fs
          .readFileSync(base, "utf8")
          .replace("Village name", "Hamlet name")
          .replace(/\nexport const typo.*\n/, ""),
      );
      await built(mark, 0, /Hamlet name/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    }
  });
}

test.run();
