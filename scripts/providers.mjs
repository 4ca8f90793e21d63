// Writes what the provider catalogue (runtime/providers/catalog.ts) decides but that bundlers, Node, TypeDoc and the
// package manager each need written out literally: how providers load (runtime/lazy/providers.bundle.ts,
// providers.node.ts, providers.chunks.ts), the main registry's export methods (runtime/registry/tool-registry.ts),
// the providers' public types in the main entry (runtime/entries/provider-types.ts), each provider entry's preset
// (runtime/registry/presets/<folder>.ts) and entry (runtime/entries/<entry>.ts), and those entries in package.json
// ("exports", "typesVersions") and typedoc.json. Adding a provider is its folder, its
// catalogue entry and its tests; then `node scripts/providers.mjs` writes the rest.
//
// An export method is the function of the same name in the provider folder's tools.ts, `(tools, ...options)`: its
// TSDoc and its parameters after the tools are the method's; an overloaded function gives the method its overloads
// (each with its TSDoc) and its implementation's parameters. `--check` writes nothing and fails, naming the files,
// when one differs from what it would write (test/architecture/catalog.test.ts runs the same check).
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const ts = require("typescript");

/** The first line of every file this script writes; a file of runtime/ that starts so is the script's to remove. */
export const MARK = "// Written by scripts/providers.mjs from the catalogue (runtime/providers/catalog.ts): run it again, do not edit.";

const read = (rel) => fs.readFileSync(path.join(root, rel), "utf8");
const parse = (rel) => ts.createSourceFile(rel, read(rel), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** A literal of the catalogue as a value: strings, numbers, arrays and objects of them; anything else is left out. */
function literal(node) {
  while (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isArrayLiteralExpression(node)) return node.elements.map(literal);
  if (ts.isObjectLiteralExpression(node)) {
    const object = {};
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const value = literal(property.initializer);
      if (value !== undefined) object[property.name.getText()] = value;
    }
    return object;
  }
  return undefined;
}

/** The catalogue's entries (their literal fields) and the chat format, read from its source. */
export function readCatalogue() {
  const file = parse("runtime/providers/catalog.ts");
  const constants = new Map();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer) constants.set(declaration.name.text, declaration.initializer);
    }
  }
  const entries = literal(constants.get("CATALOG"));
  const chat = literal(constants.get("CHAT_FORMAT"));
  for (const entry of entries) {
    for (const field of ["format", "provider", "exportMethod"]) {
      if (typeof entry[field] !== "string") throw new Error(`runtime/providers/catalog.ts: an entry has no literal \`${field}\` (${JSON.stringify(entry)}).`);
    }
  }
  return { entries, chat };
}

const folderOf = (entry) => entry.provider.split("/")[0];
/** `openai-chat/functions` → `openaiChatFunctions`: a name for a module's import. */
const camel = (module) => module.replace(/[-/]([a-z0-9])/g, (_, c) => c.toUpperCase());
/** A TSDoc comment of `paragraphs` (lines in a row are one paragraph; "" a blank line), wrapped at 117 columns less `indent`. */
function comment(paragraphs, indent = 0) {
  const width = 117 - indent - 3;
  const lines = [];
  // Consecutive lines are one paragraph, written again to the width.
  const joined = [];
  for (const line of paragraphs) {
    if (line !== "" && !line.startsWith("@") && joined.length > 0 && joined.at(-1) !== "" && !joined.at(-1).startsWith("@")) joined[joined.length - 1] += ` ${line}`;
    else joined.push(line);
  }
  for (const paragraph of joined) {
    if (paragraph === "" || paragraph.startsWith("@")) {
      lines.push(paragraph);
      continue;
    }
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return ["/**", ...lines.map((line) => (line ? ` * ${line}` : " *")), " */"].join("\n");
}

/** `import type { … } from "…";`, on several lines when one would pass 150 columns. */
function importLine(names, from, typeOnly = true) {
  const list = [...new Set(names)].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }) || a.localeCompare(b));
  const one = `import ${typeOnly ? "type " : ""}{ ${list.join(", ")} } from "${from}";`;
  return one.length <= 150 ? one : [`import ${typeOnly ? "type " : ""}{`, ...list.map((name) => `  ${name},`), `} from "${from}";`].join("\n");
}

