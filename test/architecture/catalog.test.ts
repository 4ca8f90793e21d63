/**
 * The provider catalogue (runtime/providers/catalog.ts) is the only list of providers: read from the sources with
 * the TypeScript parser,
 * - what bundlers and Node need written out literally (how providers load: runtime/lazy/providers.*) is written by
 *   scripts/providers.mjs from it, and each such file is what the script writes now;
 * - the main ToolRegistry (written by hand) has the export method each entry names, the function of that name in
 *   its folder's tools.ts, with that function's TSDoc, overloads, parameters after the tools and return types (and
 *   so has a preset that has the method); the main entry re-exports every folder's public types (its index.ts);
 * - no other runtime file names a provider's module (an import, a require or an `import()` of
 *   runtime/providers/<folder>/…), except the few places listed below that expose one provider's public surface on
 *   purpose (the provider entries and their presets among them);
 * - no other runtime file writes a format's name as a value (a type may: the public overloads are typed per format);
 * - the three ways providers load (runtime/lazy/providers.bundle.ts, providers.chunks.ts, providers.node.ts) name
 *   exactly the catalogue's modules, and each module exports the provider (or loop) of its format;
 * - every format runs through the shared contract of test/providers/contract.case.ts;
 * - every folder under runtime/providers/ is in the catalogue;
 * - no file sits beside a folder of the same name.
 * A new provider's pull request touches its folder, the catalogue, the main registry's method, its entry and its
 * tests (and what the script writes from them): this test fails for any other file that would have to name it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CATALOG } from "../../runtime/providers/catalog";
import { ToolRegistry } from "../../runtime/registry/tool-registry";

const repo = path.resolve(__dirname, "../../..");
const runtime = path.join(repo, "runtime");
const providers = path.join(runtime, "providers");

/** What scripts/providers.mjs exports: the first line of what it writes, and the files that differ from it. */
interface ProvidersScript {
  MARK: string;
  drift(): string[];
}
const generator = (): Promise<ProvidersScript> =>
  import(pathToFileURL(path.join(repo, "scripts", "providers.mjs")).href) as Promise<ProvidersScript>;

/** The catalogue's own files: the list, and the loaders scripts/providers.mjs writes from it (their first line says so). */
function isCatalogue(rel: string, mark: string): boolean {
  return rel === "providers/catalog.ts" || fs.readFileSync(path.join(runtime, rel), "utf8").startsWith(mark);
}

/**
 * Files that name one provider's module on purpose, each with what it may name (paths under runtime/providers/):
 * the main entry exposes every folder's public types, a provider entry its folder's, and its preset that folder's
 * export functions and their types; the main entry exposes chat's attachments helper, every entry chat's reader;
 * StructuredOutput writes Chat
 * Completions' `response_format`; the framework adapters speak Chat Completions' tool format.
 */
const EXPOSES: readonly { file: RegExp; may: RegExp }[] = [
  { file: /^entries\/provider-types\.ts$/, may: /^[a-z0-9-]+\/index$/ },
  { file: /^entries\/openai\.ts$/, may: /^openai-chat\/index$/ },
  { file: /^entries\/responses\.ts$/, may: /^openai-responses\/index$/ },
  { file: /^entries\/anthropic\.ts$/, may: /^anthropic\/index$/ },
  { file: /^entries\/gemini\.ts$/, may: /^gemini\/index$/ },
  { file: /^registry\/presets\/openai-chat\.ts$/, may: /^openai-chat\/(tools|wire)$/ },
  { file: /^registry\/presets\/openai-responses\.ts$/, may: /^openai-responses\/(tools|wire)$/ },
  { file: /^registry\/presets\/anthropic\.ts$/, may: /^anthropic\/(tools|wire)$/ },
  { file: /^registry\/presets\/gemini\.ts$/, may: /^gemini\/(tools|wire)$/ },
  { file: /^entries\/index\.ts$/, may: /^openai-chat\/attachments$/ },
  { file: /^entries\/base-exports\.ts$/, may: /^openai-chat\/read$/ },
  { file: /^agent\/structured\.ts$/, may: /^openai-chat\/tools$/ },
  { file: /^adapters\/runtime\.ts$/, may: /^openai-chat\/tools$/ },
];

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
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
      return;
    }
    if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require"))
    ) {
      const [first] = node.arguments;
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)))
        specifiers.push(first.text);
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
  const target = path
    .relative(providers, path.resolve(path.dirname(file), specifier))
    .split(path.sep)
    .join("/")
    .replace(/\.js$/, "");
  return /^[a-z0-9-]+\//.test(target) ? target : undefined;
}

