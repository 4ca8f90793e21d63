/**
 * `node --import tooltype/register`, as a user runs it: an ES module project (bundler-style resolution, standard
 * decorators, extensionless imports) and a CommonJS one (experimentalDecorators, `require` of .ts), each with a
 * tool whose parameter type sits two imports away (a barrel re-exporting an interface that extends one from another
 * file). Each run dispatches a valid and an invalid call; the schema equals what `tooltype schema` and a `tspc`
 * build produce for the same sources. Also: tsx with the hook (the commands docs/building.md gives) and without it (the
 * error names the cause and the commands), stack traces through the inline source map, a TT error stopping the run, and
 * no deprecation warning from Node (test/hosts/node-lines/ runs this file under Node 22 and 26).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as path from "node:path";
import { bin, makeProject, node, readmeCommands, repo, run, runCommand, tooltype, writeFiles } from "./project";
import { APP, checkBehaviour, LIB, output, tools } from "./sample";
import { syncHooksWork } from "../../transformer/hosts/node/sync-hooks";

/** Node 26 deprecates `module.register` at run time (DEP0205): where Node has working synchronous hooks, none is printed. */
function noDeprecation(stderr: string): void {
  assert.not.match(stderr, /DeprecationWarning/, `tooltype/register made Node print a deprecation warning:\n${stderr}`);
}

const PLUGIN = `"plugins": [{ "transform": "tooltype/transformer" }]`;

function esmProject(target = "ES2022"): string {
  return makeProject("register-esm", {
    "package.json": `{ "type": "module" }`,
    "tsconfig.json": `{ "compilerOptions": { "target": "${target}", "module": "esnext", "moduleResolution": "bundler", "strict": true, "noEmit": true, "skipLibCheck": true, "types": [], ${PLUGIN} }, "include": ["src"] }`,
    ...LIB,
    "src/tools.ts": tools("@tool"),
    "src/main.ts": APP,
  });
}

function cjsProject(): string {
  return makeProject("register-cjs", {
    "package.json": `{}`,
    "tsconfig.json": `{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "strict": true, "outDir": "dist", "experimentalDecorators": true, "skipLibCheck": true, "types": ["node"], "typeRoots": ["${path.join(path.resolve(__dirname, "../../.."), "node_modules", "@types")}"], ${PLUGIN} }, "include": ["src"] }`,
    ...LIB,
    "src/tools.ts": tools("@tool"),
    "src/main.ts": APP.replace('"./tools.js"', '"./tools"'),
  });
}

test("ES module project: node --import tooltype/register runs it with metadata; same schema as `tooltype schema`", async () => {
  const dir = esmProject();
  const [command] = readmeCommands("node"); // the command of docs/building.md, as written
  const [hooked, cli, thrown] = await Promise.all([
    runCommand(command!, dir),
    tooltype(["schema", "--format", "openai"], dir),
    node(["--enable-source-maps", "--import", "tooltype/register", "src/main.ts", "--throw"], dir),
  ]);
  const out = output("node --import tooltype/register", hooked);
  checkBehaviour(out);
  noDeprecation(hooked.stderr);
  assert.is(cli.code, 0, cli.stderr);
  assert.is(`${JSON.stringify(out.tools, null, 2)}\n`, cli.stdout, "the CLI prints what the registry exports");
  assert.is(thrown.code, 3);
  assert.match(
    thrown.stderr,
    /thrown on line 10 of main\.ts\n\s+at main \(.*src\/main\.ts:10:\d+\)/,
    "stack traces point into the .ts source",
  );
});