/** A key of an object literal: bare where it can be. */
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** The export method `name` of `folder`'s tools.ts: its TSDoc, its parameters after the tools, its type, the types it names. */
function exportMethod(folder, name) {
  const rel = `runtime/providers/${folder}/tools.ts`;
  const file = parse(rel);
  const declarations = file.statements.filter((s) => ts.isFunctionDeclaration(s) && s.name?.text === name && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
  if (declarations.length === 0) throw new Error(`${rel} exports no function ${name}, the export method its catalogue entry names.`);
  // The implementation is the last declaration; the ones before it, if any, are its overloads.
  const fn = declarations.at(-1);
  const overloaded = declarations.length > 1;
  const signature = (decl) => {
    if (!decl.type) throw new Error(`${rel}: ${name} needs a written return type on each signature (the registries' method is typed by it).`);
    const docs = ts.getLeadingCommentRanges(file.text, decl.getFullStart()) ?? [];
    const doc = docs.map((range) => file.text.slice(range.pos, range.end)).filter((text) => text.startsWith("/**")).pop();
    if (!doc && (decl !== fn || !overloaded)) throw new Error(`${rel}: ${name} needs a TSDoc comment on each signature (the registries' method takes it).`);
    const params = decl.parameters.slice(1).map((p) => ({
      name: p.name.getText(),
      text: `${p.name.getText()}${p.questionToken || p.initializer ? "?" : ""}: ${p.type.getText()}`,
    }));
    return { doc: doc ? doc.split("\n").map((line, i) => (i === 0 ? line : ` ${line.trimStart()}`)) : [], params, returns: decl.type.getText() };
  };
  const types = new Set();
  const visit = (node) => {
    if (ts.isTypeReferenceNode(node)) types.add((ts.isIdentifier(node.typeName) ? node.typeName : node.typeName.left).getText());
    ts.forEachChild(node, visit);
  };
  for (const decl of declarations) {
    for (const p of decl.parameters.slice(1)) visit(p.type);
    visit(decl.type);
  }
  // Where each type named comes from, as a path under runtime/providers/ without extension.
  const from = new Map();
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)) {
      const module = path.posix.join(folder, statement.moduleSpecifier.text);
      for (const element of statement.importClause.namedBindings.elements) from.set(element.name.text, module);
    } else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      from.set(statement.name.text, `${folder}/tools`);
    }
  }
  const imports = [...types].filter((type) => from.has(type)).map((type) => ({ type, module: from.get(type) }));
  return { name, ...signature(fn), overloads: declarations.slice(0, -1).map(signature), imports };
}

/** `import type { … } from "…"` lines, one per module, sorted. */
function typeImports(imports, toSpecifier) {
  const byModule = new Map();
  for (const { type, module } of imports) byModule.set(module, new Set([...(byModule.get(module) ?? []), type]));
  return [...byModule]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([module, types]) => importLine([...types], toSpecifier(module)));
}

const indent = (lines) => lines.map((line) => (line ? `  ${line}` : line));

