/**
 * JSDoc for source files parsed without it. Since TypeScript 5.3, `tsc` parses a .ts file's JSDoc only where a
 * type error could need it (`JSDocParsingMode.ParseForTypeErrors`), and a plugin that asks ts-patch for all of it
 * (`tscOptions.parseAllJsDoc`) makes tsc parse every comment of the standard library and of every declaration file
 * too: about a tenth of a build. tooltype reads the JSDoc of its tools and of the declarations their types come
 * from only, so it parses those comments itself, on first need, the way the parser does under `ParseAll`: the same
 * comment ranges (`getJSDocCommentRanges`), the same JSDoc parser, attached to the node the parser would attach
 * them to. TypeScript's own readers (`getJSDocCommentsAndTags`, `getJSDocTags`, a symbol's documentation and tags,
 * inherited ones included) then answer what they answer under `ParseAll`.
 *
 * Call `fillJsDoc` (a node whose JSDoc is read) or `fillSymbolJsDoc` (a symbol whose documentation or tags are
 * read) before reading. The bundler hosts' program parses like tsc; files parsed with all their
 * JSDoc (a compiler-API program made with the default mode) are left alone.
 */
import type * as ts from "typescript";
import type { TS } from "../../compat";

/** TypeScript internals used here (present in 5.5 to 6.0). */
interface Internals {
  getJSDocCommentRanges(node: ts.Node, text: string): ts.CommentRange[] | undefined;
  getNextJSDocCommentLocation(node: ts.Node): ts.Node | undefined;
  getAllSuperTypeNodes(node: ts.Node): readonly ts.TypeNode[];
  isVariableLike(node: ts.Node): boolean;
  hasInitializer(node: ts.Node): node is ts.HasExpressionInitializer;
  canHaveJSDoc(node: ts.Node): boolean;
  hasStaticModifier(node: ts.Node): boolean;
  parseIsolatedJSDocComment(content: string, start: number, length: number): { jsDoc?: ts.JSDoc } | undefined;
}

type WithJsDoc = ts.Node & { jsDoc?: ts.JSDoc[] & { jsDocCache?: unknown } };
type ParsedFile = ts.SourceFile & { jsDocParsingMode?: number };
type SymbolLinks = { links?: { target?: { links?: { tupleLabelDeclaration?: ts.Node } } } };

/** Nodes already given the JSDoc the parser would have attached. */
const filled = new WeakSet<ts.Node>();
/** Symbols whose declarations (and inherited ones) were filled. */
const filledSymbols = new WeakSet<ts.Symbol>();

/** Whether the file's JSDoc was parsed only in part (0 is `ParseAll`; older TypeScript parses all of it). */
function partlyParsed(file: ParsedFile): boolean {
  return file.jsDocParsingMode !== undefined && file.jsDocParsingMode !== 0;
}

const INTERNALS: readonly (keyof Internals)[] = [
  "getJSDocCommentRanges",
  "getNextJSDocCommentLocation",
  "getAllSuperTypeNodes",
  "isVariableLike",
  "hasInitializer",
  "canHaveJSDoc",
  "hasStaticModifier",
  "parseIsolatedJSDocComment",
];

/** TypeScript modules checked to have every internal used here. */
const checked = new WeakSet<object>();

/**
 * The internals, once checked to be there: a TypeScript that lacks one would otherwise leave tools without their
 * descriptions, silently; it stops the build with what to do instead.
 */
function internalsOf(tsi: TS): Internals {
  if (!checked.has(tsi)) {
    const missing = INTERNALS.filter((name) => typeof (tsi as unknown as Record<string, unknown>)[name] !== "function");
    if (missing.length > 0) {
      throw new Error(
        `tooltype: TypeScript ${tsi.version} parsed only part of the JSDoc, and it lacks ${missing.join(", ")}, which tooltype uses to read the JSDoc of tools itself. ` +
          "Build with a TypeScript version tooltype supports (5.5 to 6.0), or report this TypeScript version to tooltype.",
      );
    }
    checked.add(tsi);
  }
  return tsi as unknown as Internals;
}

