/**
 * The `tooltype` CLI as installed (node on the package's bin), on throwaway projects: `check` prints
 * diagnostics like tsc and sets the exit status by errors only; `schema` prints each format from the runtime's own
 * export functions (checked against a registry of the same tools built with the real transformer, and by validating
 * instances); bad paths, a project without tools and usage mistakes are clear messages.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Ajv2020 from "ajv/dist/2020";
import * as fs from "node:fs";
import * as path from "node:path";
import * as nodeModule from "node:module";
import * as os from "node:os";
import { HANG_MS } from "../support/hang";
import { runUnderNode } from "../support/other-node";
import { bin, makeProject, node, readmeCommands, repo, runCommand, tooltype, writeFiles } from "./project";

const TSCONFIG = `{ "compilerOptions": { "target": "ES2022", "module": "node16", "strict": true, "noEmit": true, "skipLibCheck": true, "types": [], "plugins": [{ "transform": "tooltype/transformer" }] }, "include": ["src"] }`;

const TOOLS = `import { tool, type Int } from "tooltype";
import type { Filter } from "./types";

/**
 * Search the catalog.
 * @param keyword What to look for
 * @param limit How many results
 */
export const search = tool(function search_products(keyword: string, filter: Filter, limit: Int = 10) {
  return [keyword, filter, limit];
});