function providersBundle({ entries }) {
  const imports = [];
  for (const entry of entries) {
    imports.push(`import { provider as ${camel(entry.provider)} } from "../providers/${entry.provider}";`);
    if (entry.loop) imports.push(`import { loop as ${camel(entry.loop)} } from "../providers/${entry.loop}";`);
  }
  return [
    MARK,
    comment([
      "`#lazy/providers` in a bundle of the main entry: every provider and loop of the catalogue at hand, by static",
      "import, so that the bundle has no dynamic import.",
    ]),
    `import type { MessageFormat } from "../providers/catalog";`,
    ...imports.sort(),
    `import type { ProviderLoop, ToolProvider } from "../providers/provider";`,
    "",
    `export { toMCPTools } from "../mcp/format/tools";`,
    "",
    "const PROVIDERS: Readonly<Record<MessageFormat, ToolProvider>> = {",
    ...entries.map((entry) => `  ${key(entry.format)}: ${camel(entry.provider)} as ToolProvider,`),
    "};",
    "",
    "const LOOPS: Readonly<Partial<Record<MessageFormat, ProviderLoop>>> = {",
    ...entries.filter((entry) => entry.loop).map((entry) => `  ${key(entry.format)}: ${camel(entry.loop)} as ProviderLoop,`),
    "};",
    "",
    "/** The provider of `format`. */",
    "export function providerNow(format: MessageFormat): ToolProvider {",
    "  return PROVIDERS[format];",
    "}",
    "",
    "/** The loop of `format` (which has one). */",
    "export function loopNow(format: MessageFormat): ProviderLoop {",
    "  return LOOPS[format]!;",
    "}",
    "",
  ].join("\n");
}

function providersNode({ entries }) {
  const required = (module, name, as) => `(require("../providers/${module}") as typeof import("../providers/${module}")).${name} as ${as}`;
  return [
    MARK,
    comment([
      "`#lazy/providers` under Node: each provider and loop of the catalogue, required the first time it is used (an",
      "export method, a message of its format, the loop on its client), so that `require(\"tooltype\")` loads no",
      "provider it does not use. One literal `require` each: a bundler that reads the CommonJS build (a worker bundle)",
      "sees exactly these modules.",
    ]),
    `import type { MessageFormat } from "../providers/catalog";`,
    `import type { MCPTool } from "../mcp/format/wire";`,
    `import type { ProviderLoop, ToolFormatSource, ToolProvider } from "../providers/provider";`,
    "",
    "/* eslint-disable @typescript-eslint/no-require-imports */",
    "",
    "/** The provider of `format`, loaded now if it was not yet (Node caches each module). */",
    "export function providerNow(format: MessageFormat): ToolProvider {",
    "  switch (format) {",
    ...entries.flatMap((entry) => [`    case ${JSON.stringify(entry.format)}:`, `      return ${required(entry.provider, "provider", "ToolProvider")};`]),
    "  }",
    "}",
    "",
    "/** The loop of `format` (which has one), loaded now if it was not yet. */",
    "export function loopNow(format: MessageFormat): ProviderLoop {",
    "  switch (format) {",
    ...entries.filter((entry) => entry.loop).flatMap((entry) => [`    case ${JSON.stringify(entry.format)}:`, `      return ${required(entry.loop, "loop", "ProviderLoop")};`]),
    "    default:",
    "      throw new TypeError(`${format} has no loop.`);",
    "  }",
    "}",
    "",
    "/** MCP tool descriptors (a tool format rather than a provider), loaded the first time they are asked for. */",
    "export function toMCPTools(tools: Iterable<ToolFormatSource>): MCPTool[] {",
    `  return (require("../mcp/format/tools") as typeof import("../mcp/format/tools")).toMCPTools(tools);`,
    "}",
    "",
  ].join("\n");
}