/** Gives `host`, and every node whose JSDoc TypeScript reads for it, the JSDoc the parser attaches under ParseAll. */
export function fillJsDoc(tsi: TS, host: ts.Node): void {
  const file = host.getSourceFile() as ParsedFile | undefined;
  if (!file || !partlyParsed(file)) return;
  const internals = internalsOf(tsi);
  // The walk of getJSDocCommentsAndTags: the initializer of a variable-like host, then the host and its
  // comment-holding ancestors; a parameter's (or type parameter's) `@param` tags come from its function.
  if (internals.isVariableLike(host) && internals.hasInitializer(host) && host.initializer)
    fillNode(tsi, host.initializer, file.text);
  let node: ts.Node | undefined = host;
  while (node?.parent) {
    fillNode(tsi, node, file.text);
    if (node.kind === tsi.SyntaxKind.Parameter || node.kind === tsi.SyntaxKind.TypeParameter) {
      fillJsDoc(tsi, node.parent);
      break;
    }
    node = internals.getNextJSDocCommentLocation(node);
  }
}

/**
 * Fills the declarations of `symbol`, and of the members it inherits its documentation from (a class or interface
 * member without its own comment shows its base's), as a symbol's documentation and tags are read.
 */
export function fillSymbolJsDoc(tsi: TS, checker: ts.TypeChecker, symbol: ts.Symbol): void {
  if (filledSymbols.has(symbol)) return;
  filledSymbols.add(symbol);
  const label = (symbol as ts.Symbol & SymbolLinks).links?.target?.links?.tupleLabelDeclaration;
  if (!symbol.declarations && label) fillJsDoc(tsi, label);
  // A program parses all its files alike: declarations parsed whole (ParseAll, or TypeScript 7's nodes) need nothing.
  if (!(symbol.declarations ?? []).some((d) => partlyParsed(d.getSourceFile() as ParsedFile))) return;
  const internals = internalsOf(tsi);
  for (const declaration of symbol.declarations ?? []) {
    fillJsDoc(tsi, declaration);
    // findBaseOfDeclaration's search, so that inherited documentation is filled before it is read.
    const holder =
      declaration.parent?.kind === tsi.SyntaxKind.Constructor ? declaration.parent.parent : declaration.parent;
    const name = (declaration as ts.Declaration & { symbol?: ts.Symbol }).symbol?.name;
    if (!holder || name === undefined) continue;
    const isStatic = internals.hasStaticModifier(declaration);
    for (const superTypeNode of internals.getAllSuperTypeNodes(holder)) {
      const baseType = checker.getTypeAtLocation(superTypeNode);
      const type = isStatic && baseType.symbol ? checker.getTypeOfSymbol(baseType.symbol) : baseType;
      const base = checker.getPropertyOfType(type, name);
      if (base) fillSymbolJsDoc(tsi, checker, base);
    }
  }
}

function fillNode(tsi: TS, node: WithJsDoc, text: string): void {
  const internals = internalsOf(tsi);
  if (filled.has(node)) return;
  filled.add(node);
  const current = node.jsDoc;
  if (current && current.length > 0) {
    // Parsed with the file (a comment that mentions @see or @link): complete; only a cached tag list may predate
    // the JSDoc filled on its ancestors.
    current.jsDocCache = undefined;
    return;
  }
  if (!internals.canHaveJSDoc(node) || notGiven(tsi).has(node.kind)) return;
  const docs: ts.JSDoc[] = [];
  for (const range of internals.getJSDocCommentRanges(node, text) ?? []) {
    const parsed = internals.parseIsolatedJSDocComment(text, range.pos, range.end - range.pos);
    if (!parsed?.jsDoc) continue;
    (parsed.jsDoc as { parent: ts.Node }).parent = node;
    docs.push(parsed.jsDoc);
  }
  // Replaces an empty list getJSDocTags may have left with a cache computed before the comments were parsed.
  node.jsDoc = docs.length > 0 ? docs : undefined;
}

let notGivenKinds: { tsi: TS; kinds: ReadonlySet<ts.SyntaxKind> } | undefined;

/**
 * Kinds that may hold JSDoc but that the parser never gives it to: a name, or an expression that starts where its
 * statement does (`/** doc *\/ a.b = 1` documents the statement only).
 */
function notGiven(tsi: TS): ReadonlySet<ts.SyntaxKind> {
  if (notGivenKinds?.tsi !== tsi) {
    const k = tsi.SyntaxKind;
    const kinds = [
      k.Identifier,
      k.BinaryExpression,
      k.PropertyAccessExpression,
      k.ElementAccessExpression,
      k.ObjectLiteralExpression,
      k.TypeParameter,
    ];
    notGivenKinds = { tsi, kinds: new Set(kinds) };
  }
  return notGivenKinds.kinds;
}
