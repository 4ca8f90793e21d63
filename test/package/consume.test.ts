/**
 * The published package, consumed as a user would: `npm pack` the built repo, check its entries' types with
 * @arethetypeswrong/cli, install the tarball with typescript and ts-patch into two throwaway projects (CommonJS with
 * module node16, ESM with module nodenext), build each with the installed `tspc` CLI and the `tooltype/transformer`
 * plugin, run the output with node, and check that the exported tools carry the JSDoc descriptions, that dispatch
 * answers an OpenAI-style message, and that the agent loop, stream accumulation and parseToolCalls work with a
 * client written by hand; a build script of each module kind calls the transformer through the compiler API (its
 * default import is the function in both); the same sources run with the installed `tooltype/register` hook, and
 * the installed `tooltype` command prints the same tools. The projects
 * install no provider SDK and no agent framework, and keep skipLibCheck off: the main entry's types and the other
 * providers' formats (Anthropic answers, Gemini declarations, strict mode) must work without them, and the framework
 * entries (`tooltype/ai`, `/langchain`, `/agents`, `/mastra`, `/mcp`) are the only ones that ask for their optional
 * peers.
 *
 * The descriptions prove that tooltype reads JSDoc that tsc did not parse: since TypeScript 5.3, tsc parses a .ts
 * file's JSDoc only where type errors need it, and the transformer parses the comments it reads itself.
 *
 * Installs prefer the npm cache (versions of typescript and ts-patch from this repo's lockfile) and run in parallel;
 * every child process has a timeout, and the temp dirs are removed at the end.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HANG_MS } from "../support/hang";

const repo = path.resolve(__dirname, "../../..");
const INSTALL_TIMEOUT_MS = HANG_MS;
const BUILD_TIMEOUT_MS = HANG_MS;
const RUN_TIMEOUT_MS = HANG_MS;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without a shell; npm's own `npm_*` variables are dropped so a nested npm is not steered by ours. */
function run(file: string, args: string[], cwd: string, timeout: number): Promise<Run> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  env.NO_UPDATE_NOTIFIER = "1";
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      const note = error?.killed ? `\n(killed after ${timeout} ms)` : "";
      resolve({ code, stdout: String(stdout), stderr: String(stderr) + note });
    });
  });
}

function expectOk(step: string, result: Run): Run {
  if (result.code !== 0) {
    throw new Error(`${step} failed (exit ${result.code}):\n${result.stderr}\n${result.stdout}`);
  }
  return result;
}

