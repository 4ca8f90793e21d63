/** The bundle-size benchmark: what an app that dispatches compiled tools in OpenAI's Chat Completions format ships. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { tspcPath } from "./cold-start";
import { PROJECTS, REPO } from "./generate";
import { runChild } from "./harness";

/** The entry a size-minded Chat Completions app imports. */
const PROVIDER_ENTRY = "tooltype/openai";

/** Tools added to the second app, to measure what one more costs. */
const EXTRA = 10;

/** The same one-tool app written against the main `tooltype` entry (every provider's export methods). */
export interface MainEntryBundle {
  libraryGzip: number;
  minified: number;
  gzip: number;
  /**
   * The same app as CommonJS (`require("tooltype")`), bundled by esbuild into one file for Node: `require` takes the
   * entry's whole namespace, so nothing of the entry is tree-shaken, and one file holds every lazily loaded chunk.
   */
  commonJs: { minified: number; gzip: number };
}

export interface BundleResult {
  /** Gzipped bytes of tooltype and its dependencies: the one-tool bundle less one tool's marginal cost. */
  libraryGzip: number;
  /** Gzipped bytes each further three-parameter tool adds. */
  perToolGzip: number;
  /** The one-tool bundle: minified and gzipped bytes. */
  minified: number;
  gzip: number;
  /** Minified bytes in the one-tool bundle per package ("app" for the app's own code), largest first. */
  dependencies: { name: string; bytes: number }[];
  /** Minified bytes per tooltype module in the one-tool bundle (dist/esm/runtime/…), largest first. */
  modules: { name: string; bytes: number }[];
  /** The one-tool app as CommonJS (`require("tooltype/openai")`), bundled into one file for Node (see `MainEntryBundle`). */
  commonJs: { minified: number; gzip: number };
  /** The app written against the main `tooltype` entry. */
  mainEntry: MainEntryBundle;
  esbuild: string;
}

const WORDS = [
  "city",
  "category",
  "note",
  "author",
  "title",
  "region",
  "street",
  "colour",
  "brand",
  "model",
  "topic",
  "query",
  "language",
  "owner",
  "label",
  "status",
  "team",
  "project",
  "reason",
  "channel",
  "sender",
  "subject",
  "country",
  "genre",
  "format",
  "vendor",
  "account",
  "ticket",
  "branch",
  "folder",
  "device",
  "market",
  "season",
];

/** Three distinct parameter names and descriptions per tool, so that gzip cannot fold one tool into the previous. */
function appSource(tools: number, entry: string): string {
  const lines = [`import { tool, ToolRegistry } from "${entry}";`, ``];
  const names: string[] = [];
  for (let k = 0; k < tools; k++) {
    const name = `lookup_${k}`;
    const [a, b, c] = [0, 1, 2].map((j) => WORDS[(k * 7 + j * 11) % WORDS.length]!);
    names.push(name);
    lines.push(
      `/**`,
      ` * Look up the ${a} entries of catalog ${k} by ${b} and ${c}.`,
      ` * @param ${a} The ${a} to look for`,
      ` * @param ${b} Which ${b} the entry has`,
      ` * @param ${c} A ${c} for the clerk`,
      ` */`,
      `export const ${name} = tool(function ${name}(${a}: string, ${b}: string, ${c}: string): string {`,
      `  return \`${k}:\${${a}}/\${${b}}/\${${c}}\`;`,
      `});`,
      ``,
    );
  }
  lines.push(
    `const registry = new ToolRegistry([${names.join(", ")}]);`,
    ``,
    `/** What a Chat Completions app does each turn: send the tools, answer the model's calls. */`,
    `export async function turn(message: Parameters<ToolRegistry["dispatch"]>[0]) {`,
    `  return { tools: registry.toOpenAITools(), answers: await registry.dispatch(message) };`,
    `}`,
    ``,
  );
  return lines.join("\n");
}

const CHECK = (load: string) => `${load}
const message = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function",
  function: { name: "lookup_0", arguments: JSON.stringify({ city: "Paris", query: "books", country: "n" }) } }] };
turn(message).then(({ tools, answers }) =>
  process.stdout.write(JSON.stringify({ tools: tools.length, answers: answers.map((a) => a.toJSON()) })));
`;

interface Built {
  /** The code the app loads (entry and static chunks), concatenated. */
  code: Uint8Array;
  inputs: Record<string, { bytesInOutput: number }>;
  outdir: string;
}

/** What esbuild wrote for an app: its metafile's outputs, the entry's output path, the folder. */
export interface EsmAppBundle {
  outputs: Record<
    string,
    {
      entryPoint?: string;
      inputs: Record<string, { bytesInOutput: number }>;
      imports: { path: string; kind: string }[];
    }
  >;
  entry: string;
  outdir: string;
}

