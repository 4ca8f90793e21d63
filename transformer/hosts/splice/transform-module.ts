/**
 * Transforms one TypeScript module for a bundler: runs tooltype's transformer (the very one tspc runs) on the
 * module's SourceFile from the shared project, and splices only what it added (the metadata arguments of
 * `tool(...)`, `@tool` and `structuredOutput<T>()`, and the `tooltype/kit` import its validators read) into the
 * module's original text. Everything else stays
 * byte for byte, so the bundler's own TypeScript handling goes on as before and a source map of pure insertions
 * stays right. The one rewrite: a compiled `@tool` decorator becomes a static block after its method
 * (`methodRegistration`), since bundlers differ in what they do with decorators and Node parses none.
 *
 * Owns: the splice, the source map, and the files a module's schemas may depend on (for
 * watch mode). Diagnostics become positions in the hosts' diagnostics format.
 */
import type * as ts from "typescript";
import type { TS } from "../../compat";
import { isDirective } from "../../emit";
import { dependenciesOf } from "../project/dependencies";
import { hostDiagnostic } from "../diagnostic-format";
import type { ProjectService } from "../project/language-service";
import { transformerFor } from "./program-transformer";
import { type ModuleResult, spliceText } from "./splice";
import { TypeScript7Project } from "../project/typescript-7";

export type { ModuleResult } from "./splice";

/** The project a module is read in: a language service on the JavaScript API, or a TypeScript 7 session. */
export type ModuleProject = ProjectService | TypeScript7Project;

/** The last result per module, with what it was made from: the module's text and its dependencies' versions. */
const results = new WeakMap<ModuleProject, Map<string, { code: string; fingerprint: string; result: ModuleResult }>>();

/**
 * The module transformed, or its last result when neither its text nor any file it depends on changed since
 * (the transform is a function of those): a rebuild re-transforms only what a change can reach.
 */
export function transformModule(project: ModuleProject, fileName: string, code: string): ModuleResult {
  let cache = results.get(project);
  if (!cache) results.set(project, (cache = new Map()));
  const last = cache.get(fileName);
  if (last && last.code === code && last.fingerprint === project.fingerprint(last.result.dependencies))
    return last.result;
  const result =
    project instanceof TypeScript7Project ? project.transform(fileName, code) : transformAgain(project, fileName, code);
  cache.set(fileName, { code, fingerprint: project.fingerprint(result.dependencies), result });
  return result;
}

function transformAgain(project: ProjectService, fileName: string, code: string): ModuleResult {
  const tsi = project.ts;
  const program = project.program(fileName, code);
  const source = program.getSourceFile(fileName.split("\\").join("/"));
  if (!source) throw new Error(`tooltype: ${fileName} is not part of the TypeScript program of ${project.tsconfig}.`);

  const transformer = transformerFor(program, project.plugin, tsi, project.validators, true);
  const result = tsi.transform(source, [transformer.factory], program.getCompilerOptions());
  const diagnostics = transformer.sink.map((d) => hostDiagnostic(tsi, d));
  const edits: Edit[] = [];
  try {
    const transformed = result.transformed[0]!;
    collectEdits(tsi, transformed, edits);
    addedImports(tsi, source, transformed, edits);
  } finally {
    result.dispose();
  }
  const dependencies = dependenciesOf(tsi, program, source);
  if (edits.length === 0) return { code: undefined, map: undefined, diagnostics, dependencies };

  const printer = tsi.createPrinter({ newLine: tsi.NewLineKind.LineFeed });
  const textEdits = edits.map((edit) => {
    const args = edit.args
      .map((a) =>
        printer.printNode(tsi.isExpression(a) ? tsi.EmitHint.Expression : tsi.EmitHint.Unspecified, a, source),
      )
      .join(", ");
    return { at: edit.at, text: `${edit.before}${args}${edit.after}`, remove: edit.remove };
  });
  return { ...spliceText(code, fileName, textEdits), diagnostics, dependencies };
}

/** Arguments (or a statement) the transformer added, and where in the original text they go. */
interface Edit {
  at: number;
  before: string;
  args: (ts.Expression | ts.Statement)[];
  after: string;
  /** Original text the edit replaces (a `@tool` decorator, written out as a static block instead). */
  remove?: { start: number; end: number };
}

/**
 * Imports the transformer added to the file (`tooltype/kit`, see `withKitImport`): written on the first
 * line after the directive prologue and any `#!` line, without a line break, so the lines below keep their numbers.
 */