/** The exact version of a package the repo's lockfile installs. */
function lockedVersion(name: string): string {
  const lock = JSON.parse(fs.readFileSync(path.join(repo, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return version;
}

/** The user's code: a `@tool` method, a `tool()` function, both with JSDoc, and one dispatch of an OpenAI message. */
const SOURCE = `import { parseToolCalls, tool, ToolRegistry, type ChatCompletionsClient, type Int } from "tooltype";
import { accumulateToolCalls, runTools } from "tooltype/loop";

class Greeter {
  /**
   * Greet someone by name.
   * @param name Who to greet
   * @param times How many times to say it
   */
  @tool
  greet(name: string, times: Int = 1): string {
    return Array.from({ length: times }, () => \`Hello, \${name}!\`).join(" ");
  }
}

/**
 * Add two integers.
 * @param a The first addend
 * @param b The second addend
 */
const add = tool(function add(a: Int, b: Int): number {
  return a + b;
});

const three: Int = 3; // Int is a type: plain numbers stay assignable

async function main(): Promise<void> {
  const registry = new ToolRegistry([new Greeter(), add]);
  const messages = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_a", type: "function", function: { name: "greet", arguments: '{"name":"Ada","times":2}' } },
      { id: "call_b", type: "function", function: { name: "add", arguments: JSON.stringify({ a: 2, b: three }) } },
    ],
  });
  // Other providers' formats need none of their SDKs (this project installs none).
  const anthropic = await registry.dispatch({
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_1", name: "add", input: { a: 1, b: 2 } }],
  });
  // The agent loop with a hand-written client: no openai package in this project.
  let turn = 0;
  const client: ChatCompletionsClient = {
    chat: {
      completions: {
        create: async (body) => {
          turn += 1;
          if (turn === 1) {
            return { choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: '{"a":20,"b":22}' } }] } }] };
          }
          const last = body.messages[body.messages.length - 1];
          return { choices: [{ message: { role: "assistant", content: \`sum: \${last && "content" in last ? String(last.content) : "?"}\` } }] };
        },
      },
    },
  };
  const run = await runTools(client, { model: "fake", messages: [{ role: "user", content: "20 + 22?" }] }, registry);
  const acc = accumulateToolCalls();
  acc.push({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "s1", type: "function", function: { name: "add", arguments: '{"a":1,' } }] }, finish_reason: null }] });
  const partial = acc.partial[0]?.args;
  const read = parseToolCalls<{ a: number; b: number }>(registry, acc.done(), { returnId: true });
  const parsed = { calls: read.calls, invalid: read.invalid.map((call) => [call.id, call.reason]) };
  console.log(
    JSON.stringify({
      agent: [run.content, run.steps.length],
      partial,
      parsed,
      tools: registry.toOpenAITools(),
      messages,
      statuses: messages.map((m) => m.status),
      anthropic,
      gemini: registry.toGeminiTools()[0]?.functionDeclarations?.map((d) => d.name),
      strict: registry.toOpenAITools({ strict: true }).map((t) => t.function.strict),
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/**
 * A build script that calls the transformer through the compiler API (docs/building.md "With the compiler API"), as
 * a CommonJS or an ES module file: the default import of `tooltype/transformer` must be the transformer in both.
 * It emits api/tools.ts (a tool) and api/unsupported.ts (a parameter no schema can describe) and prints what it saw.
 */
const API_BUILD = `declare const process: { exitCode?: number };
import * as ts from "typescript";
import tooltype from "tooltype/transformer";

const program = ts.createProgram(["api/tools.ts", "api/unsupported.ts"], {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  strict: true,
  types: [],
});
const diagnostics: ts.Diagnostic[] = [];
const emitted: Record<string, string> = {};
const result = program.emit(undefined, (name, text) => (emitted[name.replace(/^.*\\//, "")] = text), undefined, false, {
  before: [tooltype(program, {}, { ts, addDiagnostic: (d) => diagnostics.push(d) })],
});
console.log(
  JSON.stringify({
    typeErrors: ts.getPreEmitDiagnostics(program).length,
    emitSkipped: result.emitSkipped,
    metadata: /tooltype\\/validator@/.test(emitted["tools.js"] ?? ""),
    description: (emitted["tools.js"] ?? "").includes("Multiply two numbers."),
    tooltype: diagnostics.map((d) => [d.file?.fileName.replace(/^.*\\//, ""), ts.flattenDiagnosticMessageText(d.messageText, "\\n")]),
  }),
);
`;

const API_TOOLS = `import { tool } from "tooltype";

/**
 * Multiply two numbers.
 * @param a The first factor
 * @param b The second factor
 */
export const multiply = tool(function multiply(a: number, b: number): number {
  return a * b;
});
`;

const API_UNSUPPORTED = `import { tool } from "tooltype";

/** Run a callback later. */
export const later = tool(function later(callback: () => void): void {
  setTimeout(callback, 1);
});
`;

interface ProjectKind {
  dir: string;
  type: "commonjs" | "module";
  module: "node16" | "nodenext";
}

function writeProject(root: string, kind: ProjectKind, tarball: string): string {
  const dir = path.join(root, kind.dir);
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  const packageJson = {
    name: `tooltype-consumer-${kind.dir}`,
    version: "1.0.0",
    private: true,
    type: kind.type,
    devDependencies: {
      tooltype: `file:${tarball}`,
      typescript: lockedVersion("typescript"),
      "ts-patch": lockedVersion("ts-patch"),
    },
  };
  // The declared process global keeps the project free of @types/node; the default lib (with DOM) has console.
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: kind.module,
      moduleResolution: kind.module,
      strict: true,
      rootDir: "src",
      outDir: "dist",
      plugins: [{ transform: "tooltype/transformer" }],
    },
    include: ["src"],
  };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(packageJson, null, 2));
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  fs.writeFileSync(path.join(dir, "src", "index.ts"), `declare const process: { exitCode?: number };\n${SOURCE}`);
  fs.writeFileSync(path.join(dir, "src", "api-build.ts"), API_BUILD);
  fs.mkdirSync(path.join(dir, "api"));
  fs.writeFileSync(path.join(dir, "api", "tools.ts"), API_TOOLS);
  fs.writeFileSync(path.join(dir, "api", "unsupported.ts"), API_UNSUPPORTED);
  return dir;
}

interface Output {
  agent: [string, number];
  partial: unknown;
  parsed: unknown;
  tools: { type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
  messages: unknown[];
  statuses: string[];
  anthropic: unknown;
  gemini: string[];
  strict: boolean[];
}

function checkOutput(kind: ProjectKind, output: Output): void {
  const byName = new Map(output.tools.map((t) => [t.function.name, t.function]));
  assert.equal([...byName.keys()].sort(), ["add", "greet"], `${kind.dir}: tool names`);

  const greet = byName.get("greet")!;
  assert.is(greet.description, "Greet someone by name.", `${kind.dir}: greet description from JSDoc`);
  assert.equal(
    greet.parameters,
    {
      type: "object",
      properties: {
        name: { type: "string", description: "Who to greet" },
        times: { type: "integer", description: "How many times to say it", default: 1 },
      },
      required: ["name"],
      additionalProperties: false,
    },
    `${kind.dir}: greet parameters`,
  );

  const add = byName.get("add")!;
  assert.is(add.description, "Add two integers.", `${kind.dir}: add description from JSDoc`);
  assert.equal(
    add.parameters,
    {
      type: "object",
      properties: {
        a: { type: "integer", description: "The first addend" },
        b: { type: "integer", description: "The second addend" },
      },
      required: ["a", "b"],
      additionalProperties: false,
    },
    `${kind.dir}: add parameters`,
  );

  assert.equal(
    output.messages,
    [
      { role: "tool", tool_call_id: "call_a", content: "Hello, Ada! Hello, Ada!" },
      { role: "tool", tool_call_id: "call_b", content: "5" },
    ],
    `${kind.dir}: dispatch results`,
  );
  assert.equal(output.statuses, ["success", "success"], `${kind.dir}: statuses`);
  assert.equal(
    output.anthropic,
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "3" }] },
    `${kind.dir}: Anthropic answer without the Anthropic SDK`,
  );
  assert.equal(output.gemini, ["greet", "add"], `${kind.dir}: Gemini declarations without the Gemini SDK`);
  assert.equal(output.strict, [true, true], `${kind.dir}: strict export`);
  assert.equal(output.agent, ["sum: 42", 2], `${kind.dir}: runTools with a client written by hand`);
  assert.equal(output.partial, { a: 1 }, `${kind.dir}: partial arguments`);
  assert.equal(output.parsed, { calls: [], invalid: [["s1", "malformed_arguments"]] }, `${kind.dir}: parseToolCalls`);
}

/**
 * Type-checks imports of every subpath in the installed package's `exports` (plus the main entry) under each
 * `moduleResolution`: node10 (`node`, what `"module": "commonjs"` picks; it reads `typesVersions`, not `exports`),
 * node16, nodenext and bundler. An entry that does not resolve is TS2307 in the importing file.
 */
async function checkResolution(dir: string): Promise<void> {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "tooltype", "package.json"), "utf8")) as {
    exports: Record<string, unknown>;
  };
  const subpaths = Object.keys(manifest.exports).filter((key) => key !== "." && key !== "./package.json");
  assert.ok(subpaths.includes("./mcp") && subpaths.includes("./transformer"), `exports: ${subpaths.join(", ")}`);
  const specifiers = ["tooltype", ...subpaths.map((key) => `tooltype/${key.slice(2)}`)];
  // Entries published only as ES modules (the bundler plugins: unplugin ships ESM only) are imported from an ES
  // module under node16/nodenext, where a CommonJS file cannot import them; every other entry from both kinds.
  const esmOnly = new Set(
    subpaths.filter((key) => esmOnlyEntry(manifest.exports[key])).map((key) => `tooltype/${key.slice(2)}`),
  );
  const entries = (list: string[]): string =>
    list.map((specifier, i) => `import type * as entry${i} from "${specifier}";`).join("\n") +
    `\nexport type Entries = [${list.map((_, i) => `keyof typeof entry${i}`).join(", ")}];\n`;
  fs.mkdirSync(path.join(dir, "resolution"), { recursive: true });
  fs.writeFileSync(path.join(dir, "resolution", "entries.ts"), entries(specifiers));
  fs.writeFileSync(path.join(dir, "resolution", "entries-cjs.cts"), entries(specifiers.filter((s) => !esmOnly.has(s))));
  fs.writeFileSync(path.join(dir, "resolution", "entries-esm.mts"), entries(specifiers));
  const settings: Record<string, { module: string; moduleResolution: string; files: string[] }> = {
    node10: { module: "commonjs", moduleResolution: "node10", files: ["resolution/entries.ts"] },
    node16: {
      module: "node16",
      moduleResolution: "node16",
      files: ["resolution/entries-cjs.cts", "resolution/entries-esm.mts"],
    },
    nodenext: {
      module: "nodenext",
      moduleResolution: "nodenext",
      files: ["resolution/entries-cjs.cts", "resolution/entries-esm.mts"],
    },
    bundler: { module: "esnext", moduleResolution: "bundler", files: ["resolution/entries.ts"] },
  };
  const tsc = path.join(dir, "node_modules", ".bin", process.platform === "win32" ? "tsc.cmd" : "tsc");
  const results = await Promise.all(
    Object.entries(settings).map(async ([name, { files, ...options }]) => {
      const config = `tsconfig.${name}.json`;
      const compilerOptions = {
        ...options,
        target: "ES2022",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      };
      fs.writeFileSync(path.join(dir, config), JSON.stringify({ compilerOptions, files }));
      return [name, await run(tsc, ["-p", config], dir, BUILD_TIMEOUT_MS)] as const;
    }),
  );
  for (const [name, result] of results)
    expectOk(`tsc with moduleResolution ${name} (${specifiers.join(", ")})`, result);
}

/**
 * Every source map of the installed package carries the sources it names (`sourcesContent`), or names files the
 * package holds: a stack trace through `--enable-source-maps` or a debugger then shows tooltype's TypeScript, not a
 * `../../../runtime/...ts` path that exists only in the repository.
 */
function checkSourceMaps(installed: string): void {
  const maps = (fs.readdirSync(path.join(installed, "dist"), { recursive: true }) as string[]).filter((f) =>
    f.endsWith(".map"),
  );
  assert.ok(maps.length > 0, "the package ships source maps");
  const unreadable: string[] = [];
  for (const name of maps) {
    const file = path.join(installed, "dist", name);
    const map = JSON.parse(fs.readFileSync(file, "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
    map.sources.forEach((source, i) => {
      const content = map.sourcesContent?.[i];
      if (typeof content !== "string" && !fs.existsSync(path.resolve(path.dirname(file), source)))
        unreadable.push(`${name}: ${source}`);
    });
  }
  assert.equal(
    unreadable.slice(0, 5),
    [],
    `${unreadable.length} of the sources the package's maps name are neither embedded nor shipped`,
  );
}

/** An `exports` entry whose every target is an ES module file (`.mjs`). */
function esmOnlyEntry(entry: unknown): boolean {
  const targets: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") targets.push(value);
    else if (value && typeof value === "object")
      for (const [key, inner] of Object.entries(value)) if (key !== "types") walk(inner);
  };
  walk(entry);
  return targets.length > 0 && targets.every((target) => target.endsWith(".mjs"));
}

/** A finding of @arethetypeswrong/cli: by entry and resolution, or by file. */
interface AttwProblem {
  kind: string;
  entrypoint?: string;
  resolutionKind?: string;
  fileName?: string;
}

/**
 * What @arethetypeswrong/cli finds in the tarball, for every entry under node10, node16 (from CommonJS and from an
 * ES module) and bundler resolution: wrong module kinds in the types, a default export that Node's ES module loader
 * would not see, named exports its CommonJS reading would miss. Two findings are by design and stay: the bundler
 * plugins are ES modules only (unplugin ships ESM only; a CommonJS config requires them on Node 20.19 and later, as
 * docs/building.md says), and `tooltype/turbopack` is a loader that Turbopack loads by name and reads `.default` of.
 */
async function checkTypesShape(tarball: string): Promise<void> {
  const attw = path.join(repo, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
  // Into a file: attw exits (1 when it finds anything) before a pipe has taken all of its JSON.
  const report = `${tarball}.attw.json`;
  const out = fs.openSync(report, "w");
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [attw, tarball, "--format", "json", "--no-definitely-typed"], {
      cwd: repo,
      stdio: ["ignore", out, "inherit"],
      timeout: BUILD_TIMEOUT_MS,
    });
    child.on("error", () => resolve(-1));
    child.on("close", (status) => resolve(status ?? -1));
  });
  fs.closeSync(out);
  const text = fs.readFileSync(report, "utf8");
  if (!text.trim().startsWith("{")) throw new Error(`attw failed (exit ${code}):\n${text}`);
  const { analysis } = JSON.parse(text) as {
    analysis: { entrypoints: Record<string, unknown>; problems: AttwProblem[] };
  };
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as {
    exports: Record<string, unknown>;
  };
  assert.equal(
    Object.keys(analysis.entrypoints).sort(),
    Object.keys(manifest.exports).sort(),
    "attw read every entry of exports",
  );
  const byDesign = (problem: AttwProblem): boolean =>
    (problem.kind === "CJSResolvesToESM" &&
      problem.resolutionKind === "node16-cjs" &&
      esmOnlyEntry(manifest.exports[problem.entrypoint ?? ""])) ||
    (problem.kind === "CJSOnlyExportsDefault" &&
      problem.fileName === "/node_modules/tooltype/dist/transformer/hosts/bundlers/turbopack.js");
  assert.equal(
    analysis.problems.filter((problem) => !byDesign(problem)),
    [],
    "@arethetypeswrong/cli finds nothing else in the package",
  );
}

test("the packed tarball installs, builds with tspc and runs in a CommonJS and an ESM project", async () => {
  assert.ok(
    fs.existsSync(path.join(repo, "dist/runtime/entries/index.js")) &&
      fs.existsSync(path.join(repo, "dist/transformer/index.js")),
    "dist/ is not built: run `npm run build` first (npm test does)",
  );
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-package-"));
  try {
    // 1. Pack exactly what npm would publish.
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const packed = expectOk(
      "npm pack",
      await run(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", root], repo, INSTALL_TIMEOUT_MS),
    );
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const files = info.files.map((f) => f.path);
    for (const required of [
      "package.json",
      "dist/runtime/entries/index.js",
      "dist/runtime/entries/index.node.js",
      "dist/runtime/entries/index.d.ts",
      "dist/runtime/entries/kit.node.js",
      "dist/runtime/entries/mcp.js",
      "dist/runtime/entries/mcp.d.ts",
      "dist/runtime/entries/mcp.mjs",
      "dist/runtime/entries/mcp.d.mts",
      "dist/runtime/mcp/client.js",
      "dist/runtime/adapters/ai.js",
      "dist/runtime/adapters/langchain.js",
      "dist/runtime/adapters/langchain.mjs",
      "dist/runtime/adapters/agents.js",
      "dist/runtime/adapters/mastra.js",
      "dist/transformer/index.js",
      "dist/esm/runtime/entries/index.js",
      "dist/esm/runtime/lazy/ajv.bundle.js",
      "dist/runtime/lazy/ajv.node.js",
      "dist/runtime/entries/ajv.js",
      "docs/building.md",
      // The MIT licence's text: its notice must travel with every copy.
      "LICENSE",
    ]) {
      assert.ok(files.includes(required), `the tarball lacks ${required}`);
    }
    const strays = files.filter(
      (f) =>
        !/^(package\.json|README\.md|LICENSE[^/]*|docs\/[^/]+\.md|dist\/(runtime|transformer|esm\/runtime)\/.*)$/.test(
          f,
        ),
    );
    assert.equal(
      strays,
      [],
      "the tarball holds only package.json, README, LICENSE, the guides in docs/ and dist/{runtime,transformer,esm/runtime}",
    );
    const tarball = path.join(root, info.filename);
    await checkTypesShape(tarball);

    const kinds: ProjectKind[] = [
      { dir: "cjs", type: "commonjs", module: "node16" },
      { dir: "esm", type: "module", module: "nodenext" },
    ];
    const dirs = kinds.map((kind) => writeProject(root, kind, tarball));

    // 2. Install both projects at once, from the npm cache where it has the packages.
    const installs = await Promise.all(
      dirs.map((dir) =>
        run(
          npm,
          ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
          dir,
          INSTALL_TIMEOUT_MS,
        ),
      ),
    );
    installs.forEach((result, i) => {
      expectOk(`npm install (${kinds[i].dir})`, result);
    });
    // Optional peers stay out: the main entry runs below with none of the frameworks and SDKs installed.
    for (const dir of dirs) {
      for (const peer of [
        "ai",
        "@langchain/core",
        "@openai/agents",
        "@mastra/core",
        "@modelcontextprotocol/sdk",
        "openai",
        "@anthropic-ai/sdk",
      ]) {
        assert.not.ok(fs.existsSync(path.join(dir, "node_modules", peer)), `${peer} was installed with tooltype`);
      }
    }

    checkSourceMaps(path.join(dirs[0]!, "node_modules", "tooltype"));

    // 3. Build with the installed tspc, exactly as a user would; then run.
    for (const [i, kind] of kinds.entries()) {
      const dir = dirs[i];
      const tspc = path.join(dir, "node_modules", ".bin", process.platform === "win32" ? "tspc.cmd" : "tspc");
      expectOk(`tspc -p . (${kind.dir})`, await run(tspc, ["-p", "."], dir, BUILD_TIMEOUT_MS));

      const emitted = fs.readFileSync(path.join(dir, "dist", "index.js"), "utf8");
      if (kind.type === "commonjs") assert.match(emitted, /require\("tooltype"\)/, "cjs: emitted as CommonJS");
      else assert.match(emitted, /from "tooltype"/, "esm: emitted as an ES module");

      const result = expectOk(
        `node dist/index.js (${kind.dir})`,
        await run(process.execPath, ["dist/index.js"], dir, RUN_TIMEOUT_MS),
      );
      const output = JSON.parse(result.stdout) as Output;
      checkOutput(kind, output);

      // The compiler API from a build script of the project's own module kind.
      const api = JSON.parse(
        expectOk(
          `node dist/api-build.js (${kind.dir})`,
          await run(process.execPath, ["dist/api-build.js"], dir, RUN_TIMEOUT_MS),
        ).stdout,
      ) as {
        typeErrors: number;
        emitSkipped: boolean;
        metadata: boolean;
        description: boolean;
        tooltype: [string, string][];
      };
      assert.equal(
        [api.typeErrors, api.emitSkipped, api.metadata, api.description],
        [0, false, true, true],
        `${kind.dir}: the compiler API emits the tool's metadata`,
      );
      assert.equal(
        api.tooltype.map(([file]) => file),
        ["unsupported.ts"],
        `${kind.dir}: one TT diagnostic, through addDiagnostic`,
      );
      assert.match(api.tooltype[0]![1], /callback/, `${kind.dir}: the diagnostic names the parameter`);

      // The same sources without a build: the installed register hook; and the installed `tooltype` command.
      const [hooked, schema] = await Promise.all([
        run(process.execPath, ["--import", "tooltype/register", "src/index.ts"], dir, RUN_TIMEOUT_MS),
        run(path.join(dir, "node_modules", ".bin", "tooltype"), ["schema", "--format", "openai"], dir, RUN_TIMEOUT_MS),
      ]);
      checkOutput(kind, JSON.parse(expectOk(`node --import tooltype/register (${kind.dir})`, hooked).stdout) as Output);
      const byName = (tools: Output["tools"]) =>
        [...tools].sort((a, b) => a.function.name.localeCompare(b.function.name));
      assert.equal(
        byName(JSON.parse(expectOk(`tooltype schema (${kind.dir})`, schema).stdout) as Output["tools"]),
        byName(output.tools),
        `${kind.dir}: the tooltype command prints what the registry exports`,
      );

      // A framework entry without its framework says which package is missing.
      const missing = await run(process.execPath, ["-e", 'require("tooltype/langchain")'], dir, RUN_TIMEOUT_MS);
      assert.is(missing.code, 1, `${kind.dir}: tooltype/langchain loads without @langchain/core`);
      assert.match(missing.stderr, /Cannot find module '@langchain\/core/);
    }

    // 4. Every entry the package exports resolves, with its types, under every moduleResolution a user can have.
    await checkResolution(dirs[0]!);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test.run();
