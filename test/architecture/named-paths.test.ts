/**
 * Paths written in prose stay true: every repository path a comment names (in the runtime, the transformer, the
 * scripts, the tests, the benchmarks, the examples and the configuration files at the root), and every one an error
 * text or other string of the runtime,
 * the transformer or the scripts names, exists; and every link to a documentation page in such text leads to an
 * existing page and heading. A rename or a move that leaves a stale path behind fails here, with the file, line
 * and path to fix (or, where an import already says which file is meant, the path to delete).
 *
 * How a written path is resolved (it names a repository file or folder when its first folder is one):
 * - `runtime/…`, `transformer/…`, `test/…`, `docs/…` and the other top-level folders: from the repository root;
 * - `./name.ts`, `../name.ts`: from the file's own folder (in the runtime, the transformer and the scripts);
 * - `dispatch/`, `support/hang.ts`: from the file's folder or any folder above it (how comments shorten paths inside
 *   runtime/ or test/), and for a test also from runtime/ and transformer/, which test/ mirrors;
 * - a bare `name.ts` in the runtime, the transformer or the scripts: a file of that name somewhere in the repository
 *   (in tests and benchmarks a bare name is mostly a file the test writes, so it is not checked);
 * - `dist/…`, `.test-build/…` and the other build outputs: the source they are built from;
 * - `name.js` also names `name.ts` (a compiled name), and globs are checked up to their first wildcard;
 * - placeholders (`x.ts`, `./x`) and suffixes (`.d.ts`) name no file;
 * - `#lazy/<name>`, a package import, names its loader: runtime/lazy/<name>.node.ts must exist.
 * Other slashed words (`tooltype/register`, `src/app.ts` of a project a test writes, `5.x/`) name no repository
 * folder and are left alone.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import ts from "typescript";
import { anchors, pages, slug } from "../docs/markdown";

const repo = path.resolve(__dirname, "../../..");

/** Folders whose sources are read, and whether their string literals count as prose too (error texts). */
const SCANNED: [folder: string, strings: boolean][] = [
  ["runtime", true],
  ["transformer", true],
  ["scripts", true],
  ["test", false],
  ["bench", false],
  ["examples", false],
];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** What the build writes, and where its sources are: `dist/esm/runtime/entries/index.js` is built from `runtime/entries/index.ts`. */
const BUILT = /^(?:dist\/(?:esm\/)?|\.test-build\/|\.bench-build\/|\.example-build\/)/;
const NOT_OURS = new Set(["node_modules", ".git", "dist", ".test-build", ".bench-build", ".example-build"]);

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!NOT_OURS.has(entry.name)) yield* sources(full);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) yield full;
  }
}

/** Every file name in the repository's own folders, for bare names. */
const basenames = new Set<string>();
for (const entry of fs.readdirSync(repo, { withFileTypes: true })) {
  if (NOT_OURS.has(entry.name)) continue;
  if (!entry.isDirectory()) basenames.add(entry.name);
  else {
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) {
          if (!NOT_OURS.has(e.name)) walk(path.join(dir, e.name));
        } else basenames.add(e.name);
      }
    };
    walk(path.join(repo, entry.name));
  }
}

interface Prose {
  file: string;
  line: number;
  text: string;
  /** A string literal (an error text, a hint), not a comment. */
  literal: boolean;
}

