// Run after the CommonJS compile of the runtime (npm run build): writes each entry's form as Node loads it from the
// entry's own source, so that its exports are listed once (docs/design.md, "Loading on first need").
// Usage: node scripts/node-entries.mjs [build folder, default dist]
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const ts = require("typescript");
const { exports: packageExports } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
/** The CommonJS build to write into: dist/, or the test build (scripts/build-tests.mjs), laid out the same. */
const build = path.resolve(root, process.argv[2] ?? "dist");
const NODE_FORM = /^\.\/dist\/runtime\/entries\/([a-z0-9-]+)\.node\.js$/;
const AT_START = "at start under Node";

/** The entries whose Node form package.json names: `[name, target]`. */
function nodeEntries() {
  const found = [];
  for (const entry of Object.values(packageExports)) {
    const target = typeof entry === "object" && entry !== null ? entry.default : undefined;
    const match = typeof target === "string" ? NODE_FORM.exec(target) : null;
    if (match) found.push([match[1], path.join(build, target.slice("./dist/".length))]);
  }
  return found;
}

/** The value exports of `source` (a file of runtime/entries/), by module: `{ specifier, names: [exported, own][], atStart }`. */
function exportsOf(source) {
  const text = fs.readFileSync(source, "utf8");
  const file = ts.createSourceFile(source, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const built = path.join(build, path.relative(root, path.dirname(source)));
  const groups = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement))
      throw new Error(`${path.relative(root, source)}: an entry re-exports only (${statement.getText(file)}).`);
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly) continue;
    if (!statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier))
      throw new Error(
        `${path.relative(root, source)}: an entry re-exports from a module only (${statement.getText(file)}).`,
      );
    const specifier = statement.moduleSpecifier.text;
    const clause = statement.exportClause;
    let names;
    if (clause === undefined) {
      // `export *`: the names of the built module's values.
      names = Object.keys(require(path.join(built, specifier)))
        .filter((name) => name !== "__esModule" && name !== "default")
        .map((name) => [name, name]);
    } else if (ts.isNamedExports(clause)) {
      names = clause.elements
        .filter((element) => !element.isTypeOnly)
        .map((element) => [element.name.text, (element.propertyName ?? element.name).text]);
    } else
      throw new Error(
        `${path.relative(root, source)}: \`export * as\` is not supported in an entry (${statement.getText(file)}).`,
      );
    const trailing = ts.getTrailingCommentRanges(text, statement.end) ?? [];
    const atStart = trailing.some((range) => text.slice(range.pos, range.end).includes(AT_START));
    if (names.length > 0) groups.push({ specifier, names, atStart });
  }
  return groups;
}

/**
 * The Node form of entry `name` (package.json "exports": a "default" target `dist/runtime/entries/<name>.node.js`,
 * written from `runtime/entries/<name>.ts`, typed by that file's declarations, bundled from its ES module build).
 * A value's module is required on the first read of that value, which is then kept, so later reads cost a property
 * lookup: a compiled tool's `require("tooltype/kit")` loads no check it does not read. Each export is written as
 * `Object.defineProperty(exports, "name", { enumerable: true, get: function () { return x.name; } })`, the form Node's
 * detection of CommonJS exports (cjs-module-lexer) reads, so that an ES module's `import { runTools } from "tooltype/loop"`
 * sees every name.
 */
function nodeForm(name, source) {
  const groups = exportsOf(source);
  const relative = path.relative(root, source);
  const lines = [
    '"use strict";',
    `// \`${relative}\` as Node loads it, written by scripts/node-entries.mjs: the same values under the same names, each`,
    "// module other than those marked to load at start required on the first read of one of its values.",
    'Object.defineProperty(exports, "__esModule", { value: true });',
    "/** Each value read later, required from its module on its first read, then kept as a plain property. */",
    "const later = {};",
    "function deferred(names, load) {",
    "    for (const [name, own] of names) {",
    "        Object.defineProperty(later, name, { configurable: true, enumerable: true, get: () => {",
    "            const value = load()[own];",
    "            Object.defineProperty(later, name, { value, enumerable: true });",
    "            return value;",
    "        } });",
    "    }",
    "}",
  ];
  const seen = new Set();
  const getters = [];
  // The modules required with the entry first, in the source's order, then the getters of the others.
  const ordered = [...groups.filter((group) => group.atStart), ...groups.filter((group) => !group.atStart)];
  ordered.forEach((group, index) => {
    const names = group.names.filter(([exported]) => !seen.has(exported));
    for (const [exported] of names) seen.add(exported);
    if (names.length === 0) return;
    if (group.atStart) {
      lines.push(`const atStart${index} = require(${JSON.stringify(group.specifier)});`);
      for (const [exported, own] of names)
        getters.push(
          `Object.defineProperty(exports, ${JSON.stringify(exported)}, { enumerable: true, get: function () { return atStart${index}.${own}; } });`,
        );
    } else {
      lines.push(`deferred(${JSON.stringify(names)}, () => require(${JSON.stringify(group.specifier)}));`);
      for (const [exported] of names)
        getters.push(
          `Object.defineProperty(exports, ${JSON.stringify(exported)}, { enumerable: true, get: function () { return later.${exported}; } });`,
        );
    }
  });
  if (getters.length === 0)
    throw new Error(`${relative} exports no value: nothing to write for its Node form ${name}.node.js.`);
  return `${[...lines, ...getters].join("\n")}\n`;
}

for (const [name, target] of nodeEntries()) {
  const source = path.join(root, "runtime", "entries", `${name}.ts`);
  if (!fs.existsSync(source))
    throw new Error(
      `package.json names dist/runtime/entries/${name}.node.js, but runtime/entries/${name}.ts, its source, does not exist.`,
    );
  fs.writeFileSync(target, nodeForm(name, source));
}