/**
 * An ES module app in `dir` (`src/app.ts` = `source`, `node_modules/tooltype` → this repository), compiled with
 * tspc and the plugin, bundled by esbuild as a size-minded user would: minified, for Node, code splitting on (what
 * is loaded only on first need, ajv for schemas written by hand, goes to chunks of its own).
 */
export async function bundleEsmApp(dir: string, source: string, types: string[] = []): Promise<EsmAppBundle> {
  compileEsmApps(dir, { app: source }, types);
  return bundleCompiled(dir, "app");
}

/**
 * Several ES module apps in one project in `dir` (`src/<name>.ts` for each of `sources`), compiled by one tspc run
 * with the plugin; `bundleCompiled` then bundles each.
 */
function compileEsmApps(dir: string, sources: Record<string, string>, types: string[] = []): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "bench-bundle", private: true, type: "module" }),
  );
  fs.symlinkSync(REPO, path.join(dir, "node_modules", "tooltype"), "dir");
  for (const [name, source] of Object.entries(sources)) fs.writeFileSync(path.join(dir, "src", `${name}.ts`), source);
  const compilerOptions = {
    target: "ES2022",
    module: "ES2022",
    moduleResolution: "bundler",
    lib: ["ES2022"],
    types,
    typeRoots: [path.join(REPO, "node_modules", "@types")],
    strict: true,
    skipLibCheck: true,
    rootDir: "src",
    outDir: "out",
    plugins: [{ transform: "tooltype/transformer" }],
  };
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }));
  runChild(process.execPath, [tspcPath(), "-p", "tsconfig.json"], { cwd: dir, timeoutMs: 300_000 });
}

/** The app `name` compiled by `compileEsmApps`, bundled by esbuild into `dir/dist` (`dir/dist-<name>` but for "app"). */
async function bundleCompiled(dir: string, name: string): Promise<EsmAppBundle> {
  const outdir = path.join(dir, name === "app" ? "dist" : `dist-${name}`);
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [path.join(dir, "out", `${name}.js`)],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "node20",
    splitting: true,
    outdir,
    entryNames: "bundle",
    outExtension: { ".js": ".mjs" },
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  // The app's own entry: a chunk behind `import()` is an entry point of esbuild's too, and may come first.
  const entryFile = path.join(dir, "out", `${name}.js`);
  const entry = Object.keys(outputs).find((file) => {
    const point = outputs[file]!.entryPoint;
    return point !== undefined && path.resolve(point) === entryFile;
  })!;
  return { outputs, entry, outdir };
}

/** The output files an app loads on start: its entry and the chunks imported statically (not those behind `import()`). */
export function staticOutputs(bundle: EsmAppBundle): string[] {
  const loaded = new Set<string>();
  const visit = (file: string): void => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const imported of bundle.outputs[file]!.imports)
      if (imported.kind === "import-statement" && bundle.outputs[imported.path]) visit(imported.path);
  };
  visit(bundle.entry);
  return [...loaded];
}

async function bundleApp(dir: string, name: string): Promise<Built> {
  const bundle = await bundleCompiled(dir, name);
  const { outputs, outdir } = bundle;
  const loaded = staticOutputs(bundle);
  const code = Buffer.concat([...loaded].map((file) => fs.readFileSync(path.resolve(file))));
  const inputs: Built["inputs"] = {};
  for (const file of loaded) Object.assign(inputs, outputs[file]!.inputs);
  return { code, inputs, outdir };
}

/**
 * The app `name` compiled by `compileEsmApps`, as a CommonJS app: its imports turned into `require` calls by esbuild
 * (as tsc writes them for `module: "commonjs"`), then bundled by esbuild into one minified file for Node, the way a
 * CommonJS service is bundled for a function platform. Returns the file's bytes and the folder it is in.
 */
async function bundleCommonJs(dir: string, name: string): Promise<{ code: Uint8Array; outdir: string }> {
  const esbuild = await import("esbuild");
  const source = fs.readFileSync(path.join(dir, "out", `${name}.js`), "utf8");
  const commonJs = await esbuild.transform(source, { format: "cjs", target: "node20", loader: "js" });
  const entry = path.join(dir, "out", `${name}.cjs`);
  fs.writeFileSync(entry, commonJs.code);
  const outdir = path.join(dir, `dist-${name}-cjs`);
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    outfile: path.join(outdir, "bundle.cjs"),
    logLevel: "silent",
  });
  return { code: fs.readFileSync(path.join(outdir, "bundle.cjs")), outdir };
}

/** The package an input file belongs to: its node_modules package, "tooltype" for this repository, else "app". */
function packageOf(file: string): string {
  const modules = file.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = file.slice(modules + "node_modules/".length).split("/");
    const name = rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return name === "tooltype" ? "tooltype" : name;
  }
  const absolute = path.resolve(REPO, file);
  return absolute.startsWith(path.join(REPO, "dist") + path.sep) ? "tooltype" : "app";
}

