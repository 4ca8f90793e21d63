/**
 * The provider catalogue (runtime/providers/catalog.ts) is the only list of providers: read from the sources with
 * the TypeScript parser,
 * - no runtime file outside the catalogue and a provider's own folder names a provider's module (an import, a
 *   require or an `import()` of runtime/providers/<folder>/…), except the few places listed below that expose one
 *   provider's public surface on purpose;
 * - no runtime file outside them writes a format's name as a value (a type may: the public overloads are typed
 *   per format);
 * - the three ways providers load (runtime/lazy/providers.bundle.ts, providers.chunks.ts, providers.node.ts) name exactly the
 *   catalogue's modules, and each module exports the provider (or loop) of its format;
 * - every folder under runtime/providers/ is in the catalogue (MCP's, a tool format, is named by its entry's server);
 * - no file sits beside a folder of the same name.
 * A new provider's pull request touches its folder, the catalogue and its tests: this test fails for any other file
 * that would have to name it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CATALOG } from "../../runtime/providers/catalog";

const repo = path.resolve(__dirname, "../../..");
const runtime = path.join(repo, "runtime");
const providers = path.join(runtime, "providers");

/** The catalogue's own files: the list and the three ways providers load. */
const CATALOGUE = /^(providers\/catalog|lazy\/providers\.(node|bundle|chunks))\.ts$/;

/**
 * Files that name one provider's module on purpose, each with what it may name (paths under runtime/providers/):
 * the public entries expose each provider's public types (and chat's helpers); a preset exports its own provider's
 * tools; StructuredOutput writes Chat Completions' `response_format`; the framework adapters speak Chat Completions'
 * tool format; the MCP server speaks MCP's.
 */
const EXPOSES: readonly { file: RegExp; may: RegExp }[] = [
  { file: /^entries\/(index|openai|responses|anthropic|gemini)\.ts$/, may: /^[a-z0-9-]+\/types$/ },
  { file: /^entries\/index\.ts$/, may: /^openai-chat\/attachments$/ },
  { file: /^entries\/base-exports\.ts$/, may: /^openai-chat\/read$/ },
  { file: /^registry\/presets\/([a-z0-9-]+)\.ts$/, may: /^(?<own>[a-z0-9-]+)\/(tools|wire)$/ },
  { file: /^agent\/structured\.ts$/, may: /^openai-chat\/tools$/ },
  { file: /^adapters\/runtime\.ts$/, may: /^openai-chat\/tools$/ },
  { file: /^mcp\/[a-z-]+\.ts$/, may: /^mcp\/(tools|answer)$/ },
];

/** Files that may write a format's name as a value: the registries whose methods are named for their format. */
const NAMES_FORMATS = /^registry\/(tool-registry|presets\/[a-z0-9-]+)\.ts$/;

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(file);
    else if (/\.m?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield file;
  }
}

/** The module specifiers of a file (imports, exports, `require`, `import()`), and its string literals outside types. */
function read(file: string): { specifiers: string[]; literals: string[] } {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const literals: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
      return;
    }
    if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))) {
      const [first] = node.arguments;
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) specifiers.push(first.text);
      else if (first && ts.isTemplateExpression(first)) specifiers.push(`${first.head.text}*`);
      return;
    }
    if (ts.isTypeNode(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literals.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, literals };
}

/** `specifier` from `file`, as a path under runtime/providers/ without extension, if it points into a provider folder. */
function providerModule(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = path.relative(providers, path.resolve(path.dirname(file), specifier)).split(path.sep).join("/").replace(/\.js$/, "");
  return /^[a-z0-9-]+\//.test(target) ? target : undefined;
}

/** The distinct entries of `list`, sorted. */
const sorted = (list: readonly string[]): string[] => [...new Set(list)].sort();

const formats = new Set<string>(CATALOG.map((entry) => entry.format));

