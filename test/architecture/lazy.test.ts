/**
 * What loads on first need lives in runtime/lazy/, under one scheme (package.json "imports", `#lazy/*`): a loader
 * `<name>` is two files, `<name>.node.ts` (what Node takes, and the types every importer sees) and `<name>.bundle.ts`
 * (what bundlers take, the `module` condition). Read from the sources:
 * - every file of runtime/lazy/ is one side of such a pair, or a helper the loaders share (no `.node`/`.bundle`);
 * - package.json "imports" is that one pattern, and no other runtime file requires, or `import()`s, a module of its
 *   own (the adapters' optional peers and ajv's formats plugin, required where they are used, are the exceptions);
 * - the two sides of a loader export the same names, each bundle export assignable to the type its importers see
 *   (the Node side's), and load the same modules (or, in a bundle, none: ajv comes in only through `tooltype/ajv`);
 * - no published declaration file imports `#lazy/…`: its "types" target is the sources, which are not published.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";

const repo = path.resolve(__dirname, "../../..");
const runtime = path.join(repo, "runtime");
const lazy = path.join(runtime, "lazy");
const SIDE = /^([a-z0-9-]+)\.(node|bundle)\.ts$/;

const files = fs.readdirSync(lazy).filter((file) => file.endsWith(".ts"));
const loaders = [...new Set(files.flatMap((file) => SIDE.exec(file)?.[1] ?? []))].sort();

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(file);
    else if (/\.m?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield file;
  }
}

/** What `file` loads: each `require()` and `import()`, and each import or re-export that is not type-only. */
function loads(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require"))
    ) {
      const [first] = node.arguments;
      found.push(first && ts.isStringLiteral(first) ? first.text : `<computed: ${node.getText(source)}>`);
    }
    if (!ts.isTypeNode(node)) ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A specifier as the module it names: a package as written, a runtime file by its path under runtime/, no extension. */
function moduleOf(file: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  return path
    .relative(runtime, path.resolve(path.dirname(file), specifier))
    .split(path.sep)
    .join("/")
    .replace(/\.js$/, "");
}

test("runtime/lazy/ holds pairs of <name>.node.ts and <name>.bundle.ts, and the helpers they share", () => {
  assert.ok(loaders.length >= 5, `runtime/lazy/ has the runtime's loaders: ${loaders.join(", ")}`);
  for (const name of loaders) {
    assert.ok(
      files.includes(`${name}.node.ts`),
      `runtime/lazy/${name}.bundle.ts has no ${name}.node.ts, what Node takes for #lazy/${name}`,
    );
    assert.ok(
      files.includes(`${name}.bundle.ts`),
      `runtime/lazy/${name}.node.ts has no ${name}.bundle.ts, what bundlers take for #lazy/${name}`,
    );
  }
  const odd = files.filter((file) => !SIDE.test(file) && /\.(node|bundle)\./.test(file));
  assert.equal(odd, [], "files named like a loader's side that are none");
  const imports = (JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { imports: unknown })
    .imports;
  assert.equal(imports, {
    "#lazy/*": {
      types: "./runtime/lazy/*.node.ts",
      // Workers bundlers (wrangler: workerd, worker, browser) leave out `module`: they are given the bundle side too.
      workerd: "./dist/esm/runtime/lazy/*.bundle.js",
      module: "./dist/esm/runtime/lazy/*.bundle.js",
      default: "./dist/runtime/lazy/*.node.js",
    },
  });
});

test("no runtime file outside runtime/lazy/ loads a module of its own on need", () => {
  const found: string[] = [];
  for (const file of sources(runtime)) {
    const rel = path.relative(runtime, file).split(path.sep).join("/");
    if (rel.startsWith("lazy/")) continue;
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
          (ts.isIdentifier(node.expression) && node.expression.text === "require"))
      ) {
        const [first] = node.arguments;
        const specifier = first && ts.isStringLiteral(first) ? first.text : "<computed>";
        // Optional peers, required by the entry that needs them; ajv's formats plugin, by the code that makes an ajv.
        const allowed =
          (/^adapters\//.test(rel) && !specifier.startsWith(".")) ||
          (rel === "validation/ajv/options.ts" && specifier === "ajv-formats");
        if (!allowed) found.push(`${rel}: ${node.getText(source)}`);
      }
      if (!ts.isTypeNode(node)) ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.equal(
    found,
    [],
    `files outside runtime/lazy/ that load on need (add a loader to runtime/lazy/ instead):\n${found.join("\n")}`,
  );
});

test("the two sides of each loader export the same names with agreeing types, and load the same modules", () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(repo, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const roots = loaders.flatMap((name) => [path.join(lazy, `${name}.node.ts`), path.join(lazy, `${name}.bundle.ts`)]);
  const program = ts.createProgram(roots, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const exportsOf = (file: string): Map<string, ts.Type> => {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const types = new Map<string, ts.Type>();
    for (const exported of checker.getExportsOfModule(symbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      types.set(
        exported.name,
        target.flags & ts.SymbolFlags.Value ? checker.getTypeOfSymbol(target) : checker.getDeclaredTypeOfSymbol(target),
      );
    }
    return types;
  };
  for (const name of loaders) {
    const nodeFile = path.join(lazy, `${name}.node.ts`);
    const bundleFile = path.join(lazy, `${name}.bundle.ts`);
    const node = exportsOf(nodeFile);
    const bundle = exportsOf(bundleFile);
    assert.equal(
      [...bundle.keys()].sort(),
      [...node.keys()].sort(),
      `${name}.bundle.ts and ${name}.node.ts export different names`,
    );
    for (const [exported, type] of bundle) {
      assert.ok(
        checker.isTypeAssignableTo(type, node.get(exported)!),
        `${name}.bundle.ts's ${exported} (${checker.typeToString(type)}) is not what importers of #lazy/${name} see (${checker.typeToString(node.get(exported)!)}, ${name}.node.ts)`,
      );
    }
    // Modules loaded, without the helpers of runtime/lazy/ itself.
    const loaded = (file: string): string[] =>
      [
        ...new Set(
          loads(file)
            .map((specifier) => moduleOf(file, specifier))
            .filter((module) => !module.startsWith("lazy/")),
        ),
      ].sort();
    const fromBundle = loaded(bundleFile);
    if (fromBundle.length > 0)
      assert.equal(fromBundle, loaded(nodeFile), `${name}.bundle.ts and ${name}.node.ts load different modules`);
    assert.ok(loaded(nodeFile).length > 0, `${name}.node.ts loads nothing`);
  }
});

test("no declaration file of the package names #lazy/…, whose types (the sources) are not published", () => {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".d.ts") && /from "#|import\("#/.test(fs.readFileSync(file, "utf8")))
        found.push(path.relative(repo, file));
    }
  };
  // The test build's declarations, compiled from the sources with the package's settings (test/tsconfig.sources.json).
  walk(path.join(repo, ".test-build", "runtime"));
  assert.equal(found, [], "declarations importing #lazy/… (import the type from its module instead)");
});

test.run();
