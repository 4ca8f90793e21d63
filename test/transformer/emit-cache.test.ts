/**
 * The schema cache inside the compiler's emit (hosts/project/cache/emit-cache.ts), through the compiler API as tspc's
 * plugin runs it: a second emit of an unchanged project takes every file from the cache and reports the same
 * diagnostics, in the same order, and writes the same output; the strictNullChecks warning, once per program at its
 * first tool, stays once when the first tool moves to a file read again while a later one comes from the cache; the
 * plugin entry's `cacheDir` places the cache (else `TOOLTYPE_CACHE_DIR`) and its `cache: false` turns it off.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { emitCacheCounts } from "../../transformer/hosts/project/cache/emit-cache";
import tooltype from "../../transformer/hosts/tspc/plugin";

const root = path.resolve(__dirname, "../../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-emit-cache-"));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

const B = `import { tool } from "tooltype";

/**
 * Store a value.
 * @param key Where to store it
 * @param value Anything
 */
export const store = tool(function store(key: string, value: unknown) {
  return key + JSON.stringify(value);
});
`;

const A_WITH_TOOL = `import { tool } from "tooltype";

/**
 * Greet someone.
 * @param name Who to greet
 */
export const greet = tool(function greet(name: string | null) {
  return "hello " + name;
});
`;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
}

/** The plugin entry's cache settings: its `cacheDir` (the default), none (the environment's), or `cache: false`. */
type Setting = "cacheDir" | "environment" | "off";

function tsconfig(setting: Setting): string {
  const entry = {
    transform: "tooltype/transformer",
    ...(setting === "cacheDir" ? { cacheDir: "cache" } : {}),
    ...(setting === "off" ? { cache: false } : {}),
  };
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "node16",
      strict: false,
      skipLibCheck: true,
      types: [],
      lib: ["ES2022"],
      declaration: true,
      outDir: "out",
      rootDir: "src",
      plugins: [entry],
    },
    include: ["src"],
  });
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCurrentDirectory: () => dir,
  getNewLine: () => "\n",
  getCanonicalFileName: (name) => name,
};

/** One emit of the project through tspc's plugin: what it wrote, its TT diagnostics as tsc prints them, the counts. */
function build(setting: Setting = "cacheDir"): {
  out: Record<string, string>;
  diagnostics: string;
  hits: number;
  misses: number;
} {
  write("tsconfig.json", tsconfig(setting));
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(dir, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) =>
        assert.unreachable(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    },
  );
  assert.ok(parsed);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const config = (parsed.options.plugins as unknown as Record<string, unknown>[])[0]!;
  const found: ts.Diagnostic[] = [];
  const out: Record<string, string> = {};
  const before = emitCacheCounts();
  program.emit(undefined, (name, text) => void (out[path.relative(dir, name)] = text), undefined, false, {
    before: [tooltype(program, config, { ts, addDiagnostic: (d) => void found.push(d) })],
  });
  const after = emitCacheCounts();
  return {
    out,
    diagnostics: ts.formatDiagnostics(found, formatHost),
    hits: after.hits - before.hits,
    misses: after.misses - before.misses,
  };
}

test("a warm emit takes every file from the cache and reports and writes what the first did", () => {
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(path.join(root, ".test-build"), path.join(dir, "node_modules", "tooltype"), "dir");
  write("src/a.ts", "export const a = 1;\n");
  write("src/b.ts", B);

  const cold = build();
  assert.is(cold.misses, 2, "both files read");
  assert.ok(
    fs.readdirSync(path.join(dir, "cache")).some((f) => f.startsWith("emit-")),
    "in the cacheDir given",
  );
  assert.match(cold.diagnostics, /src\/b\.ts\(\d+,\d+\): warning TS\d+: TT\d+: strictNullChecks is off/);
  assert.match(cold.diagnostics, /"value".*typed unknown/);
  assert.ok(cold.out["out/b.js"]?.includes("Where to store it"));
  assert.ok(cold.out["out/b.d.ts"]);

  const warm = build();
  assert.is(warm.misses, 0, "no file read");
  assert.is(warm.hits, 2);
  assert.is(warm.diagnostics, cold.diagnostics, "the same diagnostics, in the same order");
  assert.equal(warm.out, cold.out, "the same output");

  const uncached = build("off");
  assert.is(uncached.hits + uncached.misses, 0, "cache: false in the plugin entry: the cache is not asked");
  assert.is(uncached.diagnostics, cold.diagnostics);
  assert.equal(uncached.out, cold.out);

  // Without cacheDir in the entry, TOOLTYPE_CACHE_DIR places it (relative to the tsconfig's folder).
  const before = process.env.TOOLTYPE_CACHE_DIR;
  process.env.TOOLTYPE_CACHE_DIR = "elsewhere";
  try {
    const placed = build("environment");
    assert.is(placed.misses, 2, "another setup, another place: read again");
    assert.ok(fs.readdirSync(path.join(dir, "elsewhere")).some((f) => f.startsWith("emit-")));
    assert.equal(placed.out, cold.out);
  } finally {
    if (before === undefined) delete process.env.TOOLTYPE_CACHE_DIR;
    else process.env.TOOLTYPE_CACHE_DIR = before;
  }
});

test("the strictNullChecks warning stays once per program when its first tool moves to a file read again", () => {
  write("src/a.ts", A_WITH_TOOL);
  const edited = build();
  assert.is(edited.misses, 1, "a.ts read again");
  assert.is(edited.hits, 1, "b.ts from the cache, its own first-tool warning not reported");
  const uncached = build("off");
  assert.is(edited.diagnostics, uncached.diagnostics, "as a build without the cache reports them");
  assert.is(edited.diagnostics.match(/strictNullChecks is off/g)?.length, 1, edited.diagnostics);
  assert.match(edited.diagnostics, /src\/a\.ts\(\d+,\d+\): warning TS\d+: TT\d+: strictNullChecks is off/);
  assert.equal(edited.out, uncached.out);
});

test.run();