test("target ESNext (tsc --init's): the hook lowers the standard @tool decorator; tspc stops at it with TT1025 and the fix", async () => {
  const dir = esmProject("ESNext");
  const [hooked, built] = await Promise.all([
    node(["--import", "tooltype/register", "src/main.ts"], dir),
    run(bin("tspc"), ["-p", "tsconfig.json", "--noEmit", "false", "--outDir", "dist"], dir),
  ]);
  checkBehaviour(output("node --import tooltype/register", hooked));
  assert.is.not(built.code, 0, "tspc must fail: its output keeps `@tool(...)`, which Node cannot parse");
  assert.match(
    built.stdout,
    /src\/tools\.ts\(9,3\): error TS\d+: TT1025: @tool on place_order would be emitted as a standard decorator/,
  );
  assert.match(built.stdout, `Set "target" to a year in tsconfig.json ("ES2022" or later)`);
});

test("CommonJS project: the hook compiles require()d .ts; same schema as a tspc build", async () => {
  const dir = cjsProject();
  const [hooked, built] = await Promise.all([
    node(["--import", "tooltype/register", "src/main.ts"], dir),
    run(bin("tspc"), ["-p", "tsconfig.json"], dir),
  ]);
  const out = output("node --import tooltype/register", hooked);
  checkBehaviour(out);
  noDeprecation(hooked.stderr);
  assert.is(built.code, 0, `tspc failed:\n${built.stdout}${built.stderr}`);
  const fromTspc = output("node dist/main.js", await node(["dist/main.js"], dir));
  assert.is(JSON.stringify(out.tools), JSON.stringify(fromTspc.tools), "register and tspc emit the same metadata");
});

test("an ES module importing CommonJS .ts: every file compiled once, no compiled source kept once they have loaded", async () => {
  const hosts = path.join(repo, "dist", "transformer", "hosts", "node");
  const dir = makeProject("register-mixed", {
    "package.json": `{}`,
    "tsconfig.json": `{ "compilerOptions": { "target": "ES2022", "module": "nodenext", "strict": true, "noEmit": true, "skipLibCheck": true, "types": [], ${PLUGIN} }, "include": ["src"] }`,
    "src/a.ts": `import { tool } from "tooltype";\n/**\n * Echoes a text.\n * @param text What to echo\n */\nexport const echo = tool(function echo(text: string) { return text; });\n`,
    "src/b.ts": `import { echo } from "./a";\nexport const again = echo;\n`,
    "src/c.ts": `export const answer: number = 42;\n`,
    "src/main.mts": [
      `import { createRequire } from "node:module";`,
      `import { ToolRegistry } from "tooltype";`,
      // Named imports of a CommonJS .ts file need the synchronous hooks; without them the default import
      // (docs/building.md: Node 20 looks for the names in the file, which is still TypeScript).
      syncHooksWork(process.versions.node)
        ? `import { again } from "./b.js";`
        : `import b from "./b.js";\nconst { again } = b;`,
      `const { answer } = createRequire(import.meta.url)("./c.ts") as { answer: number };`,
      `console.log(JSON.stringify({ answer, schema: new ToolRegistry([again]).toOpenAITools()[0]!.function.parameters }));`,
    ].join("\n"),
    // The process's own instances of register's modules (tooltype resolves to the repository through the symlink).
    "count.cjs": [
      `const hooks = require(${JSON.stringify(path.join(hosts, "register-hooks.js"))});`,
      `const compile = require(${JSON.stringify(path.join(hosts, "register-compile.js"))});`,
      `process.on("exit", () => console.error("COUNTS " + JSON.stringify({ kept: hooks.keptSources(), compiles: compile.compileCount() })));`,
    ].join("\n"),
  });
  const result = await node(["--require", "./count.cjs", "--import", "tooltype/register", "src/main.mts"], dir);
  assert.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout.trim()) as {
    answer: number;
    schema: { properties: Record<string, { description?: string }> };
  };
  assert.is(out.answer, 42);
  assert.is(
    out.schema.properties.text?.description,
    "What to echo",
    "the CommonJS tool two imports away has its metadata",
  );
  const counts = /COUNTS (.*)/.exec(result.stderr);
  assert.ok(counts, result.stderr);
  // Without the synchronous hooks (Node 20), main.mts is compiled in Node's hooks thread, not counted here.
  const compiles = syncHooksWork(process.versions.node) ? 4 : 3;
  assert.equal(
    JSON.parse(counts[1]!),
    { kept: 0, compiles },
    `main.mts, b.ts, a.ts and c.ts each compiled once (Node ${process.version})`,
  );
  noDeprecation(result.stderr);
});

