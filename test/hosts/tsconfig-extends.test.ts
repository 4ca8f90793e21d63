/**
 * tooltype's plugin entry along a tsconfig's `extends` chain, as the TypeScript 7 path reads it from the files
 * (TypeScript 7's API does not hand plugin entries back), against what TypeScript 5.9's own parse gives the
 * JavaScript API's path for the same project: relative names with and without `.json`, chains, packages by their
 * `exports` (conditions and `*` patterns), by their `tsconfig` field or tsconfig.json, `extends` arrays, and the
 * rule that the nearest config setting `plugins` gives the whole list.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { extendedCompilerOptions, resolveExtends } from "../../transformer/hosts/project/tsconfig-extends";
import { readTsconfig, tooltypeEntry } from "../../transformer/hosts/project/tsconfig";
import { projectFor } from "../../transformer/hosts/project/language-service";
import { transformModule } from "../../transformer/hosts/splice/transform-module";
import { typeScript7ProjectFor } from "../../transformer/hosts/project/typescript-7";
import { makeProject, repo, writeFiles } from "./project";

const entry = (options: Record<string, unknown>) => ({ transform: "tooltype/transformer", ...options });
const plugins = (...list: unknown[]) => ({ compilerOptions: { plugins: list } });
const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Shared configs every case's tsconfig.json may extend: files, and packages as @tsconfig/* and others ship them. */
const SHARED: Record<string, string> = {
  "src/a.ts": "export const a = 1;\n",
  "configs/base.json": `// a comment, as tsconfig files have them\n${json({ extends: "./deeper/tools.json", compilerOptions: { strict: true } })}`,
  "configs/deeper/tools.json": json(plugins(entry({ validators: false, level: "deep" }))),
  "configs/other.json": json(plugins({ transform: "some-other-transformer" })),
  "configs/no-plugins.json": json({ compilerOptions: { target: "ES2022" } }),
  "configs/cycle-a.json": json({ extends: "./cycle-b.json", ...plugins(entry({ validators: false, level: "cycle" })) }),
  "configs/cycle-b.json": json({ extends: "./cycle-a.json" }),
  // A package with `exports`: the root, a conditional subpath, a pattern.
  "node_modules/@acme/tsconfig/package.json": json({
    name: "@acme/tsconfig",
    exports: {
      ".": "./base.json",
      "./strict": { import: "./wrong.json", require: "./strict.json" },
      "./presets/*": "./presets/*.json",
    },
  }),
  "node_modules/@acme/tsconfig/base.json": json(plugins(entry({ validators: false, level: "acme" }))),
  "node_modules/@acme/tsconfig/strict.json": json({ extends: "./base.json", compilerOptions: { strict: true } }),
  "node_modules/@acme/tsconfig/wrong.json": json(plugins(entry({ level: "import-condition" }))),
  "node_modules/@acme/tsconfig/presets/tools.json": json(plugins(entry({ validators: false, level: "preset" }))),
  // Packages without `exports`: tsconfig.json at the root, a `tsconfig` field, a file by its subpath.
  "node_modules/tools-tsconfig/package.json": json({ name: "tools-tsconfig" }),
  "node_modules/tools-tsconfig/tsconfig.json": json(plugins(entry({ validators: false, level: "root-file" }))),
  "node_modules/tools-tsconfig/node20.json": json(plugins(entry({ level: "subpath" }))),
  "node_modules/field-tsconfig/package.json": json({ name: "field-tsconfig", tsconfig: "./configs/main.json" }),
  "node_modules/field-tsconfig/configs/main.json": json(plugins(entry({ validators: false, level: "field" }))),
};

/** Each case: its tsconfig.json's `extends` and own compiler options, and the entry both paths must read. */
const cases: { name: string; config: Record<string, unknown>; expected: Record<string, unknown> }[] = [
  {
    name: "a relative name without .json, two levels down",
    config: { extends: "./configs/base" },
    expected: entry({ validators: false, level: "deep" }),
  },
  {
    name: "a package's exports: the root",
    config: { extends: "@acme/tsconfig" },
    expected: entry({ validators: false, level: "acme" }),
  },
  {
    name: "a package's exports: a subpath under the require condition",
    config: { extends: "@acme/tsconfig/strict" },
    expected: entry({ validators: false, level: "acme" }),
  },
  {
    name: "a package's exports: a * pattern",
    config: { extends: "@acme/tsconfig/presets/tools" },
    expected: entry({ validators: false, level: "preset" }),
  },
  {
    name: "a package without exports: its tsconfig.json",
    config: { extends: "tools-tsconfig" },
    expected: entry({ validators: false, level: "root-file" }),
  },
  {
    name: "a package without exports: a file by its subpath",
    config: { extends: "tools-tsconfig/node20" },
    expected: entry({ level: "subpath" }),
  },
  {
    name: "a package's tsconfig field",
    config: { extends: "field-tsconfig" },
    expected: entry({ validators: false, level: "field" }),
  },
  {
    name: "an extends array: the later config's plugins win",
    config: { extends: ["@acme/tsconfig", "./configs/base.json"] },
    expected: entry({ validators: false, level: "deep" }),
  },
  {
    name: "an extends array: a later config without plugins keeps the earlier list",
    config: { extends: ["./configs/base.json", "./configs/no-plugins.json"] },
    expected: entry({ validators: false, level: "deep" }),
  },
  {
    name: "an extends array: a later plugins list without tooltype replaces the whole list",
    config: { extends: ["./configs/base.json", "./configs/other.json"] },
    expected: {},
  },
  {
    name: "the config's own plugins replace the base's list",
    config: { extends: "./configs/base.json", ...plugins({ transform: "some-other-transformer" }) },
    expected: {},
  },
  {
    name: "the config's own tooltype entry wins over the base's",
    config: { extends: "@acme/tsconfig", ...plugins(entry({ level: "own" })) },
    expected: entry({ level: "own" }),
  },
];

