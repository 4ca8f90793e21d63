/**
 * tooltype's bundler plugins, each with the real bundler: the sample app (test/fixtures/hosts-app) builds, its
 * bundle dispatches a scripted OpenAI reply correctly with every tool's metadata what the `tspc` build has; the
 * plugin hands the bundler byte for byte the metadata text (validators included) tspc emits for the same sources;
 * a TT error in a tool fails each build with the error's file, line and column, the very position tspc reports,
 * printed once with one tooltype prefix in each bundler's own convention.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { projectFor } from "../../transformer/hosts/project/language-service";
import { transformModule } from "../../transformer/hosts/splice/transform-module";
import { type AppOutput, expectDispatch, prepareApp, REPO, run, runApp } from "./app";
import { BUNDLERS, build } from "./builds";
import { makeProject } from "./project";

const TSPC = path.join(REPO, "node_modules", "ts-patch", "bin", "tspc.js");
/** tspc's own build of the app runs on Node as CommonJS: same sources and tsconfig, module format overridden. */
const TSPC_ARGS = [
  "-p",
  "tsconfig.json",
  "--module",
  "commonjs",
  "--moduleResolution",
  "node10",
  "--outDir",
  "out-tspc",
];

const BROKEN_TOOL = `
/** Takes a callback, which JSON cannot carry. */
export const broken = tool(function broken(done: () => void) {
  return String(done);
});
`;

let reference: Promise<{ dir: string; output: AppOutput }> | undefined;

/** The app built by tspc, and what its build printed. */
function tspcBuild(): Promise<{ dir: string; output: AppOutput }> {
  reference ??= (async () => {
    const dir = prepareApp("bundlers");
    const tspc = await run(process.execPath, [TSPC, ...TSPC_ARGS], dir);
    assert.is(tspc.code, 0, `tspc failed: ${tspc.stdout}${tspc.stderr}`);
    const output = await runApp(process.execPath, [path.join(dir, "out-tspc", "main.js")], dir);
    expectDispatch(output, false, "tspc");
    assert.is(output.metas.length, 2);
    return { dir, output };
  })();
  return reference;
}

test("the plugin's transform splices the metadata tspc emits, byte for byte", async () => {
  const { dir } = await tspcBuild();
  const project = projectFor({ tsconfig: path.join(dir, "tsconfig.json") });
  let compared = 0;
  for (const name of ["tools", "main", "models", "query", "base"]) {
    const file = path.join(dir, "src", `${name}.ts`);
    const result = transformModule(project, file, fs.readFileSync(file, "utf8"));
    assert.equal(result.diagnostics, [], name);
    const fromTspc = metaTexts(fs.readFileSync(path.join(dir, "out-tspc", `${name}.js`), "utf8"));
    assert.equal(metaTexts(result.code ?? ""), fromTspc, name);
    compared += fromTspc.length;
  }
  assert.is(compared, 2, "both tools' metadata compared");
});

test("the plugin parses JSDoc as tsc does, on need: a declaration file's docs and tags still reach the schema", () => {
  // Like tsc, the plugins' program parses no JSDoc of .ts and .d.ts files up front (the standard library's and every
  // dependency's are most of a program's comments); the transformer parses the comments it reads (jsdoc-fill.ts).
  const dir = makeProject("jsdoc-on-need", {
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "bundler",
        strict: true,
        types: [],
        lib: ["ES2022", "DOM"],
      },
      include: ["src"],
    }),
    "src/geo.d.ts": `export interface Point {\n  /**\n   * Latitude in degrees\n   * @minimum -90\n   * @maximum 90\n   */\n  lat: number;\n  /** Longitude in degrees */\n  lon: number;\n}\n`,
    "src/tools.ts": `import { tool } from "tooltype";\nimport type { Point } from "./geo";\n\n/**\n * Find the nearest station.\n * @param at Where to look from\n */\nexport const nearest = tool(function nearest(at: Point) {\n  return at.lat + at.lon;\n});\n`,
  });
  const project = projectFor({ tsconfig: path.join(dir, "tsconfig.json") });
  const file = path.join(dir, "src", "tools.ts");
  const text = fs.readFileSync(file, "utf8");
  const result = transformModule(project, file, text);
  assert.equal(result.diagnostics, []);
  const parameters = /parameters: JSON\.parse\('([^']*)'\)/.exec(result.code ?? "")?.[1];
  assert.ok(parameters, `no parameters in:\n${result.code}`);
  assert.equal(JSON.parse(parameters).properties.at, {
    type: "object",
    properties: {
      lat: { type: "number", minimum: -90, maximum: 90, description: "Latitude in degrees" },
      lon: { type: "number", description: "Longitude in degrees" },
    },
    required: ["lat", "lon"],
    additionalProperties: false,
    description: "Where to look from",
  });
  assert.match(result.code ?? "", /description: "Find the nearest station\."/);
  const program = project.program(file, text);
  const lib = program.getSourceFiles().find((f) => /lib\.dom\.d\.ts$/.test(f.fileName)) as
    | { jsDocParsingMode?: number }
    | undefined;
  assert.is(
    lib?.jsDocParsingMode,
    project.ts.JSDocParsingMode.ParseForTypeErrors,
    "the standard library is parsed without its JSDoc",
  );
});

