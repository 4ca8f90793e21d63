// Writes the three provider loaders (runtime/lazy/providers.*) from the catalogue (docs/design.md, "The catalogue").
// `--check` writes nothing and fails, naming the files, when one differs from what it would write.
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const ts = require("typescript");

/** The first line of every file this script writes. */
export const MARK =
  "// Written by scripts/providers.mjs from the catalogue (runtime/providers/catalog.ts): run it again, do not edit.";

const read = (rel) => fs.readFileSync(path.join(root, rel), "utf8");

/** A literal of the catalogue as a value: strings, numbers, arrays and objects of them; anything else is left out. */
function literal(node) {
  while (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
    node = node.expression;
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
  const file = ts.createSourceFile(
    "catalog.ts",
    read("runtime/providers/catalog.ts"),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TS,
  );
  const constants = new Map();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer)
        constants.set(declaration.name.text, declaration.initializer);
    }
  }
  const entries = literal(constants.get("CATALOG"));
  const chat = literal(constants.get("CHAT_FORMAT"));
  for (const entry of entries) {
    for (const field of ["format", "provider"]) {
      if (typeof entry[field] !== "string")
        throw new Error(
          `runtime/providers/catalog.ts: an entry has no literal \`${field}\` (${JSON.stringify(entry)}).`,
        );
    }
  }
  return { entries, chat };
}

/** `openai-chat/functions` → `openaiChatFunctions`: a name for a module's import. */
const camel = (module) => module.replace(/[-/]([a-z0-9])/g, (_, c) => c.toUpperCase());

/** A TSDoc comment of `lines` (one paragraph), wrapped at 117 columns. */
function comment(lines) {
  const wrapped = [];
  let line = "";
  for (const word of lines.join(" ").split(" ")) {
    if (line && line.length + 1 + word.length > 114) {
      wrapped.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  wrapped.push(line);
  return ["/**", ...wrapped.map((text) => ` * ${text}`), " */"].join("\n");
}

/** A key of an object literal: bare where it can be. */
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

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
    ...entries
      .filter((entry) => entry.loop)
      .map((entry) => `  ${key(entry.format)}: ${camel(entry.loop)} as ProviderLoop,`),
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
  const required = (module, name, as) =>
    `(require("../providers/${module}") as typeof import("../providers/${module}")).${name} as ${as}`;
  return [
    MARK,
    comment([
      "`#lazy/providers` under Node: each provider and loop of the catalogue, required the first time it is used (an",
      'export method, a message of its format, the loop on its client), so that `require("tooltype")` loads no',
      "provider it does not use. One literal `require` each: a bundler that reads the CommonJS build (a worker bundle)",
      "sees exactly these modules.",
    ]),
    `import type { MessageFormat } from "../providers/catalog";`,
    `import type { MCPTool } from "../mcp/format/wire";`,
    `import type { ProviderLoop, ToolFormatSource, ToolProvider } from "../providers/provider";`,
    "",
    "",
    "/** The provider of `format`, loaded now if it was not yet (Node caches each module). */",
    "export function providerNow(format: MessageFormat): ToolProvider {",
    "  switch (format) {",
    ...entries.flatMap((entry) => [
      `    case ${JSON.stringify(entry.format)}:`,
      `      return ${required(entry.provider, "provider", "ToolProvider")};`,
    ]),
    "  }",
    "}",
    "",
    "/** The loop of `format` (which has one), loaded now if it was not yet. */",
    "export function loopNow(format: MessageFormat): ProviderLoop {",
    "  switch (format) {",
    ...entries
      .filter((entry) => entry.loop)
      .flatMap((entry) => [
        `    case ${JSON.stringify(entry.format)}:`,
        `      return ${required(entry.loop, "loop", "ProviderLoop")};`,
      ]),
    "    default:",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of generated code, a template literal in it
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
      .flatMap((entry) => [
        `    case ${JSON.stringify(entry.format)}:`,
        `      return import("../providers/${entry.provider}.js");`,
      ]),
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

/** Every file this script writes, by path from the repository's root, with its text. */
export function generate() {
  const catalogue = readCatalogue();
  return new Map([
    ["runtime/lazy/providers.bundle.ts", providersBundle(catalogue)],
    ["runtime/lazy/providers.node.ts", providersNode(catalogue)],
    ["runtime/lazy/providers.chunks.ts", providersChunks(catalogue)],
  ]);
}

/** The files that differ from what `generate` writes. */
export function drift() {
  return [...generate()]
    .filter(([rel, text]) => !fs.existsSync(path.join(root, rel)) || read(rel) !== text)
    .map(([rel]) => rel);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // test/architecture/catalog.test.ts runs the same check.
  if (process.argv.includes("--check")) {
    const differ = drift();
    if (differ.length > 0) {
      console.error(
        `These files are not what the catalogue says; run node scripts/providers.mjs:\n${differ.join("\n")}`,
      );
      process.exit(1);
    }
  } else {
    for (const [rel, text] of generate())
      if (!fs.existsSync(path.join(root, rel)) || read(rel) !== text) fs.writeFileSync(path.join(root, rel), text);
  }
}