function addedImports(tsi: TS, source: ts.SourceFile, transformed: ts.SourceFile, edits: Edit[]): void {
  const added = transformed.statements.filter(
    (statement) => tsi.isImportDeclaration(statement) && tsi.getOriginalNode(statement).pos < 0,
  );
  if (added.length === 0) return;
  let at = 0;
  for (const statement of source.statements) {
    if (!isDirective(tsi, statement)) break;
    at = statement.end;
  }
  const text = source.text;
  // A directive may end without its semicolon, and the import follows on the same line.
  let before = at > 0 && text[at - 1] !== ";" ? ";" : "";
  if (at === 0) {
    const shebang = tsi.getShebang(text);
    if (shebang !== undefined) at = text.indexOf("\n", shebang.length) + 1 || text.length;
    if (shebang !== undefined && at === text.length) before = "\n";
  }
  edits.push({ at, before, args: added, after: "" });
}

/**
 * Finds the transformer's additions by comparing each rewritten node with the parse-tree node it came from:
 * a call with more arguments than its original (`tool(fn)` → `tool(fn, void 0, meta)`), or a `@tool` decorator
 * given its metadata, which becomes a static block (`methodRegistration`).
 */
function collectEdits(tsi: TS, node: ts.Node, edits: Edit[]): void {
  const original = tsi.getOriginalNode(node);
  if (original !== node && original.pos >= 0) {
    if (tsi.isDecorator(node) && tsi.isDecorator(original)) {
      const registration = methodRegistration(tsi, node, original);
      if (registration) {
        edits.push(registration);
        return;
      }
    }
    if (
      tsi.isCallExpression(node) &&
      tsi.isCallExpression(original) &&
      node.arguments.length > original.arguments.length
    ) {
      const had = original.arguments;
      const args = node.arguments.slice(had.length);
      edits.push(
        had.length > 0
          ? { at: had[had.length - 1]!.end, before: ", ", args, after: "" }
          : { at: had.pos, before: "", args, after: "" },
      );
      collectEdits(tsi, node.expression, edits);
      node.arguments.slice(0, had.length).forEach((a) => {
        collectEdits(tsi, a, edits);
      });
      return;
    }
    if (
      tsi.isDecorator(node) &&
      tsi.isDecorator(original) &&
      !tsi.isCallExpression(original.expression) &&
      tsi.isCallExpression(node.expression)
    ) {
      // A decorator methodRegistration cannot write out (a private method): kept a decorator, as tspc emits it.
      edits.push({ at: original.expression.end, before: "(", args: [...node.expression.arguments], after: ")" });
      return;
    }
  }
  tsi.forEachChild(node, (child) => collectEdits(tsi, child, edits));
}

/**
 * A `@tool` decorator the transformer gave its metadata, written out as plain JavaScript: the decorator is removed
 * and a static block after the method calls the same decorator the way `experimentalDecorators` code does,
 * `tool(options, meta)(prototype, key, descriptor)`, which records what either decorator flavour records. Bundlers
 * and Node then never see a decorator: Vite 8 (Oxc) and esbuild without a `target` leave standard decorators in,
 * and no Node release parses them. Written on the method's last line, so the lines below keep their numbers.
 * Undefined for a decorator the transformer left alone, or a method whose key a static block cannot name.
 */
function methodRegistration(tsi: TS, node: ts.Decorator, original: ts.Decorator): Edit | undefined {
  const had = tsi.isCallExpression(original.expression) ? original.expression.arguments.length : -1;
  if (!tsi.isCallExpression(node.expression) || node.expression.arguments.length <= had || had >= 2) return undefined;
  const method = original.parent;
  if (!tsi.isMethodDeclaration(method)) return undefined;
  const name = method.name;
  if (!(tsi.isIdentifier(name) || tsi.isStringLiteral(name) || tsi.isNumericLiteral(name))) return undefined;
  const isStatic = (tsi.getModifiers(method) ?? []).some((m) => m.kind === tsi.SyntaxKind.StaticKeyword);
  const holder = isStatic ? "this" : "this.prototype";
  const key = JSON.stringify(tsi.isNumericLiteral(name) ? String(Number(name.text)) : name.text);
  return {
    at: method.end,
    before: " static { ",
    args: [node.expression],
    after: `(${holder}, ${key}, Object.getOwnPropertyDescriptor(${holder}, ${key})); }`,
    remove: { start: original.getStart(), end: original.end },
  };
}