/** Say hello. */
export const hello = tool((name: string) => \`hi \${name}\`);
`;

const TYPES = `export interface Filter {
  /** Lowest price */
  minPrice?: number;
  color: "red" | "blue";
}
`;

function project(files: Record<string, string> = {}): string {
  return makeProject("cli", {
    "package.json": "{}",
    "tsconfig.json": TSCONFIG,
    "src/tools.ts": TOOLS,
    "src/types.ts": TYPES,
    ...files,
  });
}

test("check: errors and warnings printed like tsc, exit 1 on an error, 0 on warnings only", async () => {
  const dir = project({
    "src/bad.ts": `import { tool } from "tooltype";\n/** Bad. */\nexport const bad = tool(function bad(cb: () => void, x: unknown) { return 1; });\n`,
  });
  const failing = await tooltype(["check"], dir);
  assert.is(failing.code, 1, failing.stderr);
  assert.match(failing.stdout, /^src\/bad\.ts:3:38 - error TT1001: parameter "cb" has type a function/m);
  assert.match(failing.stdout, /^src\/bad\.ts:3:54 - warning TT1005: parameter "x" is typed unknown/m);
  assert.match(failing.stdout, "Found 1 error(s) and 1 warning(s) in 1 file(s); 3 tool(s) checked.");

  writeFiles(dir, {
    "src/bad.ts": `import { tool } from "tooltype";\n/** Bad. */\nexport const bad = tool(function bad(x: unknown) { return 1; });\n`,
  });
  const warning = await tooltype(["check", "-p", "tsconfig.json"], dir);
  assert.is(warning.code, 0, warning.stdout);
  assert.match(warning.stdout, /^src\/bad\.ts:3:38 - warning TT1005/m);

  writeFiles(dir, { "src/bad.ts": "export {};\n" });
  const clean = await tooltype(["check", "-p", dir], "/");
  assert.is(clean.code, 0, clean.stdout);
  assert.is(clean.stdout, "2 tool(s) checked, no problems.\n");
});

test("schema: json, openai (and --strict), anthropic, gemini, mcp: the registry's own exports", async () => {
  const dir = project();
  const formats = ["json", "openai", "anthropic", "gemini", "mcp"] as const;
  const [strict, ...runs] = await Promise.all([
    tooltype(["schema", "--format", "openai", "--strict"], dir),
    ...formats.map((f) => tooltype(["schema", "--format", f], dir)),
  ]);
  const out: Record<string, unknown[]> = {};
  formats.forEach((f, i) => {
    assert.is(runs[i]!.code, 0, `${f}: ${runs[i]!.stderr}`);
    out[f] = JSON.parse(runs[i]!.stdout) as unknown[];
  });
  const json = out.json as { name: string; description: string; parameters: Record<string, unknown> }[];
  assert.equal(
    json.map((t) => t.name),
    ["search_products", "hello"],
  );
  assert.is(json[0]!.description, "Search the catalog.");
  const params = json[0]!.parameters;
  // Behaviour of the schema: what should pass passes, the rest fails.
  const validate = new Ajv2020({ strict: false }).compile(params);
  assert.ok(validate({ keyword: "lamp", filter: { color: "red", minPrice: 3 } }));
  assert.ok(validate({ keyword: "lamp", filter: { color: "blue" }, limit: 2 }));
  assert.not.ok(validate({ keyword: "lamp", filter: { color: "green" } }));
  assert.not.ok(validate({ keyword: "lamp", filter: { color: "red" }, limit: 1.5 }));
  assert.not.ok(validate({ keyword: "lamp" }));

  const openai = out.openai as { type: string; function: { name: string; parameters: unknown; strict?: boolean } }[];
  assert.equal(openai[0], {
    type: "function",
    function: { name: "search_products", description: "Search the catalog.", parameters: params },
  });
  const anthropic = out.anthropic as { name: string; input_schema: unknown }[];
  assert.equal(anthropic[0], { name: "search_products", description: "Search the catalog.", input_schema: params });
  const gemini = out.gemini as { functionDeclarations: { name: string }[] }[];
  assert.equal(
    gemini[0]!.functionDeclarations.map((d) => d.name),
    ["search_products", "hello"],
  );
  const mcp = out.mcp as { name: string; inputSchema: unknown }[];
  assert.equal(
    mcp.map((t) => t.name),
    ["search_products", "hello"],
  );

  assert.is(strict.code, 0, strict.stderr);
  const strictTool = (JSON.parse(strict.stdout) as typeof openai)[0]!.function as {
    strict: boolean;
    parameters: { required: string[] };
  };
  assert.is(strictTool.strict, true);
  assert.equal(
    strictTool.parameters.required.sort(),
    ["filter", "keyword", "limit"],
    "strict mode requires every property",
  );
});

test("the commands of docs/building.md run as written", async () => {
  const dir = project();
  const commands = readmeCommands("cli");
  const results = await Promise.all(commands.map((c) => runCommand(c, dir)));
  results.forEach((r, i) => {
    assert.is(r.code, 0, `${commands[i]!.join(" ")}: ${r.stderr}${r.stdout}`);
    if (commands[i]!.includes("schema")) assert.ok(Array.isArray(JSON.parse(r.stdout)), "prints a JSON array of tools");
  });
});

test("build on a JavaScript-API compiler (5.9): what tspc writes, silent when clean; TypeScript's errors print and the output is written (status 2, as tsc's); a TT error writes nothing (status 1)", async () => {
  const emitting = TSCONFIG.replace(
    '"noEmit": true',
    '"outDir": "dist", "rootDir": "src", "declaration": true, "sourceMap": true',
  );
  const dir = project({ "tsconfig.json": emitting });
  const built = await tooltype(["build"], dir);
  assert.is(built.code, 0, built.stderr + built.stdout);
  assert.is(built.stdout + built.stderr, "", "a clean build prints nothing");
  const outputs = ["tools.js", "tools.js.map", "tools.d.ts", "types.js", "types.d.ts"];
  const ours = outputs.map((f) => fs.readFileSync(path.join(dir, "dist", f), "utf8"));
  fs.rmSync(path.join(dir, "dist"), { recursive: true });
  const tspc = await node([bin("tspc"), "-p", "."], dir);
  assert.is(tspc.code, 0, tspc.stdout);
  assert.equal(
    ours,
    outputs.map((f) => fs.readFileSync(path.join(dir, "dist", f), "utf8")),
    "byte for byte what tspc writes",
  );
  fs.rmSync(path.join(dir, "dist"), { recursive: true });

  writeFiles(dir, { "src/typo.ts": "export const n: number = 'one';\n" });
  const typeError = await tooltype(["build"], dir);
  assert.is(typeError.code, 2, "tsc's status for errors with the output written");
  assert.match(typeError.stdout, /^src\/typo\.ts:1:14 - error TS2322: /m);
  assert.match(typeError.stdout, /^Found 1 error\(s\) in 1 file\(s\)\.$/m);
  assert.ok(fs.existsSync(path.join(dir, "dist", "typo.js")), "like tsc, the output is written all the same");
  fs.rmSync(path.join(dir, "dist"), { recursive: true });

  writeFiles(dir, {
    "src/typo.ts": "export {};\n",
    "src/bad.ts": `import { tool } from "tooltype";\n/** Bad. */\nexport const bad = tool(function bad(cb: () => void) { return 1; });\n`,
  });
  const ttError = await tooltype(["build"], dir);
  assert.is(ttError.code, 1);
  assert.match(ttError.stdout, /error TT1001/);
  assert.match(ttError.stdout, /nothing written/);
  assert.not.ok(fs.existsSync(path.join(dir, "dist")), "nothing written");
});

test("build on TypeScript 7.0: a TT error, a TypeScript error and a TT warning of one file print together, in one format, in the order of the source", async () => {
  // Outside the repository, whose node_modules hold a JavaScript-API compiler the project would use instead.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-cli-ts7-"));
  try {
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(repo, path.join(dir, "node_modules", "tooltype"), "dir");
    fs.symlinkSync(
      path.join(repo, "node_modules", "typescript-7"),
      path.join(dir, "node_modules", "typescript"),
      "dir",
    );
    writeFiles(dir, {
      "package.json": "{}",
      "tsconfig.json": `{ "compilerOptions": { "target": "ES2022", "module": "nodenext", "strict": true, "types": [], "outDir": "dist", "rootDir": "src" }, "include": ["src"] }`,
      "src/tools.ts": [
        'import { tool } from "tooltype";',
        "",
        "/** A number. */",
        'export const n: number = "one";',
        "/** Takes anything. */",
        "export const loose = tool(function loose(x: unknown) { return 1; });",
        "/** Takes a callback. */",
        "export const bad = tool(function bad(cb: () => void) { return 1; });",
        "",
      ].join("\n"),
    });
    const built = await tooltype(["build"], dir);
    assert.is(built.code, 1, built.stdout + built.stderr);
    const lines = built.stdout.split("\n").filter((line) => /^src\//.test(line));
    assert.equal(
      lines.map((line) => /^(src\/tools\.ts:\d+:\d+ - (?:error|warning) T[ST]\d+):/.exec(line)?.[1]),
      ["src/tools.ts:4:14 - error TS2322", "src/tools.ts:6:42 - warning TT1005", "src/tools.ts:8:38 - error TT1001"],
      built.stdout,
    );
    assert.not.match(built.stdout, /\(\d+,\d+\)/, "one format");
    assert.match(
      built.stdout,
      /Found 2 error\(s\) and 1 warning\(s\) in 1 file\(s\), 1 of the errors tooltype's: nothing written/,
    );
    assert.not.ok(fs.existsSync(path.join(dir, "dist")), "nothing written");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("clear messages: bad tsconfig path, no tools, TT errors, usage mistakes, --help", async () => {
  const dir = project();
  const noTools = makeProject("cli-empty", {
    "package.json": "{}",
    "tsconfig.json": TSCONFIG,
    "src/a.ts": "export const a = 1;\n",
  });
  const [missing, empty, emptyCheck, usage, strictJson, help, version] = await Promise.all([
    tooltype(["schema", "-p", "nope/tsconfig.json"], dir),
    tooltype(["schema"], noTools),
    tooltype(["check"], noTools),
    tooltype(["lint"], dir),
    tooltype(["schema", "--strict"], dir),
    tooltype(["--help"], dir),
    tooltype(["--version"], dir),
  ]);
  assert.is(missing.code, 2);
  assert.match(
    missing.stderr,
    /^tooltype: Cannot find .*nope\/tsconfig\.json\. Pass the path of the project's tsconfig \(or its folder\) with -p\./,
  );
  assert.is(empty.code, 1);
  assert.match(
    empty.stderr,
    /^No tools in .*tsconfig\.json \(1 source file\(s\) read\)\. tooltype looks for `tool\(\.\.\.\)` calls/,
  );
  assert.is(emptyCheck.code, 0, "no tools is not an error for check");
  assert.match(emptyCheck.stderr, /^No tools in /);
  assert.is(usage.code, 2);
  assert.match(usage.stderr, "tooltype: Unknown command lint: use check, schema or build.");
  assert.is(strictJson.code, 2);
  assert.match(strictJson.stderr, "--strict rewrites schemas for OpenAI: use it with --format openai.");
  assert.is(help.code, 0);
  assert.match(help.stdout, "tooltype schema [-p <tsconfig>] [--format json|openai|anthropic|gemini|mcp] [--strict]");
  assert.is(version.code, 0);
  assert.is(
    version.stdout,
    `${(JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string }).version}\n`,
  );
  assert.is(version.stderr, "");

  writeFiles(dir, { "src/types.ts": TYPES.replace('color: "red" | "blue";', "color: Map<string, string>;") });
  const broken = await tooltype(["schema"], dir);
  assert.is(broken.code, 1);
  assert.is(broken.stdout, "", "no schema is printed for tools with errors");
  // At the property two files away, with the tool's parameter as a related location below it.
  assert.match(
    broken.stderr,
    /^src\/types\.ts:4:3 - error TT1001: "filter\.color" \(in parameter "filter" of tool "search_products"\) has type Map.*\n {4}src\/tools\.ts:9:\d+ - Used by parameter "filter"/m,
  );
  assert.match(broken.stderr, "no schema printed (a tool with an error has no correct schema)");
});

test("the command loads through Node's compile cache where Node has one (22.1 and later), which NODE_DISABLE_COMPILE_CACHE turns off; Node 20 runs it as before", async () => {
  const dir = project();
  const cli = path.join(repo, "dist", "transformer", "hosts", "cli", "main.js");
  const temp = (name: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `tooltype-compile-cache-${name}-`));
  const cached = (tmp: string): string[] => {
    const root = path.join(tmp, "node-compile-cache");
    return fs.existsSync(root)
      ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile())
      : [];
  };
  // The cache's folder is the temporary folder's node-compile-cache unless NODE_COMPILE_CACHE names another.
  const [on22, off22] = [temp("on22"), temp("off22")];
  const [withCache, disabled] = await Promise.all([
    runUnderNode(22, [cli, "check", "-p", dir], HANG_MS, { TMPDIR: on22, NODE_COMPILE_CACHE: undefined }),
    runUnderNode(22, [cli, "check", "-p", dir], HANG_MS, {
      TMPDIR: off22,
      NODE_COMPILE_CACHE: undefined,
      NODE_DISABLE_COMPILE_CACHE: "1",
    }),
  ]);
  for (const r of [withCache, disabled]) {
    assert.is(r.code, 0, r.output);
    assert.match(r.output, "2 tool(s) checked, no problems.");
  }
  // tooltype's modules and the compiler's: the cache holds an entry per module loaded after the command started.
  assert.ok(
    cached(on22).length >= 10,
    `Node 22 cached ${cached(on22).length} module(s) in ${on22}:\n${cached(on22).join("\n")}`,
  );
  assert.equal(cached(off22), [], "NODE_DISABLE_COMPILE_CACHE=1 is honoured");

  const on20 = temp("on20");
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: on20 };
  delete env.NODE_COMPILE_CACHE;
  const plain = await node([cli, "check", "-p", dir], dir, undefined, env);
  assert.is(plain.code, 0, plain.stderr);
  assert.is(`${plain.stdout}${plain.stderr}`, "2 tool(s) checked, no problems.\n");
  if (!("enableCompileCache" in nodeModule))
    assert.equal(cached(on20), [], `Node ${process.version} has no compile cache`);
  for (const tmp of [on22, off22, on20]) fs.rmSync(tmp, { recursive: true, force: true });
});

test.run();
