/**
 * tooltype on the oldest Node releases: on Node 20 before 20.19, which cannot `require` an ES module, the tooltype
 * command (`build`, `check`, `schema`) and `node --import tooltype/register` read types through TypeScript 7's API
 * (ES modules, imported first), on a project whose only compiler is TypeScript 7.0 (npm's default `typescript`);
 * so they do on the oldest release package.json's `engines` claims. Where nothing could import them first
 * (`--require tooltype/register`), one line says which Node reads them; on Node 18, the command and
 * tooltype/register say in one line which Node tooltype needs. The releases come from the npm registry's `node`
 * package (test/support/other-node.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectDispatch, prepareApp, REPO, run, runApp } from "../app";
import { nodeBinary } from "../../support/other-node";

const CLI = path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js");
const oldest = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { engines: { node: string } })
  .engines.node;

let dir: string | undefined;
test.after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The sample app outside the repository, with TypeScript 7.0 as its `typescript` and nothing else. */
function typeScript7Project(): string {
  if (dir) return dir;
  const made = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-oldest-node-"));
  const app = prepareApp("oldest-node");
  fs.cpSync(app, made, { recursive: true, verbatimSymlinks: true });
  fs.rmSync(app, { recursive: true, force: true });
  fs.symlinkSync(path.join(REPO, "node_modules", "typescript-7"), path.join(made, "node_modules", "typescript"), "dir");
  const tsconfig = path.join(made, "tsconfig.json");
  fs.writeFileSync(tsconfig, fs.readFileSync(tsconfig, "utf8").replace('"outDir":', '"rootDir": "src", "outDir":'));
  dir = made;
  return made;
}

test("engines names the oldest Node as a release", () => {
  assert.match(oldest, /^>=20\.\d+\.\d+$/);
});

for (const [release, all] of [
  ["20.18.3", true],
  [oldest.slice(2), false],
] as const) {
  test(`Node ${release}: tooltype build${all ? ", check and schema, and node --import tooltype/register," : ""} on TypeScript 7.0`, async () => {
    const node = await nodeBinary(release);
    const cwd = typeScript7Project();
    const version = await run(
      node,
      ["-e", "process.stdout.write(JSON.stringify([process.version, process.features.require_module === true]))"],
      cwd,
    );
    assert.is(version.stdout, JSON.stringify([`v${release}`, false]), "a Node that cannot require an ES module");

    const out = path.join(cwd, "out-tspc");
    fs.rmSync(out, { recursive: true, force: true });
    const built = await run(node, [CLI, "build"], cwd);
    assert.is(built.code, 0, built.stdout + built.stderr);
    assert.match(fs.readFileSync(path.join(out, "tools.js"), "utf8"), /City name/, "the tools' metadata is built");
    // The oldest release: the command that runs TypeScript 7.0's own tsc too; the rest is the same code on both.
    if (!all) return;

    const checked = await run(node, [CLI, "check"], cwd);
    assert.is(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /2 tool\(s\) checked, no problems/);

    const schema = await run(node, [CLI, "schema"], cwd);
    assert.is(schema.code, 0, schema.stdout + schema.stderr);
    assert.equal(
      (JSON.parse(schema.stdout) as { name: string }[]).map((t) => t.name),
      ["forecast", "search"],
    );

    const output = await runApp(node, ["--import", "tooltype/register", path.join("src", "main.ts")], cwd);
    expectDispatch(output, false, `tooltype/register on Node ${release}`);
  });
}

test("Node 20.18.3: --require tooltype/register, which nothing can load TypeScript 7's API before, says in one line which Node can", async () => {
  const node = await nodeBinary("20.18.3");
  // Without the schema cache: the test before filled it (--import), and a module it answers needs no TypeScript 7.
  const failed = await run(
    node,
    ["--require", "tooltype/register", path.join("src", "main.ts")],
    typeScript7Project(),
    {
      TOOLTYPE_CACHE: "0",
    },
  );
  assert.is(failed.code, 1);
  assert.match(
    failed.stderr,
    /^tooltype reads types through TypeScript 7\.0\.2's API, whose modules are ES modules that this Node \(20\.18\.3\) cannot require here: use Node 20\.19 or later \(22\.12 or later on Node 22\), or a host that loads them first \(.*\)\.\n$/,
  );
});

test("Node 18: the tooltype command and tooltype/register say in one line which Node tooltype needs", async () => {
  const node = await nodeBinary("18");
  const cwd = typeScript7Project();
  const needs = new RegExp(
    `^tooltype needs Node ${oldest.slice(2).replace(/\./g, "\\.")} or later; this is Node 18\\.\\d+\\.\\d+\\.\\n$`,
  );
  for (const args of [
    [CLI, "check"],
    [CLI, "build"],
    ["--import", "tooltype/register", path.join("src", "main.ts")],
    ["--require", "tooltype/register", path.join("src", "main.ts")],
  ]) {
    const failed = await run(node, args, cwd);
    assert.is(failed.code, 1, `${args.join(" ")}: ${failed.stderr}`);
    assert.match(failed.stderr, needs, args.join(" "));
    assert.is(failed.stdout, "", args.join(" "));
  }
});

test.run();
