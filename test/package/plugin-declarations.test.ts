/**
 * The build plugin entries' declarations in a project that has nothing but tooltype, a compiler and @types/node,
 * with `skipLibCheck` off and the options `tsc --init` of TypeScript 7 writes (strict, exactOptionalPropertyTypes,
 * noUncheckedIndexedAccess, verbatimModuleSyntax, module nodenext, ...), under TypeScript 7 and 5.9: a file that
 * imports each entry of package.json "exports" that plugs tooltype into a build (the bundler plugins, Turbopack's
 * loader, the register hooks) and makes each plugin type-checks without an error in tooltype's declarations. Their
 * types once named the compiler's (`ts.TypeChecker`, which TypeScript 7 does not ship) and unplugin's, which import
 * every bundler's types (`@farmfe/core`, `webpack`, ...): 39 errors under TypeScript 7 unless `skipLibCheck` was on.
 * The compiler plugins (`tooltype/transformer`, `tooltype/ts-jest`) take the compiler's own objects and run on 5.x
 * and 6 only: they are checked under 5.9 alone.
 *
 * The project's node_modules holds a copy of the built package's declarations (package.json and dist/'s `.d.ts`
 * files, what the tarball holds of them), the compiler and @types/node: none of tooltype's dependencies, so a
 * declaration that reached for one fails here. One tsc run per compiler.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-plugin-declarations-"));

/** Every build plugin entry, as a user's build configuration uses it. */
const PLUGINS = `import vite from "tooltype/vite";
import rollup from "tooltype/rollup";
import rolldown from "tooltype/rolldown";
import esbuild from "tooltype/esbuild";
import webpack from "tooltype/webpack";
import rspack from "tooltype/rspack";
import bun from "tooltype/bun";
import type { TooltypeBundlerOptions } from "tooltype/vite";
import type { TooltypeLoaderOptions } from "tooltype/turbopack";
import type * as register from "tooltype/register";
import type * as bunRegister from "tooltype/bun-register";

const options: TooltypeBundlerOptions = { tsconfig: "tsconfig.json", include: /\\.ts$/, plugin: { validators: false } };
export const plugins = [vite(options), rollup(), rolldown(), esbuild({ exclude: /node_modules/ }), webpack(), rspack(), bun()];
export const names: string[] = [vite().name, rollup().name, rolldown().name, esbuild().name, bun().name];
export const applies: ((compiler: unknown) => void)[] = [webpack().apply, rspack().apply];
export const loader: TooltypeLoaderOptions = { tsconfig: "tsconfig.json", typescript: "typescript", plugin: { validators: true } };
export type Hooks = [typeof register, typeof bunRegister];
`;

/** The compiler plugins, whose types are the compiler API's (5.x and 6 only). */
const COMPILER_PLUGINS = `import type * as ts from "typescript";
import tooltype from "tooltype/transformer";
import * as tsJest from "tooltype/ts-jest";

export const before = (program: ts.Program): ts.TransformerFactory<ts.SourceFile> => tooltype(program, { validators: true });
export const jest: [string, string] = [tsJest.name, tsJest.version];
`;

/** What `tsc --init` of TypeScript 7 turns on (its generated tsconfig.json), with skipLibCheck off. */
const INIT_OPTIONS = {
  module: "nodenext",
  target: "esnext",
  types: ["node"],
  sourceMap: true,
  declaration: true,
  declarationMap: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  strict: true,
  jsx: "react-jsx",
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUncheckedSideEffectImports: true,
  moduleDetection: "force",
  skipLibCheck: false,
  noEmit: true,
};

/** node_modules/tooltype: the package manifest and every declaration file of what the package publishes. */
function copyDeclarations(to: string): void {
  fs.mkdirSync(to, { recursive: true });
  fs.copyFileSync(path.join(repo, "package.json"), path.join(to, "package.json"));
  for (const folder of ["dist/runtime", "dist/transformer"]) {
    for (const name of fs.readdirSync(path.join(repo, folder), { recursive: true }) as string[]) {
      if (!/\.d\.[cm]?ts$/.test(name)) continue;
      fs.mkdirSync(path.dirname(path.join(to, folder, name)), { recursive: true });
      fs.copyFileSync(path.join(repo, folder, name), path.join(to, folder, name));
    }
  }
}

function project(name: string, compiler: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.mkdirSync(path.join(dir, "node_modules", "@types"), { recursive: true });
  copyDeclarations(path.join(dir, "node_modules", "tooltype"));
  fs.symlinkSync(path.join(repo, "node_modules", compiler), path.join(dir, "node_modules", "typescript"), "dir");
  fs.symlinkSync(path.join(repo, "node_modules", "@types", "node"), path.join(dir, "node_modules", "@types", "node"));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { ...INIT_OPTIONS, rootDir: "src" }, include: ["src"] }),
  );
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, "src", file), text);
  return dir;
}

/** tsc -p . in `dir` with its own compiler; what it printed when it failed. */
function tsc(dir: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", "."],
      { cwd: dir, timeout: HANG_MS },
      (error, stdout, stderr) => resolve(error ? `${stdout}${stderr}` || String(error) : ""),
    );
  });
}

test("every build plugin entry type-checks under TypeScript 7 and 5.9, tsc --init's options, skipLibCheck off, nothing else installed", async () => {
  assert.ok(fs.existsSync(path.join(repo, "dist/transformer/hosts/bundlers/vite.d.mts")), "dist/ is not built");
  const version = (compiler: string): string =>
    (
      JSON.parse(fs.readFileSync(path.join(repo, "node_modules", compiler, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  assert.match(version("typescript-7"), /^7\./);
  assert.match(version("typescript"), /^5\.9\./);
  const [seven, five] = await Promise.all([
    tsc(project("typescript-7", "typescript-7", { "plugins.ts": PLUGINS })),
    tsc(project("typescript-5.9", "typescript", { "plugins.ts": PLUGINS, "compiler-plugins.ts": COMPILER_PLUGINS })),
  ]);
  assert.is(seven, "", `TypeScript 7 reports errors:\n${seven}`);
  assert.is(five, "", `TypeScript 5.9 reports errors:\n${five}`);
});

test.after(() => fs.rmSync(root, { recursive: true, force: true }));

test.run();