test("only the catalogue and a provider's own folder name a provider's module", () => {
  const found: string[] = [];
  for (const file of sources(runtime)) {
    const rel = path.relative(runtime, file).split(path.sep).join("/");
    if (CATALOGUE.test(rel)) continue;
    const own = /^providers\/([a-z0-9-]+)\//.exec(rel)?.[1];
    for (const specifier of read(file).specifiers) {
      const target = providerModule(file, specifier);
      if (target === undefined || (own !== undefined && target.startsWith(`${own}/`))) continue;
      const allowed = EXPOSES.some(({ file: which, may }) => {
        const match = which.exec(rel);
        const named = match && may.exec(target);
        // A preset names its own folder only.
        return !!named && (named.groups?.own === undefined || named.groups.own === match[1]);
      });
      if (!allowed) found.push(`${rel} → providers/${target}`);
    }
  }
  assert.equal(found, [], `files outside the catalogue name a provider's module:\n${found.join("\n")}`);
});

test("only the catalogue, the providers and the registries' export methods write a format's name", () => {
  const found: string[] = [];
  for (const file of sources(runtime)) {
    const rel = path.relative(runtime, file).split(path.sep).join("/");
    if (CATALOGUE.test(rel) || /^providers\/[a-z0-9-]+\//.test(rel) || NAMES_FORMATS.test(rel)) continue;
    for (const literal of read(file).literals) if (formats.has(literal)) found.push(`${rel}: ${JSON.stringify(literal)}`);
  }
  assert.equal(found, [], `files outside the catalogue write a format's name:\n${found.join("\n")}`);
});

test("the ways providers load name exactly the catalogue's modules, each exporting its format's provider and loop", () => {
  const named = (file: string): string[] =>
    read(path.join(runtime, "lazy", file)).specifiers.flatMap((s) => providerModule(path.join(runtime, "lazy", file), s) ?? []);
  const bundle = named("providers.bundle.ts");
  const chunks = named("providers.chunks.ts");
  const node = named("providers.node.ts");
  const modules = CATALOG.flatMap((entry) => ("loop" in entry ? [entry.provider, entry.loop] : [entry.provider]));
  assert.equal(sorted(bundle.filter((s) => !s.startsWith("mcp/"))), sorted(modules), "lazy/providers.bundle.ts imports every provider and loop the catalogue names");
  // The chat provider is at hand in every registry: the chunks are the other formats'.
  assert.equal(sorted(chunks), sorted(CATALOG.filter((entry) => entry.format !== "openai").map((entry) => entry.provider)), "lazy/providers.chunks.ts");
  assert.equal(sorted(node.filter((s) => !s.startsWith("mcp/"))), sorted(modules), "lazy/providers.node.ts requires every provider and loop the catalogue names");
  // The modules as built (npm run build), each required by the path the catalogue gives.
  const built = path.join(repo, "dist", "runtime", "providers");
  for (const entry of CATALOG) {
    const provider = (require(path.join(built, entry.provider)) as { provider: { name: string } }).provider;
    assert.is(provider.name, entry.format, `${entry.provider} exports the ${entry.format} provider`);
    if ("loop" in entry) {
      const loop = (require(path.join(built, entry.loop)) as { loop: { isClient?: unknown } }).loop;
      assert.type(loop.isClient, "function", `${entry.loop} exports a loop`);
    }
  }
});

test("every provider folder is in the catalogue, and no file sits beside a folder of the same name", () => {
  const folders = fs.readdirSync(providers, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const named = new Set(CATALOG.map((entry) => entry.provider.split("/")[0]!));
  assert.equal(folders.filter((folder) => folder !== "mcp" && !named.has(folder)), [], "folders the catalogue does not name");
  const beside: string[] = [];
  const walk = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    const dirs = new Set(entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
    for (const entry of entries) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (dirs.has(entry.name.replace(/\.m?ts$/, ""))) beside.push(path.relative(repo, path.join(dir, entry.name)));
    }
  };
  walk(runtime);
  assert.equal(beside, [], "files beside a folder of the same name");
});

test.run();
