/**
 * What a bundler's watch is told to watch, and which changes run every module with tools again
 * (transformer/hosts/bundlers/source-watch.mts): the project's sources and the folders holding them (those a watcher
 * of whole trees may take: below the tsconfig's folder, without packages); a source made or removed, or edited into
 * or out of a global declaration, runs them again, and any other edit does not, whether the watcher names the file
 * (Rollup), names only its folder (webpack, for a file made) or names nothing (esbuild, looked at by `scan`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";

const load = () => import("../../transformer/hosts/bundlers/source-watch.mjs");

const made: string[] = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project: src/a.ts (a module), src/deep/b.ts, src/global.ts (declares globally), node_modules beside src. */
function project(): { dir: string; file: (name: string) => string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-source-watch-")));
  made.push(dir);
  const files: Record<string, string> = {
    "tsconfig.json": "{}",
    "src/a.ts": "export const a = 1;\n",
    "src/deep/b.ts": "export const b = 1;\n",
    "src/global.ts": "export {};\ndeclare global {\n  interface Extra {}\n}\n",
    "node_modules/pkg/index.d.ts": "export {};\n",
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return { dir, file: (name) => path.join(dir, name).split(path.sep).join("/") };
}

test("the project's sources, the folders below the tsconfig's that hold them, and the trees a whole-folder watcher may take", async () => {
  const { SourceWatch } = await load();
  const { dir, file } = project();
  const watch = new SourceWatch(path.join(dir, "tsconfig.json"));
  const watched = watch.update({ files: [file("src/a.ts"), file("src/deep/b.ts"), file("src/global.ts")] });
  assert.equal(watched.files.sort(), [file("src/a.ts"), file("src/deep/b.ts"), file("src/global.ts")]);
  assert.equal(
    watched.folders,
    [file("src"), file("src/deep")],
    "not the tsconfig's folder (the output, the packages)",
  );
  assert.equal(watched.trees, [file("src")], "not the tsconfig's folder (it holds node_modules), nor one inside src");
});

test("named changes: an edit into or out of a global declaration and a file made or removed run the tools again; another edit does not", async () => {
  const { SourceWatch } = await load();
  const { dir, file } = project();
  const watch = new SourceWatch(path.join(dir, "tsconfig.json"));
  watch.update({ files: [file("src/a.ts"), file("src/global.ts")] });
  assert.is(watch.takeRerun(), false);

  fs.writeFileSync(file("src/a.ts"), "export const a = 2;\n");
  assert.equal(watch.changed(file("src/a.ts")), [file("src/a.ts")]);
  assert.is(watch.takeRerun(), false, "an edit that declares nothing globally");

  fs.writeFileSync(
    file("src/a.ts"),
    "export const a = 3;\ndeclare global {\n  interface Extra {\n    x: string;\n  }\n}\n",
  );
  watch.changed(file("src/a.ts"));
  assert.is(watch.takeRerun(), true, "edited into a global declaration");

  fs.writeFileSync(file("src/a.ts"), "export const a = 4;\n");
  watch.changed(file("src/a.ts"));
  assert.is(watch.takeRerun(), true, "edited out of one (it declared globally at the last build)");

  fs.writeFileSync(
    file("src/global.ts"),
    "export {};\ndeclare global {\n  interface Extra {\n    y: string;\n  }\n}\n",
  );
  watch.changed(file("src/global.ts"));
  assert.is(watch.takeRerun(), true, "a file that declares globally edited");

  fs.writeFileSync(file("src/made.ts"), "export const made = 1;\n");
  assert.equal(watch.changed(file("src/made.ts")), [file("src/made.ts")]);
  assert.is(watch.takeRerun(), true, "a file made");

  fs.rmSync(file("src/made.ts"));
  watch.changed(file("src/made.ts"));
  assert.is(watch.takeRerun(), true, "a file removed");

  fs.writeFileSync(file("node_modules/pkg/index.d.ts"), "declare global {}\n");
  assert.equal(watch.changed(file("node_modules/pkg/index.d.ts")), []);
  fs.writeFileSync(file("src/notes.md"), "x\n");
  assert.equal(watch.changed(file("src/notes.md")), []);
  assert.is(watch.takeRerun(), false, "a package's file, or a file that is no source");
});

test("a folder named as changed (webpack) gives the files made or removed in it", async () => {
  const { SourceWatch } = await load();
  const { dir, file } = project();
  const watch = new SourceWatch(path.join(dir, "tsconfig.json"));
  watch.update({ files: [file("src/a.ts")] });
  assert.equal(watch.changed(file("src")), [], "nothing made yet");
  fs.writeFileSync(file("src/augment.ts"), 'export {};\ndeclare module "./a" {}\n');
  assert.equal(watch.changed(file("src")), [file("src/augment.ts")]);
  assert.is(watch.takeRerun(), true);
  fs.rmSync(file("src/augment.ts"));
  assert.equal(watch.changed(file("src")), [file("src/augment.ts")]);
  assert.is(watch.takeRerun(), true);
});

test("scan, for a watcher that names nothing (esbuild): edits, files made (in a new folder too) and removed", async () => {
  const { SourceWatch } = await load();
  const { dir, file } = project();
  const watch = new SourceWatch(path.join(dir, "tsconfig.json"));
  watch.update({ files: [file("src/a.ts"), file("src/global.ts")] }, true);
  assert.equal(watch.scan(), []);

  fs.writeFileSync(file("src/a.ts"), "export const a = 22;\n");
  assert.equal(watch.scan(), [file("src/a.ts")]);
  assert.is(watch.takeRerun(), false, "an edit that declares nothing globally");

  fs.mkdirSync(file("src/more"));
  fs.writeFileSync(file("src/more/augment.ts"), "declare global {}\nexport {};\n");
  assert.equal(watch.scan(), [file("src/more/augment.ts")]);
  assert.is(watch.takeRerun(), true, "a file made in a new folder");

  fs.rmSync(file("src/global.ts"));
  assert.equal(watch.scan(), [file("src/global.ts")]);
  assert.is(watch.takeRerun(), true, "a file removed");
  assert.equal(watch.scan(), [], "nothing since");
});

test.run();