function providersChunks({ entries, chat }) {
  return [
    MARK,
    comment([
      "The providers of the small entries' registries (`tooltype/core`, `tooltype/openai`, …), in every build: the",
      "provider of a format other than chat by `import()` the first time a message in it is met, so that bundlers split",
      "each provider into a chunk of its own and an app that speaks one API ships no other (under Node the `import()` is",
      "a `require` one step later). Once loaded a provider is at hand synchronously. The main entry never imports this",
      "file: its registry has every provider at hand (`#lazy/providers`).",
    ]),
    `import { CHAT_FORMAT, type MessageFormat, chatReader } from "../providers/catalog";`,
    `import type { CallReader } from "../providers/provider";`,
    "",
    "const loaded = new Map<MessageFormat, CallReader>([[CHAT_FORMAT, chatReader]]);",
    "",
    "/** The reader of `format`: at hand when it was loaded before, else a promise of it, its provider loading. */",
    "export function readerOnNeed(format: MessageFormat): CallReader | Promise<CallReader> {",
    "  return loaded.get(format) ?? load(format);",
    "}",
    "",
    "/** One literal `import()` per provider: bundlers see each one and split it into its own chunk. */",
    "function chunk(format: Exclude<MessageFormat, typeof CHAT_FORMAT>): Promise<{ provider: unknown }> {",
    "  switch (format) {",
    ...entries
      .filter((entry) => entry.format !== chat)
      .flatMap((entry) => [`    case ${JSON.stringify(entry.format)}:`, `      return import("../providers/${entry.provider}.js");`]),
    "  }",
    "}",
    "",
    "async function load(format: MessageFormat): Promise<CallReader> {",
    "  if (format === CHAT_FORMAT) return chatReader;",
    "  const provider = (await chunk(format)).provider as CallReader;",
    "  loaded.set(format, provider);",
    "  return provider;",
    "}",
    "",
  ].join("\n");
}

/** The method `method` of a registry class, its body `body`. */
function methodLines(method, body) {
  const overloads = method.overloads.flatMap((o) => [...o.doc, `${method.name}(${o.params.map((p) => p.text).join(", ")}): ${o.returns};`]);
  return [...overloads, ...method.doc, `${method.name}(${method.params.map((p) => p.text).join(", ")}): ${method.returns} {`, `  ${body}`, "}"];
}

const argsOf = (method) => ["this.list()", ...method.params.map((p) => p.name)].join(", ");

function toolRegistry({ entries }) {
  const methods = entries.map((entry) => ({ entry, method: exportMethod(folderOf(entry), entry.exportMethod) }));
  const imports = methods.flatMap(({ method }) => method.imports.map(({ type }) => type));
  return [
    MARK,
    comment([
      "`ToolRegistry`, the main `tooltype` entry's: the registry core (register, read, dispatch, approval, middleware)",
      "and the tools in every provider's format, one export method per format of the catalogue (the function of its",
      "name in the provider's tools.ts) and `toMCPTools`, every provider at hand (under Node each is required on its",
      "first use). The provider entries (`tooltype/openai`, …) each have a preset (presets/) with their own export",
      "methods only, loading the other providers on need, so that a bundle carries one provider.",
    ]),
    importLine(["CHAT_FORMAT", "MCPTool", "MessageFormat", ...imports], "../providers/catalog"),
    `import { providerNamed, toMCPTools } from "../providers/at-hand";`,
    `import type { CallReader } from "../providers/provider";`,
    `import { BaseToolRegistry } from "./core";`,
    "",
    `export type { RegisteredTool } from "../dispatch/options";`,
    `export { BaseToolRegistry } from "./core";`,
    "",
    comment([
      "The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static",
      "ones), export them in each provider's format (`toOpenAITools()`, …), and run a reply's calls with `dispatch`, one",
      "answer per call.",
    ]),
    "export class ToolRegistry extends BaseToolRegistry {",
    ...indent([
      "/** Every provider is loaded with this entry: answered at once. @internal */",
      "protected providerFor(format: Exclude<MessageFormat, typeof CHAT_FORMAT>): CallReader {",
      "  return providerNamed(format);",
      "}",
      ...methods.flatMap(({ entry, method }) => [
        "",
        ...methodLines(method, `return providerNamed(${JSON.stringify(entry.format)}).exportTools(${argsOf(method)}) as ${method.returns};`),
      ]),
      "",
      "/** MCP tool descriptors for `tools/list`: `inputSchema`, and `outputSchema` from an object return type. */",
      "toMCPTools(): MCPTool[] {",
      "  return toMCPTools(this.list());",
      "}",
    ]),
    "}",
    "",
  ].join("\n");
}