/** The distinct entries of `list`, sorted. */
const sorted = (list: readonly string[]): string[] => [...new Set(list)].sort();

const formats = new Set<string>(CATALOG.map((entry) => entry.format));

test("what scripts/providers.mjs writes from the catalogue is what it writes now", async () => {
  const { drift } = await generator();
  assert.equal(drift(), [], "these files differ from what the catalogue says: run node scripts/providers.mjs");
});

test("the main ToolRegistry has every format's export method, its folder's exported function of that name", () => {
  const missing: string[] = [];
  for (const entry of CATALOG) {
    const rel = `providers/${entry.provider.split("/")[0]!}/tools.ts`;
    const source = ts.createSourceFile(
      rel,
      fs.readFileSync(path.join(runtime, rel), "utf8"),
      ts.ScriptTarget.Latest,
      true,
    );
    const exported = source.statements.some(
      (s) =>
        ts.isFunctionDeclaration(s) &&
        s.name?.text === entry.exportMethod &&
        s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
    );
    if (!exported) missing.push(`${rel} exports no function ${entry.exportMethod}`);
    if (typeof (ToolRegistry.prototype as unknown as Record<string, unknown>)[entry.exportMethod] !== "function")
      missing.push(`ToolRegistry has no ${entry.exportMethod}`);
  }
  assert.equal(missing, []);
});

/** `rel` (under runtime/) parsed. */
const parse = (rel: string): ts.SourceFile =>
  ts.createSourceFile(rel, fs.readFileSync(path.join(runtime, rel), "utf8"), ts.ScriptTarget.Latest, true);

/**
 * Each signature of the functions or methods named `name` among `nodes`, in order, as text: its TSDoc's words, its
 * parameters after the first `skip`, its return type.
 */