/** The comments of a source file, and its string literals other than module specifiers when `strings`. */
function prose(file: string, strings: boolean): Prose[] {
  const text = fs.readFileSync(file, "utf8");
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: Prose[] = [];
  const seen = new Set<number>();
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line + 1;
  const comments = (ranges: ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      found.push({ file, line: lineOf(range.pos), text: text.slice(range.pos, range.end), literal: false });
    }
  };
  const visit = (node: ts.Node): void => {
    comments(ts.getLeadingCommentRanges(text, node.getFullStart()));
    comments(ts.getTrailingCommentRanges(text, node.getEnd()));
    if (
      strings &&
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node))
    ) {
      const parent = node.parent;
      const specifier =
        ts.isImportDeclaration(parent) ||
        ts.isExportDeclaration(parent) ||
        ts.isExternalModuleReference(parent) ||
        ts.isLiteralTypeNode(parent) ||
        (ts.isCallExpression(parent) &&
          (parent.expression.kind === ts.SyntaxKind.ImportKeyword ||
            (ts.isIdentifier(parent.expression) && parent.expression.text === "require")));
      if (!specifier) found.push({ file, line: lineOf(node.getStart()), text: node.text, literal: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  comments(ts.getLeadingCommentRanges(text, source.getEnd()));
  return found;
}

/** Words that may be paths: with a slash, or a file name with an extension. */
const WORD =
  /(?<![\w@./:*#-])(\.{0,2}\/?(?:[\w.*@-]+\/)+[\w.*-]*|[\w.-]+\.(?:ts|tsx|mts|cts|js|mjs|cjs|md|json))(?![\w/-])/g;

/** Extensions a written path may leave out (`dispatch/pipeline`, a module path as an import writes it). */
const LEFT_OUT = ["", ".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".test.ts", "/index.ts"];

function exists(full: string): boolean {
  if (LEFT_OUT.some((ext) => fs.existsSync(full + ext))) return true;
  // A compiled name also names its source.
  const compiled = /\.(js|mjs|cjs|d\.ts)$/.exec(full);
  if (!compiled) return false;
  const stem = full.slice(0, -compiled[0].length);
  const from = { ".js": [".ts", ".tsx"], ".mjs": [".mts"], ".cjs": [".cts"], ".d.ts": [".ts"] }[compiled[0]]!;
  return from.some((ext) => fs.existsSync(stem + ext));
}

/**
 * Folders a written path may start from: the file's own folder and each one above it, up to the repository; for a
 * test, also runtime/ and transformer/, whose folders test/ mirrors.
 */
function bases(file: string): string[] {
  const found: string[] = [];
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    found.push(dir);
    if (dir === repo || dir === path.dirname(dir)) break;
  }
  if (path.relative(repo, file).startsWith(`test${path.sep}`))
    found.push(path.join(repo, "runtime"), path.join(repo, "transformer"));
  return found;
}

const TOP = new Set(fs.readdirSync(repo).filter((name) => !NOT_OURS.has(name)));

/** Why `word`, written in `file`, names no existing repository path; undefined when it does or is no such path. */
function stale(file: string, word: string, literal: boolean): string | undefined {
  let written = word.replace(/[.:]+$/, "");
  if (written.includes("node_modules")) return undefined;
  // Up to a wildcard or a placeholder (`test/**/*.test.ts`, `test/providers/<api>.test.ts`): the folder part.
  const wild = written.search(/[*<{]/);
  if (wild >= 0) written = written.slice(0, written.lastIndexOf("/", wild) + 1);
  if (written === "" || written === "/" || written.startsWith("/")) return undefined;
  // A placeholder (`x.ts`, `./x`, `src/x.ts`) or a suffix (`.d.ts`, `.tooltype.json`) names no file.
  const last = written.split("/").filter(Boolean).at(-1) ?? "";
  if (/^\w(\.|$)/.test(last) || last.startsWith(".")) return undefined;
  if (BUILT.test(written)) {
    written = written.replace(BUILT, "");
    if (!TOP.has(written.split("/")[0]!)) return undefined;
    if (!written.includes("/")) return undefined; // `dist/runtime`: the folder the build writes.
  }
  if (!written.includes("/")) {
    // A bare file name: checked where it can only be a repository file.
    const area = path.relative(repo, file).split(path.sep)[0]!;
    if (literal || !["runtime", "transformer", "scripts"].includes(area)) return undefined;
    if (/^[A-Z]/.test(written) && written.endsWith(".js")) return undefined; // Next.js, Node.js
    const named = [written, written.replace(/\.js$/, ".ts"), written.replace(/\.mjs$/, ".mts")];
    return named.some((name) => basenames.has(name)) ? undefined : "no file of that name in the repository";
  }
  if (written.startsWith("./") || written.startsWith("../")) {
    // In a test, `./tools.mjs` is mostly a file of the project the test writes; in a usage text, the user's file.
    if (literal || !["runtime", "transformer", "scripts"].includes(path.relative(repo, file).split(path.sep)[0]!))
      return undefined;
    return exists(path.resolve(path.dirname(file), written))
      ? undefined
      : `not found from ${path.relative(repo, path.dirname(file)) || "."}/`;
  }
  const first = written.split("/")[0]!;
  const starts = bases(file).filter(
    (base) => fs.existsSync(path.join(base, first)) && fs.statSync(path.join(base, first)).isDirectory(),
  );
  if (starts.length === 0) return undefined; // Not a repository folder: a package name, a project a test writes.
  if (starts.some((base) => exists(path.join(base, written)))) return undefined;
  return `not found under ${starts.map((base) => `${path.relative(repo, base) || "."}/`).join(" or ")}`;
}

/** A link to a documentation page (`docs/building.md#with-tspc`, `README.md#install`), with where it points. */
const DOC_LINK = /(?<![\w/-])((?:\.\.\/)*(?:docs\/[\w/-]+\.md|README\.md))(?:#([\w-]+))?/g;
/** A section named in quotes after its page: `README: "Install"`, `docs/marking-tools.md, "Wrapping tool()"`. */
const DOC_SECTION = /\b(README(?:\.md)?|docs\/[\w/-]+\.md)(?: section)?[:,] "([^"]+)"/g;
const documentation = new Set(pages());

function brokenDocLinks(item: Prose): string[] {
  const broken: string[] = [];
  for (const m of item.text.matchAll(DOC_LINK)) {
    const page = m[1]!.replace(/^(\.\.\/)+/, "");
    if (!documentation.has(page)) broken.push(`${m[0]}: no page ${page}`);
    else if (m[2] !== undefined && !anchors(page).has(m[2])) broken.push(`${m[0]}: ${page} has no heading #${m[2]}`);
  }
  for (const m of item.text.matchAll(DOC_SECTION)) {
    const page = m[1]!.startsWith("README") ? "README.md" : m[1]!;
    if (!documentation.has(page)) broken.push(`${m[0]}: no page ${page}`);
    else if (!anchors(page).has(slug(m[2]!))) broken.push(`${m[0]}: ${page} has no heading "${m[2]}"`);
  }
  // The README's guides moved to docs/: a user sent to "the README" without a section is sent to the wrong page.
  if (item.literal && /\bREADME\b/.test(item.text.replace(DOC_LINK, "").replace(DOC_SECTION, ""))) {
    broken.push(
      `"${item.text.slice(0, 80)}…" sends the user to the README without a page and section: link the docs/*.md page and its #heading`,
    );
  }
  return broken;
}

/** Configuration files at the root whose comments name paths too. */
const ROOT_FILES = fs
  .readdirSync(repo)
  .filter((name) => SOURCE.test(name))
  .map((name) => path.join(repo, name));

const everything = [
  ...SCANNED.flatMap(([folder, strings]) =>
    [...sources(path.join(repo, folder))].flatMap((file) => prose(file, strings)),
  ),
  ...ROOT_FILES.flatMap((file) => prose(file, false)),
];

test("the scan reads the comments and the error texts it is meant to", () => {
  // Guards against a scan that finds nothing and so passes: known comments and an error text are among what it read.
  const where = (file: string, literal: boolean, needle: string): boolean =>
    everything.some((p) => p.file === path.join(repo, file) && p.literal === literal && p.text.includes(needle));
  assert.ok(where("runtime/validation/patterns/step-budget.ts", false, "pattern-guard.ts"));
  assert.ok(where("runtime/registry/core.ts", true, "has no compiled metadata"));
  assert.ok(everything.filter((p) => !p.literal).length > 1000, `${everything.length} pieces of prose`);
});

test("the path rules tell a stale path from a true one and from words that are no paths", () => {
  const file = path.join(repo, "runtime", "dispatch", "pipeline.ts");
  assert.is(stale(file, "runtime/validation/patterns/step-budget.ts", false), undefined);
  assert.is(stale(file, "validation/patterns/step-budget.ts", false), undefined);
  assert.is(stale(file, "step-budget.ts", false), undefined);
  assert.is(stale(file, "dist/esm/runtime/validation/patterns/step-budget.js", false), undefined);
  assert.is(stale(file, "test/**/*.test.ts", false), undefined);
  assert.is(stale(file, "tooltype/register", false), undefined);
  assert.is(stale(file, "Next.js", false), undefined);
  assert.ok(stale(file, "arguments/step-budgets.ts", false));
  assert.ok(stale(file, "runtime/arguments/gone/", false));
  assert.ok(stale(file, "step-budgets.ts", false));
  assert.ok(stale(file, "./nothing-here.ts", false));
  assert.ok(
    brokenDocLinks({ file, line: 1, literal: true, text: "see docs/marking-tools.md#no-such-heading" }).length === 1,
  );
  assert.ok(brokenDocLinks({ file, line: 1, literal: true, text: 'see README: "No such section"' }).length === 1);
  assert.ok(brokenDocLinks({ file, line: 1, literal: true, text: "see the README" }).length === 1);
  assert.is(brokenDocLinks({ file, line: 1, literal: true, text: "see README.md#install" }).length, 0);
  assert.is(
    brokenDocLinks({
      file,
      line: 1,
      literal: true,
      text: 'see docs/marking-tools.md#wrapping-tool and docs/marking-tools.md, "Wrapping tool()"',
    }).length,
    0,
  );
});

test("every repository path a comment or an error text names exists", () => {
  const found: string[] = [];
  for (const item of everything) {
    for (const m of item.text.matchAll(WORD)) {
      const why = stale(item.file, m[1]!, item.literal);
      if (why) found.push(`${path.relative(repo, item.file)}:${item.line}: ${m[1]} (${why})`);
    }
    for (const m of item.text.matchAll(/#lazy\/([a-z0-9-]+)/g)) {
      if (!fs.existsSync(path.join(repo, "runtime", "lazy", `${m[1]}.node.ts`)))
        found.push(`${path.relative(repo, item.file)}:${item.line}: ${m[0]} (no runtime/lazy/${m[1]}.node.ts)`);
    }
  }
  assert.equal(
    found,
    [],
    `Stale paths; fix each, or drop it where an import already says which file is meant:\n${found.join("\n")}`,
  );
});

test("every documentation link in a comment or an error text leads to a page and a heading", () => {
  const found = everything.flatMap((item) =>
    brokenDocLinks(item).map((why) => `${path.relative(repo, item.file)}:${item.line}: ${why}`),
  );
  assert.equal(found, [], found.join("\n"));
});

test.run();