test("the plugin's source map points every original token at its own place", async () => {
  const { dir } = await tspcBuild();
  const file = path.join(dir, "src", "tools.ts");
  const original = fs.readFileSync(file, "utf8");
  const result = transformModule(projectFor({ tsconfig: path.join(dir, "tsconfig.json") }), file, original);
  const map = new TraceMap(result.map!.toString());
  const lineColumn = (text: string, at: number): { line: number; column: number } => {
    const before = text.slice(0, at).split("\n");
    return { line: before.length, column: before[before.length - 1]!.length };
  };
  // Tokens right after an insertion on its line (the call's closing parenthesis) and on later lines included.
  for (const token of [
    "export const forecast",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a fixture, with a template literal in it
    "return `${query.city}",
    ");\n\nexport class",
    "export class Catalog",
    "search(keyword",
    "Array.from",
  ]) {
    const generated = lineColumn(result.code!, result.code!.indexOf(token));
    const traced = originalPositionFor(map, generated);
    assert.equal({ line: traced.line, column: traced.column }, lineColumn(original, original.indexOf(token)), token);
    assert.is(traced.source, file, token);
  }
});

test("every bundler builds the sample app; its bundle dispatches like the tspc build, with identical metadata", async () => {
  const { dir, output: reference } = await tspcBuild();

  for (const bundler of BUNDLERS) {
    const built = await build(bundler, dir);
    assert.equal(
      built.warnings.filter((w) => /TT\d/.test(w)),
      [],
      `${bundler}: no tooltype warning expected`,
    );
    const output = await runApp(built.command, built.args, dir);
    expectDispatch(output, false, bundler);
    sameMetadata(output, reference, bundler);
  }
});

test("standard decorators (no experimentalDecorators, target ESNext): every bundle runs the @tool method", async () => {
  const { output: reference } = await tspcBuild();
  // What `tsc --init` writes: bundlers that follow tsconfig's target (or have none: esbuild, Vite 8's Oxc) keep
  // standard decorators as written, and no Node release parses them.
  const dir = prepareApp("standard-decorators", {
    "tsconfig.json": (text) =>
      text.replace('"experimentalDecorators": true,', "").replace('"target": "ES2022"', '"target": "ESNext"'),
  });
  const tsconfig = fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8");
  assert.ok(!tsconfig.includes("experimentalDecorators") && tsconfig.includes('"target": "ESNext"'), tsconfig);
  for (const bundler of BUNDLERS) {
    const built = await build(bundler, dir);
    const output = await runApp(built.command, built.args, dir);
    expectDispatch(output, false, `${bundler}, standard decorators`);
    sameMetadata(output, reference, `${bundler}, standard decorators`);
  }
});

const VAGUE_TOOL = `
/** Echoes anything back. */
export const echo = tool(function echo(value: unknown) {
  return String(value);
});
`;

test("a TT error fails every build through the bundler, at the position tspc reports, printed once in the bundler's way", async () => {
  const dir = prepareApp("broken", { "src/tools.ts": (text) => text + BROKEN_TOOL });
  const position = await tspcPosition(dir, "error", "TT1001");
  const [line, column] = /\((\d+),(\d+)\)/.exec(position)!.slice(1).map(Number) as [number, number];
  for (const bundler of BUNDLERS) {
    let printed = "";
    let failure = "";
    try {
      await build(bundler, dir);
    } catch (error) {
      // What the bundler's command line prints of a failed build is the error's message.
      printed = error instanceof Error ? error.message : String(error);
      failure = `${printed}\n${JSON.stringify(error)}`;
    }
    assert.ok(failure, `${bundler}: the build must fail`);
    assert.is(printed.split("TT1001").length - 1, 1, `${bundler}: names TT1001 once: ${printed}`);
    const places =
      printed.match(new RegExp(`tools\\.ts(?:\\(${line},\\d+\\)|:${line}:\\d+| \\(${line}:\\d+\\))`, "g")) ?? [];
    assert.is(places.length, 1, `${bundler}: one position in what it prints: ${printed}`);
    assert.ok(
      !/\[tooltype\]|plugin:? tooltype\][\s\S]*plugin:? tooltype\]/.test(printed),
      `${bundler}: the tooltype prefix once: ${printed}`,
    );
    assert.is(places[0], hostPosition(bundler, line, column), `${bundler}: ${printed}`);
  }
});

/**
 * tspc's 1-based line and column of an error as each bundler prints the place. Vite, Rolldown (tsdown), Rollup and
 * esbuild (tsup) print the plugin's \`loc\` themselves: a 1-based line and a 0-based column (esbuild's in UTF-8
 * bytes, the same here: the line is ASCII). webpack, Rspack and Bun print none, so the text carries tsc's own form,
 * 1-based both.
 */