/** The catalogue's entries with an entry of their own, each with the formats of its folder (whose methods its preset has). */
function providerEntries({ entries }) {
  return entries
    .filter((entry) => entry.entry)
    .map((entry) => ({ ...entry.entry, folder: folderOf(entry), formats: [entry, ...entries.filter((other) => other !== entry && folderOf(other) === folderOf(entry))] }));
}

const methodList = (names) => (names.length === 1 ? `\`${names[0]}\`` : `${names.slice(0, -1).map((n) => `\`${n}\``).join(", ")} and \`${names.at(-1)}\``);

function preset(small) {
  const methods = small.formats.map((entry) => exportMethod(small.folder, entry.exportMethod));
  return [
    MARK,
    comment([
      `\`${small.preset}\`, the \`ToolRegistry\` of the \`tooltype/${small.name}\` entry: the registry core with the export`,
      `methods of ${small.api} only, so that an app speaking that API bundles no other provider's code. Messages of`,
      "another format still dispatch: their provider is loaded on first need (CoreToolRegistry).",
    ]),
    ...typeImports(methods.flatMap((method) => method.imports), (module) => `../../providers/${module}`),
    `import { ${methods.map((method) => method.name).sort().join(", ")} } from "../../providers/${small.folder}/tools";`,
    `import { CoreToolRegistry } from "./core";`,
    "",
    comment([
      "The tools a model may call: register them (`tool()` values, objects with `@tool` methods, classes with static",
      `ones), export them in the format of ${small.api}, and run a reply's calls with \`dispatch\`, one answer per`,
      "call. The main `tooltype` entry's `ToolRegistry` has the same core and every provider's export methods.",
    ]),
    `export class ${small.preset} extends CoreToolRegistry {`,
    ...indent(methods.flatMap((method, i) => [...(i > 0 ? [""] : []), ...methodLines(method, `return ${method.name}(${argsOf(method)});`)])),
    "}",
    "",
  ].join("\n");
}

function entryFile(small) {
  const names = small.formats.map((entry) => entry.exportMethod);
  return [
    MARK,
    comment([
      `\`tooltype/${small.name}\`: the smallest way in for an app on ${small.api}: the core (\`tooltype/core\`), the`,
      `API's types and a \`ToolRegistry\` whose export method${names.length > 1 ? "s are" : " is"} ${methodList(names)} only. A bundle of it carries no`,
      "other provider; a message of another format still dispatches (its provider is loaded on first need).",
      "",
      `@module tooltype/${small.name}`,
    ]),
    `export * from "./core";`,
    `export { ${small.preset} as ToolRegistry } from "../registry/presets/${small.folder}";`,
    `export * from "../providers/${small.folder}/index";`,
    "",
  ].join("\n");
}

function providerTypes({ entries }) {
  const folders = [...new Set(entries.map(folderOf))].filter((folder) => fs.existsSync(path.join(root, "runtime/providers", folder, "index.ts")));
  return [
    MARK,
    comment([
      "The public types (and values) of every provider of the catalogue, each its folder's index.ts, for the main",
      "entry (index.ts); a provider entry exports its own.",
    ]),
    ...folders.map((folder) => `export * from "../providers/${folder}/index";`),
    "",
  ].join("\n");
}

/** The files this script wrote before that the catalogue no longer asks for (a provider removed). */
function leftBehind(written) {
  const stale = [];
  for (const dir of ["runtime/entries", "runtime/registry/presets"]) {
    for (const name of fs.readdirSync(path.join(root, dir))) {
      const rel = `${dir}/${name}`;
      if (!written.has(rel) && read(rel).startsWith(MARK)) stale.push(rel);
    }
  }
  return stale;
}

