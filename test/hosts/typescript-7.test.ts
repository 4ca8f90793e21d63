/**
 * TypeScript 7: the native compiler (`typescript@7`, under the npm alias `typescript-7` here) type-checks the
 * sample app, and the esbuild plugin, which analyses with the 5.x compiler API tooltype depends on, builds its
 * tools; the bundle dispatches. Also: pointing the plugin at TypeScript 7's package says what to do instead.
 */
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { projectFor } from "../../transformer/hosts/project";
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

test("the plugin pointed at TypeScript 7's package explains that it needs a 5.x/6.x compiler API", () => {
  const dir = prepareApp("typescript-7-api");
  assert.throws(
    () => projectFor({ tsconfig: path.join(dir, "tsconfig.json"), typescript: "typescript-7" }),
    (error: Error) => /has no JavaScript compiler API/.test(error.message) && /typescript-5@npm:typescript@5\.9/.test(error.message),
  );
});

test.run();
