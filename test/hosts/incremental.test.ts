/**
 * Incremental and watch builds with the real `tspc`: a property added to an interface two imports away from a tool
 * (through a barrel and an `extends`) reaches the tool's schema and validator, as in a clean build. Without
 * tooltype's dependency record, tsc would re-emit only the changed file and the ones whose declarations changed,
 * and the tool would keep its old schema. Also: an error brought in by such a change fails the build at its
 * position, and goes away when it is fixed.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { bin, makeProject, node, run, start, waitFor, writeFiles } from "./project";
import { APP, checkBehaviour, LIB, output, tools } from "./sample";

function project(incremental: boolean): string {
  return makeProject(incremental ? "incremental" : "watch", {
    "package.json": "{}",
    "tsconfig.json": `{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "strict": true, "outDir": "dist", ${incremental ? '"incremental": true, ' : ""}"experimentalDecorators": true, "skipLibCheck": true, "types": ["node"], "plugins": [{ "transform": "tooltype/transformer" }] }, "include": ["src"] }`,
    ...LIB,
    "src/tools.ts": tools("@tool"),
    "src/main.ts": APP.replace('"./tools.js"', '"./tools"'),
  });
}

const WITH_GIFT = '{"order":{"id":"x1","qty":2,"gift":["card"]}}';
const addGift = (type: string): Record<string, string> => ({
  "src/lib/base.ts": LIB["src/lib/base.ts"].replace("id: string;", `id: string;\n  gift?: ${type};`),
});
const tspc = (dir: string, args: string[] = []) => run(bin("tspc"), ["-p", "tsconfig.json", ...args], dir);

test("incremental: true: a property added two imports away is in the next build, as in a clean build", async () => {
  const dir = project(true);
  const first = await tspc(dir);
  assert.is(first.code, 0, first.stdout);
  const before = output("first build", await node(["dist/main.js", WITH_GIFT], dir));
  checkBehaviour(before);
  assert.is(before.given, "error", "gift is not a property yet");

  writeFiles(dir, addGift("string[]"));
  const second = await tspc(dir, ["--listEmittedFiles"]);
  assert.is(second.code, 0, second.stdout);
  const after = output("incremental build", await node(["dist/main.js", WITH_GIFT], dir));
  checkBehaviour(after, ["gift", "id", "qty"]);
  assert.is(after.given, "success", "the validator accepts the new property");

  // Byte for byte what a clean build of the same sources emits.
  const clean = path.join(dir, "clean");
  const built = await run(bin("tspc"), ["-p", "tsconfig.json", "--incremental", "false", "--outDir", clean], dir);
  assert.is(built.code, 0, built.stdout);
  assert.is(
    fs.readFileSync(path.join(dir, "dist/tools.js"), "utf8"),
    fs.readFileSync(path.join(clean, "tools.js"), "utf8"),
  );
  fs.rmSync(clean, { recursive: true });

  // An unsupported type arriving the same way fails the build at its position; fixing it clears the error.
  writeFiles(dir, addGift("Map<string, string>"));
  const broken = await tspc(dir);
  assert.is(broken.code, 1, "the build fails");
  assert.match(
    broken.stdout,
    /src\/lib\/base\.ts\(4,3\): error TS991001: TT1001: "order\.gift" \(in parameter "order" of tool "place_order"\) has type Map/,
  );
  writeFiles(dir, addGift("string[]"));
  const fixed = await tspc(dir);
  assert.is(fixed.code, 0, fixed.stdout);
  assert.is(output("after the fix", await node(["dist/main.js", WITH_GIFT], dir)).given, "success");
});

test("tspc -w: the watcher rewrites the tool when an interface two imports away changes", async () => {
  const dir = project(false);
  const watcher = start(process.execPath, [bin("tspc"), "-p", "tsconfig.json", "-w", "--preserveWatchOutput"], dir);
  try {
    await waitFor("the first watch build", () =>
      /Found 0 errors\. Watching/.test(watcher.output()) ? true : undefined,
    );
    assert.is(output("first build", await node(["dist/main.js", WITH_GIFT], dir)).given, "error");
    const tools = path.join(dir, "dist/tools.js");
    writeFiles(dir, addGift("string[]"));
    await waitFor("dist/tools.js with the new property", () =>
      fs.readFileSync(tools, "utf8").includes("gift") ? true : undefined,
    );
    await waitFor("the rebuild to finish", () =>
      watcher.output().match(/Found 0 errors\. Watching/g)!.length >= 2 ? true : undefined,
    );
    const after = output("after the change", await node(["dist/main.js", WITH_GIFT], dir));
    checkBehaviour(after, ["gift", "id", "qty"]);
    assert.is(after.given, "success");
  } finally {
    watcher.child.kill();
  }
});

test.run();