/** `record` with the keys `generated` (in their order) in place of those `isGenerated` picks, put where the first was or after `after`. */
function placed(record, isGenerated, generated, after) {
  const out = {};
  let done = false;
  const put = () => {
    if (done) return;
    done = true;
    Object.assign(out, generated);
  };
  for (const [key, value] of Object.entries(record)) {
    if (isGenerated(key)) {
      put();
      continue;
    }
    out[key] = value;
    if (key === after) put();
  }
  put();
  return out;
}

function packageJson(smalls, stale) {
  const manifest = JSON.parse(read("package.json"));
  const names = new Set([...smalls.map((small) => small.name), ...stale.filter((rel) => rel.startsWith("runtime/entries/")).map((rel) => path.basename(rel, ".ts"))]);
  const exportsOf = (name) => ({
    types: `./dist/runtime/entries/${name}.d.ts`,
    // Workers bundlers ask for workerd, worker, browser and not module: they get the ES module build too.
    workerd: `./dist/esm/runtime/entries/${name}.js`,
    module: `./dist/esm/runtime/entries/${name}.js`,
    default: `./dist/runtime/entries/${name}.js`,
  });
  manifest.exports = placed(manifest.exports, (key) => names.has(key.slice(2)), Object.fromEntries(smalls.map((small) => [`./${small.name}`, exportsOf(small.name)])), "./core");
  manifest.typesVersions["*"] = placed(
    manifest.typesVersions["*"],
    (key) => names.has(key),
    Object.fromEntries(smalls.map((small) => [small.name, [`./dist/runtime/entries/${small.name}.d.ts`]])),
    "core",
  );
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function typedocJson(smalls, stale) {
  const config = JSON.parse(read("typedoc.json"));
  const generated = new Set([...smalls.map((small) => `runtime/entries/${small.name}.ts`), ...stale]);
  const kept = config.entryPoints.filter((entry) => !generated.has(entry));
  const at = kept.indexOf("runtime/entries/core.ts") + 1;
  config.entryPoints = [...kept.slice(0, at), ...smalls.map((small) => `runtime/entries/${small.name}.ts`), ...kept.slice(at)];
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Every file this script writes, by path from the repository's root, with its text; and the files it would remove. */
export function generate() {
  const catalogue = readCatalogue();
  const files = new Map([
    ["runtime/lazy/providers.bundle.ts", providersBundle(catalogue)],
    ["runtime/lazy/providers.node.ts", providersNode(catalogue)],
    ["runtime/lazy/providers.chunks.ts", providersChunks(catalogue)],
    ["runtime/registry/tool-registry.ts", toolRegistry(catalogue)],
    ["runtime/entries/provider-types.ts", providerTypes(catalogue)],
  ]);
  const smalls = providerEntries(catalogue);
  for (const small of smalls) {
    files.set(`runtime/registry/presets/${small.folder}.ts`, preset(small));
    files.set(`runtime/entries/${small.name}.ts`, entryFile(small));
  }
  const stale = leftBehind(files);
  files.set("package.json", packageJson(smalls, stale));
  files.set("typedoc.json", typedocJson(smalls, stale));
  return { files, stale };
}

/** The files that differ from what `generate` writes (or that it would remove). */
export function drift() {
  const { files, stale } = generate();
  const differ = [...files].filter(([rel, text]) => !fs.existsSync(path.join(root, rel)) || read(rel) !== text).map(([rel]) => rel);
  return [...differ, ...stale];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const differ = drift();
    if (differ.length > 0) {
      console.error(`These files are not what the catalogue says; run node scripts/providers.mjs:\n${differ.join("\n")}`);
      process.exit(1);
    }
  } else {
    const { files, stale } = generate();
    for (const [rel, text] of files) if (!fs.existsSync(path.join(root, rel)) || read(rel) !== text) fs.writeFileSync(path.join(root, rel), text);
    for (const rel of stale) fs.rmSync(path.join(root, rel));
  }
}