function gzip(code: Uint8Array): number {
  return zlib.gzipSync(code, { level: 9 }).length;
}

/**
 * Bundles the app with one tool and with `1 + EXTRA`, checks that the one-tool bundle works, and measures both.
 * - Writes a small ES module app (`tool()` functions of three primitive parameters, a `ToolRegistry`,
 *   `toOpenAITools()` and `dispatch()`) as a size-minded user writes it, against the `tooltype/openai` entry, and
 *   once more against the main `tooltype` entry (the second figure), compiles it with tspc and the tooltype plugin, and
 * bundles it with esbuild
 *   as a user would (minified, ES module, for Node, code splitting on; the package's `module` condition gives
 *   esbuild the ES module build of the runtime), counting what the app loads (entry and static chunks), once with one
 * tool and once with `1 + EXTRA` tools.
 * - Reports the gzipped size of the one-tool bundle less the marginal cost of a tool (what tooltype and its
 *   dependencies cost), the marginal gzipped bytes per three-parameter tool, and the minified bytes per dependency
 *   from esbuild's metafile.
 * - Checks the bundle: it runs in a fresh Node process, exports every tool and answers a call with the tool's result.
 */
export async function benchBundle(): Promise<BundleResult> {
  // One project, one tspc run: the one-tool app, the same with EXTRA more tools, the one-tool app on the main entry.
  const dir = path.join(PROJECTS, "bundle");
  compileEsmApps(dir, {
    one: appSource(1, PROVIDER_ENTRY),
    more: appSource(1 + EXTRA, PROVIDER_ENTRY),
    main: appSource(1, "tooltype"),
  });
  const one = await bundleApp(dir, "one");
  const more = await bundleApp(dir, "more");
  const main = await bundleApp(dir, "main");
  const oneCommonJs = await bundleCommonJs(dir, "one");
  const mainCommonJs = await bundleCommonJs(dir, "main");
  checkBundle(one.outdir);
  checkBundle(main.outdir);
  checkBundle(oneCommonJs.outdir, true);
  checkBundle(mainCommonJs.outdir, true);

  const perToolGzip = (gzip(more.code) - gzip(one.code)) / EXTRA;
  const sizes = new Map<string, number>();
  for (const [file, input] of Object.entries(one.inputs)) {
    const name = packageOf(file);
    sizes.set(name, (sizes.get(name) ?? 0) + input.bytesInOutput);
  }
  const dependencies = [...sizes].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  const runtimeDir = path.join(REPO, "dist", "esm", "runtime") + path.sep;
  const modules = Object.entries(one.inputs)
    .filter(([file]) => path.resolve(file).startsWith(runtimeDir))
    .map(([file, input]) => ({ name: path.resolve(file).slice(runtimeDir.length), bytes: input.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  const gz = gzip(one.code);
  const mainGz = gzip(main.code);
  const esbuild = (await import("esbuild")).version;
  return {
    libraryGzip: gz - perToolGzip,
    perToolGzip,
    minified: one.code.length,
    gzip: gz,
    dependencies,
    modules,
    commonJs: { minified: oneCommonJs.code.length, gzip: gzip(oneCommonJs.code) },
    mainEntry: {
      libraryGzip: mainGz - perToolGzip,
      minified: main.code.length,
      gzip: mainGz,
      commonJs: { minified: mainCommonJs.code.length, gzip: gzip(mainCommonJs.code) },
    },
    esbuild,
  };
}

/** Runs the bundle in `outdir` (`bundle.mjs`, or `bundle.cjs` when `commonJs`) on a call and checks the answer. */
function checkBundle(outdir: string, commonJs = false): void {
  // Away from any node_modules: the bundle must run on its own.
  const alone = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-bundle-"));
  fs.cpSync(outdir, alone, { recursive: true });
  const check = path.join(alone, commonJs ? "check.cjs" : "check.mjs");
  fs.writeFileSync(
    check,
    CHECK(commonJs ? 'const { turn } = require("./bundle.cjs");' : 'import { turn } from "./bundle.mjs";'),
  );
  const { stdout } = runChild(process.execPath, [check], { cwd: alone, timeoutMs: 60_000 });
  const report = JSON.parse(stdout) as {
    tools: number;
    answers: { role: string; tool_call_id: string; content: string }[];
  };
  const answer = report.answers[0];
  if (
    report.tools !== 1 ||
    report.answers.length !== 1 ||
    answer?.tool_call_id !== "c1" ||
    answer.content !== "0:Paris/books/n"
  ) {
    throw new Error(
      `the bundled app answered ${stdout}; expected one tool and the answer "0:Paris/books/n" to call c1`,
    );
  }
  fs.rmSync(alone, { recursive: true, force: true });
}