for (const { name, config, expected } of cases) {
  test(`extends, ${name}: the TypeScript 7 path reads TypeScript 5.9's entry`, () => {
    const dir = makeProject("tsconfig-extends", { ...SHARED, "tsconfig.json": json({ ...config, include: ["src"] }) });
    const configPath = path.join(dir, "tsconfig.json");
    const javaScriptApi = readTsconfig(ts, configPath, { hint: "" }).pluginConfig;
    assert.equal(javaScriptApi, expected, "TypeScript 5.9's parse");
    assert.equal(
      tooltypeEntry(extendedCompilerOptions(configPath) as ts.CompilerOptions, dir),
      javaScriptApi,
      "the TypeScript 7 path",
    );
  });
}

test("extends: a cycle is cut (TypeScript reports it), a missing config adds nothing", () => {
  const dir = makeProject("tsconfig-extends-cycle", {
    ...SHARED,
    "tsconfig.json": json({ extends: ["./configs/cycle-a.json", "./configs/missing"], include: ["src"] }),
  });
  assert.equal(extendedCompilerOptions(path.join(dir, "tsconfig.json")), {
    plugins: [entry({ validators: false, level: "cycle" })],
  });
  assert.is(resolveExtends("./configs/missing", dir), undefined);
  assert.is(resolveExtends("@acme/tsconfig/not-exported", dir), undefined, "a subpath the exports do not map");
});

const TOOLS = `import { tool } from "tooltype";

/**
 * Add two numbers.
 * @param a First
 * @param b Second
 */
export const add = tool(function add(a: number, b: number): number {
  return a + b;
});
`;

/** The metadata arguments the transform wrote into a module (one line each when no validator is compiled in). */
function metadataOf(code: string | undefined): string[] {
  return [...(code ?? "").matchAll(/\{ v: 1, [^\n]*/g)].map((m) => m[0]);
}

test("a module on TypeScript 7 alone is built with the options of a base config's plugin entry (a package's exports), as on TypeScript 5.9", () => {
  // Outside the repository: inside it, the repository's @typescript/typescript6 would be found and read the types.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-ts7-extends-")));
  try {
    writeFiles(dir, {
      ...SHARED,
      "tsconfig.json": json({
        extends: "@acme/tsconfig/strict",
        compilerOptions: {
          target: "ES2022",
          module: "esnext",
          moduleResolution: "bundler",
          skipLibCheck: true,
          types: [],
        },
        include: ["src"],
      }),
      "src/tools.ts": TOOLS,
    });
    fs.symlinkSync(repo, path.join(dir, "node_modules", "tooltype"), "dir");
    fs.symlinkSync(
      path.join(repo, "node_modules", "typescript-7"),
      path.join(dir, "node_modules", "typescript"),
      "dir",
    );
    const configPath = path.join(dir, "tsconfig.json");
    const file = path.join(dir, "src", "tools.ts");
    const ts7 = typeScript7ProjectFor(configPath, undefined);
    assert.ok(ts7, "the project is read through TypeScript 7's API");
    try {
      assert.equal(ts7.plugin, entry({ validators: false, level: "acme" }));
      const code = transformModule(ts7, file, TOOLS).code;
      assert.is(metadataOf(code).length, 1, "one tool's metadata");
      assert.not.match(code!, /validator/, "validators: false from the base config: no validator compiled in");
      const onJavaScriptApi = transformModule(projectFor({ tsconfig: configPath, typescript: ts }), file, TOOLS).code;
      assert.equal(metadataOf(code), metadataOf(onJavaScriptApi), "the metadata of the 5.9 path");
    } finally {
      ts7.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
