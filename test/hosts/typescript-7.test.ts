/**
 * TypeScript 7: the native compiler (`typescript@7`, under the npm alias `typescript-7` here) type-checks the
 * sample app, and the esbuild plugin, which analyses with the 5.x compiler API tooltype depends on, builds its
 * tools; the bundle dispatches. With TypeScript 7 installed as `typescript` (npm's latest) and a 5.x under the alias
 * `typescript-5`, as docs/building.md installs them, the hosts find the alias with no option. Also: pointing the
 * plugin at TypeScript 7's package says what to do instead.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { projectFor } from "../../transformer/hosts/project/language-service";
import { typescriptFor } from "../../transformer/hosts/project/tsconfig";
import { expectDispatch, prepareApp, REPO, run, runApp } from "./app";
import { build } from "./builds";

test("a project checked by TypeScript 7 builds its tools through the esbuild plugin", async () => {
  const dir = prepareApp("typescript-7");
  const tsc7 = path.join(REPO, "node_modules", "typescript-7", "bin", "tsc");
  const version = await run(process.execPath, [tsc7, "--version"], dir);
  assert.match(version.stdout, /^Version 7\./, `the native compiler runs: ${version.stdout}${version.stderr}`);
  const check = await run(process.execPath, [tsc7, "-p", "tsconfig.json", "--noEmit"], dir);
  assert.is(check.code, 0, `tsc 7 --noEmit: ${check.stdout}${check.stderr}`);

  const built = await build("esbuild", dir);
  expectDispatch(await runApp(built.command, built.args, dir), false, "esbuild after tsc 7");
});

/**
 * A project whose `typescript` is TypeScript 7, with `aliases` (name → one of the repository's typescript packages)
 * installed next to it: outside the repository, so that resolving from the project finds only its own packages.
 */
function projectOnTypeScript7(name: string, aliases: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tooltype-${name}-`));
  fs.cpSync(prepareApp(name), dir, { recursive: true, verbatimSymlinks: true });
  const link = (as: string, target: string): void =>
    fs.symlinkSync(path.join(REPO, "node_modules", target), path.join(dir, "node_modules", as), "dir");
  link("typescript", "typescript-7");
  for (const [as, target] of Object.entries(aliases)) link(as, target);
  made.push(dir);
  return dir;
}

const made: string[] = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

test("with TypeScript 7 as `typescript`, the compiler installed as typescript-5 or typescript-6 is found without an option", () => {
  // TypeScript 5.5 under the alias, so that the answer cannot be the repository's own 5.9 (found from tooltype's
  // folder).
  const five = projectOnTypeScript7("typescript-7-alias-5", { "typescript-5": "typescript-5.5" });
  assert.is(typescriptFor(five).version, "5.5.4");
  assert.is(projectFor({ tsconfig: path.join(five, "tsconfig.json") }).ts.version, "5.5.4");
  // Both aliases: typescript-6 first; an explicit choice is taken as it is.
  const both = projectOnTypeScript7("typescript-7-alias-6", {
    "typescript-6": "typescript-6",
    "typescript-5": "typescript-5.5",
  });
  assert.match(typescriptFor(both).version, /^6\./);
  assert.is(typescriptFor(both, "typescript-5").version, "5.5.4");
});

test("with TypeScript 7 as `typescript`, @typescript/typescript6 (the TypeScript team's 6.0 API package) is found first", () => {
  const dir = projectOnTypeScript7("typescript-7-typescript6", { "typescript-5": "typescript-5.5" });
  fs.mkdirSync(path.join(dir, "node_modules", "@typescript"), { recursive: true });
  fs.symlinkSync(
    path.join(REPO, "node_modules", "@typescript", "typescript6"),
    path.join(dir, "node_modules", "@typescript", "typescript6"),
    "dir",
  );
  const typescript6 = require(
    require.resolve("@typescript/typescript6", { paths: [dir] }),
  ) as typeof import("typescript");
  assert.match(typescript6.version, /^6\./);
  assert.is(typescriptFor(dir), typescript6);
  assert.is(projectFor({ tsconfig: path.join(dir, "tsconfig.json") }).ts, typescript6);
});

test("the esbuild plugin, tooltype/register and the tooltype command run a TypeScript 7 project through its typescript-5 alias", async () => {
  const dir = projectOnTypeScript7("typescript-7-register", { "typescript-5": "typescript-5.5" });
  const built = await build("esbuild", dir);
  expectDispatch(await runApp(built.command, built.args, dir), false, "esbuild, TypeScript 7 as typescript");
  expectDispatch(
    await runApp(process.execPath, ["--import", "tooltype/register", path.join(dir, "src", "main.ts")], dir),
    false,
    "tooltype/register, TypeScript 7 as typescript",
  );
  const schema = await run(
    process.execPath,
    [path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js"), "schema"],
    dir,
  );
  assert.is(schema.code, 0, schema.stderr);
  assert.match(schema.stdout, /"name": "forecast"/);
});

test("`tooltype check` and `tooltype schema` on a project whose only compiler is TypeScript 7 read its types through TypeScript 7's API, with the schemas of the JavaScript API", async () => {
  const cli = path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js");
  const only7 = projectOnTypeScript7("typescript-7-only", {});
  const withApi = projectOnTypeScript7("typescript-7-with-6", { "typescript-6": "typescript-6" });
  const check = await run(process.execPath, [cli, "check"], only7);
  assert.is(check.code, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /tool\(s\) checked, no problems/);
  const through7 = await run(process.execPath, [cli, "schema", "--format", "openai"], only7);
  const throughApi = await run(process.execPath, [cli, "schema", "--format", "openai"], withApi);
  assert.is(through7.code, 0, through7.stderr);
  assert.is(throughApi.code, 0, throughApi.stderr);
  assert.match(through7.stdout, /"name": "forecast"/);
  assert.is(
    through7.stdout,
    throughApi.stdout,
    "the same schemas from TypeScript 7's API as from 6.0's JavaScript API",
  );
});

test("the plugin pointed at TypeScript 7's package explains that it needs a 5.x/6.x compiler API", () => {
  const dir = prepareApp("typescript-7-api");
  assert.throws(
    () => projectFor({ tsconfig: path.join(dir, "tsconfig.json"), typescript: "typescript-7" }),
    (error: Error) =>
      /has no JavaScript compiler API/.test(error.message) && /npm i -D @typescript\/typescript6/.test(error.message),
  );
});

test.run();