function hostPosition(bundler: string, line: number, column: number): string {
  switch (bundler) {
    case "rollup":
      return `tools.ts (${line}:${column - 1})`;
    case "vite":
    case "rolldown":
    case "tsdown":
    case "esbuild":
    case "tsup":
      return `tools.ts:${line}:${column - 1}`;
    default:
      return `tools.ts(${line},${column})`;
  }
}

test("a TT warning is each bundler's warning, at the position tspc reports, and the build goes on", async () => {
  const dir = prepareApp("warned", { "src/tools.ts": (text) => text + VAGUE_TOOL });
  const [line, column] = /\((\d+),(\d+)\)/
    .exec(await tspcPosition(dir, "warning", "TT1005"))!
    .slice(1)
    .map(Number) as [number, number];
  for (const bundler of BUNDLERS) {
    const { warnings } = await build(bundler, dir);
    // Rollup's and Rolldown's warnings carry the place in \`loc\` alone: builds.ts writes it after the text, Rollup's
    // way.
    const position =
      bundler === "rolldown" || bundler === "tsdown"
        ? `tools.ts (${line}:${column - 1})`
        : hostPosition(bundler, line, column);
    assert.ok(
      warnings.some((w) => w.includes("TT1005") && w.includes(position)),
      `${bundler}: warns TT1005 at ${position}: ${warnings.join("\n")}`,
    );
  }
});

test("esbuild quotes the source line under each TT error and warning (unplugin hands it none)", async () => {
  const esbuild = await import("esbuild");
  const tooltype = (await import("tooltype/esbuild")) as { default: (options?: { tsconfig?: string }) => never };
  type Message = { text: string; location: { file: string; line: number; column: number; lineText: string } | null };
  const lineOf = (dir: string, message: Message): string =>
    fs.readFileSync(path.join(dir, "src", "tools.ts"), "utf8").split("\n")[message.location!.line - 1]!;
  const options = (dir: string) => ({
    entryPoints: [path.join(dir, "src", "main.ts")],
    bundle: true,
    platform: "node" as const,
    write: false,
    logLevel: "silent" as const,
    plugins: [tooltype.default({ tsconfig: path.join(dir, "tsconfig.json") })],
  });

  const warned = prepareApp("quoted-warning", { "src/tools.ts": (text) => text + VAGUE_TOOL });
  const built = await esbuild.build(options(warned));
  const warning = (built.warnings as Message[]).find((w) => w.text.includes("TT1005"));
  assert.ok(warning?.location, "TT1005 is a warning with a location");
  assert.is(warning.location.lineText, lineOf(warned, warning));
  assert.match(warning.location.lineText, /value: unknown/);

  // Text before the position that is wider in UTF-8 than in UTF-16: esbuild counts columns in bytes.
  const broken = prepareApp("quoted-error", {
    "src/tools.ts": (text) => text + BROKEN_TOOL.replace("export const", "/* café → */ export const"),
  });
  let errors: Message[] = [];
  try {
    await esbuild.build(options(broken));
  } catch (error) {
    errors = (error as { errors: Message[] }).errors;
  }
  const failure = errors.find((e) => e.text.includes("TT1001"));
  assert.ok(failure?.location, "TT1001 fails the build with a location");
  assert.is(failure.location.lineText, lineOf(broken, failure));
  assert.match(
    failure.location.lineText,
    /café → \*\/ export const broken = tool\(function broken\(done: \(\) => void/,
  );
  const line = failure.location.lineText;
  assert.is(
    failure.location.column,
    Buffer.byteLength(line.slice(0, line.indexOf("done"))),
    "the column in UTF-8 bytes",
  );
});

/** Where tspc reports `code` in the app's tools.ts, as `tools.ts(line,column)`. */
async function tspcPosition(dir: string, category: "error" | "warning", code: string): Promise<string> {
  const tspc = await run(process.execPath, [TSPC, ...TSPC_ARGS], dir);
  const found = new RegExp(`src/tools\\.ts\\((\\d+),(\\d+)\\): ${category} TS\\d+: ${code}`).exec(tspc.stdout);
  assert.ok(found, `tspc reports ${code} in tools.ts: ${tspc.stdout}`);
  return `tools.ts(${found[1]},${found[2]})`;
}

/** The bundle's tools carry tspc's metadata (their validators were compared as text above, and ran here). */
function sameMetadata(output: AppOutput, reference: AppOutput, label: string): void {
  assert.equal(
    output.metas.map((m) => m.data),
    reference.metas.map((m) => m.data),
    label,
  );
  assert.ok(
    output.metas.every((m) => m.validator.startsWith("function")),
    `${label}: compiled validators`,
  );
}

/** Each metadata object literal (`{ v: 1, ... }`) in a module's text, as written. */
function metaTexts(code: string): string[] {
  const found: string[] = [];
  for (let start = code.indexOf("{ v: 1, "); start >= 0; start = code.indexOf("{ v: 1, ", start + 1)) {
    let depth = 0;
    let quote = "";
    for (let i = start; i < code.length; i++) {
      const c = code[i]!;
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = "";
      } else if (c === '"' || c === "'" || c === "`") quote = c;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        found.push(code.slice(start, i + 1));
        break;
      }
    }
  }
  return found;
}

test.run();