function signatures(file: ts.SourceFile, nodes: readonly ts.Node[], name: string, skip: number): string[] {
  return nodes
    .filter(
      (node): node is ts.FunctionDeclaration | ts.MethodDeclaration =>
        (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name?.getText(file) === name,
    )
    .map((node) => {
      const comments = (ts.getLeadingCommentRanges(file.text, node.getFullStart()) ?? []).map((range) =>
        file.text.slice(range.pos, range.end),
      );
      const doc = comments.filter((text) => text.startsWith("/**")).pop() ?? "";
      const words = doc
        .replace(/^\/\*\*|\*\/$/g, "")
        .replace(/^\s*\* ?/gm, " ")
        .split(/\s+/)
        .filter(Boolean)
        .join(" ");
      const params = node.parameters
        .slice(skip)
        .map((p) => `${p.name.getText(file)}${p.questionToken || p.initializer ? "?" : ""}: ${p.type?.getText(file)}`);
      return `${words} (${params.join(", ")}): ${node.type?.getText(file)}`;
    });
}

/** The members of the class `name` of `file`. */
function members(file: ts.SourceFile, name?: string): ts.Node[] {
  return file.statements.flatMap((s) =>
    ts.isClassDeclaration(s) && (name === undefined || s.name?.text === name) ? [...s.members] : [],
  );
}

test("each registry's export method has its function's TSDoc, overloads, options and return types", () => {
  const registry = parse("registry/tool-registry.ts");
  const presets = fs
    .readdirSync(path.join(runtime, "registry", "presets"))
    .map((name) => parse(`registry/presets/${name}`));
  const differ: string[] = [];
  for (const entry of CATALOG) {
    const tools = parse(`providers/${entry.provider.split("/")[0]!}/tools.ts`);
    const expected = signatures(tools, tools.statements, entry.exportMethod, 1);
    const inMain = signatures(registry, members(registry, "ToolRegistry"), entry.exportMethod, 0);
    if (JSON.stringify(inMain) !== JSON.stringify(expected))
      differ.push(`ToolRegistry.${entry.exportMethod}:\n${inMain.join("\n")}\nis not\n${expected.join("\n")}`);
    for (const preset of presets) {
      const inPreset = signatures(preset, members(preset), entry.exportMethod, 0);
      if (inPreset.length > 0 && JSON.stringify(inPreset) !== JSON.stringify(expected))
        differ.push(`${preset.fileName} ${entry.exportMethod}:\n${inPreset.join("\n")}`);
    }
  }
  assert.equal(differ, [], differ.join("\n\n"));
});

test("the main entry re-exports every provider folder's public types (its index.ts)", () => {
  const file = path.join(runtime, "entries", "provider-types.ts");
  const named = read(file).specifiers.flatMap((s) => providerModule(file, s) ?? []);
  const folders = sorted(CATALOG.map((entry) => entry.provider.split("/")[0]!));
  assert.equal(
    sorted(named),
    folders.map((folder) => `${folder}/index`),
  );
});

test("only the catalogue and a provider's own folder name a provider's module", async () => {
  const { MARK } = await generator();
  const found: string[] = [];
  for (const file of sources(runtime)) {
    const rel = path.relative(runtime, file).split(path.sep).join("/");
    if (isCatalogue(rel, MARK)) continue;
    const own = /^providers\/([a-z0-9-]+)\//.exec(rel)?.[1];
    for (const specifier of read(file).specifiers) {
      const target = providerModule(file, specifier);
      if (target === undefined || (own !== undefined && target.startsWith(`${own}/`))) continue;
      const allowed = EXPOSES.some(({ file: which, may }) => which.test(rel) && may.test(target));
      if (!allowed) found.push(`${rel} → providers/${target}`);
    }
  }
  assert.equal(found, [], `files outside the catalogue name a provider's module:\n${found.join("\n")}`);
});

test("only the catalogue and the providers write a format's name", async () => {
  const { MARK } = await generator();
  const found: string[] = [];
  for (const file of sources(runtime)) {
    const rel = path.relative(runtime, file).split(path.sep).join("/");
    if (isCatalogue(rel, MARK) || /^providers\/[a-z0-9-]+\//.test(rel)) continue;
    for (const literal of read(file).literals)
      if (formats.has(literal)) found.push(`${rel}: ${JSON.stringify(literal)}`);
  }
  assert.equal(found, [], `files outside the catalogue write a format's name:\n${found.join("\n")}`);
});

test("the ways providers load name exactly the catalogue's modules, each exporting its format's provider and loop", () => {
  const named = (file: string): string[] =>
    read(path.join(runtime, "lazy", file)).specifiers.flatMap(
      (s) => providerModule(path.join(runtime, "lazy", file), s) ?? [],
    );
  const bundle = named("providers.bundle.ts");
  const chunks = named("providers.chunks.ts");
  const node = named("providers.node.ts");
  const modules = CATALOG.flatMap((entry) => ("loop" in entry ? [entry.provider, entry.loop] : [entry.provider]));
  assert.equal(
    sorted(bundle),
    sorted(modules),
    "lazy/providers.bundle.ts imports every provider and loop the catalogue names",
  );
  // The chat provider is at hand in every registry: the chunks are the other formats'.
  assert.equal(
    sorted(chunks),
    sorted(CATALOG.filter((entry) => entry.format !== "openai").map((entry) => entry.provider)),
    "lazy/providers.chunks.ts",
  );
  assert.equal(
    sorted(node),
    sorted(modules),
    "lazy/providers.node.ts requires every provider and loop the catalogue names",
  );
  // The modules as compiled (the test build, laid out as dist/ is), each required by the path the catalogue gives.
  const built = path.join(repo, ".test-build", "runtime", "providers");
  for (const entry of CATALOG) {
    const provider = (require(path.join(built, entry.provider)) as { provider: { name: string } }).provider;
    assert.is(provider.name, entry.format, `${entry.provider} exports the ${entry.format} provider`);
    if ("loop" in entry) {
      const loop = (require(path.join(built, entry.loop)) as { loop: { isClient?: unknown } }).loop;
      assert.type(loop.isClient, "function", `${entry.loop} exports a loop`);
    }
  }
});

test("every format of the catalogue runs through the shared contract (test/providers/contract.case.ts)", () => {
  const dir = path.join(repo, "test", "providers");
  const cases = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => fs.readFileSync(path.join(dir, name), "utf8"))
    .flatMap((text) => [...text.matchAll(/providerContract\(\{\s*format: "([a-z0-9-]+)"/g)].map((match) => match[1]!));
  assert.equal(
    sorted(cases),
    sorted([...formats]),
    "the formats test/providers/*.test.ts run through providerContract",
  );
});

test("every provider folder is in the catalogue, and no file sits beside a folder of the same name", () => {
  const folders = fs
    .readdirSync(providers, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const named = new Set(CATALOG.map((entry) => entry.provider.split("/")[0]!));
  assert.equal(
    folders.filter((folder) => !named.has(folder)),
    [],
    "folders the catalogue does not name",
  );
  const beside: string[] = [];
  const walk = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    const dirs = new Set(entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
    for (const entry of entries) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (dirs.has(entry.name.replace(/\.m?ts$/, "")))
        beside.push(path.relative(repo, path.join(dir, entry.name)));
    }
  };
  walk(runtime);
  assert.equal(beside, [], "files beside a folder of the same name");
});

test.run();