for (const kind of ["ESM", "CommonJS"] as const) {
  test(`tsx (${kind}): with tooltype/register the tools work; without it the error names the cause and the commands`, async () => {
    const dir = kind === "ESM" ? esmProject() : cjsProject();
    const commands = readmeCommands("tsx"); // the commands of docs/building.md, as written
    assert.equal(
      commands.map((c) => c.join(" ")),
      ["node --import tsx --import tooltype/register src/main.ts", "tsx --import tooltype/register src/main.ts"],
    );
    const [plain, ...hooked] = await Promise.all([
      run(bin("tsx"), ["src/main.ts"], dir),
      ...commands.map((c) => runCommand(c, dir)),
    ]);
    hooked.forEach((result, i) => {
      checkBehaviour(output(commands[i]!.join(" "), result));
      noDeprecation(result.stderr);
    });
    assert.is.not(plain.code, 0);
    assert.match(
      plain.stderr,
      "has no compiled metadata: the file that declares it was not compiled by a tooltype-aware step (tsx, ts-node",
    );
    assert.match(plain.stderr, "node --import tsx --import tooltype/register src/main.ts");
  });
}

test("Node's own type stripping (`node src/main.ts`) runs a tool without metadata: registration names the cause and the command", async () => {
  const dir = makeProject("register-strip", {
    "package.json": `{ "type": "module" }`,
    "tsconfig.json": `{ "compilerOptions": { "target": "ES2022", "module": "nodenext", "strict": true, "noEmit": true, "skipLibCheck": true, "types": [], ${PLUGIN} } }`,
    "src/main.ts": [
      'import { tool, ToolRegistry } from "tooltype";',
      "/**",
      " * Count to n.",
      " * @param n How far",
      " */",
      "const count = tool(function count(n: number): string { return String(n); });",
      "new ToolRegistry([count]);",
      "",
    ].join("\n"),
  });
  const [stripped, hooked] = await Promise.all([
    node(["src/main.ts"], dir),
    node(["--import", "tooltype/register", "src/main.ts"], dir),
  ]);
  assert.is(hooked.code, 0, hooked.stderr);
  assert.is.not(stripped.code, 0);
  // Node 20 runs no TypeScript; from 22.18 it strips the types and the tool arrives without metadata.
  if (/ERR_UNKNOWN_FILE_EXTENSION/.test(stripped.stderr)) return;
  assert.match(stripped.stderr, 'Tool "count" (function passed to tool()) has no compiled metadata');
  assert.match(stripped.stderr, "Node's own type stripping (`node src/main.ts` on Node 22.18 and later)");
  assert.match(stripped.stderr, "node --import tooltype/register src/main.ts");
});

test("a TT error stops the run with its position; warnings are printed and the run goes on", async () => {
  const dir = esmProject();
  writeFiles(dir, {
    "src/tools.ts": tools("@tool").replace("function count(n: number)", "function count(n: number, extra?: unknown)"),
  });
  const warned = await node(["--import", "tooltype/register", "src/main.ts"], dir);
  checkBehaviour(output("with a warning", warned));
  assert.match(warned.stderr, /src\/tools\.ts:19:\d+ - warning TT1005: parameter "extra" is typed unknown/);
  writeFiles(dir, {
    "src/tools.ts": tools("@tool").replace("function count(n: number)", "function count(n: number, cb: () => void)"),
  });
  const failed = await node(["--import", "tooltype/register", "src/main.ts"], dir);
  assert.is.not(failed.code, 0);
  assert.match(
    failed.stderr,
    "tooltype/register: src/tools.ts has tooltype errors, so its tools have no correct schema:",
  );
  assert.match(failed.stderr, /src\/tools\.ts:19:\d+ - error TT1001: parameter "cb" has type a function/);
});

test.run();
