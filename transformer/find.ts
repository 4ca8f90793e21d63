/**
 * Finds tooltype's own API in user code by symbol, never by spelling: an expression is `tool` when the checker
 * resolves it (through aliases, renamed and namespace imports, re-exports) to the `tool` function declared in the
 * tooltype package. A user's own function that happens to be called `tool` is left alone.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { TypeReader } from "./readers/reader";
import type { TS } from "./compat";

const PACKAGE_NAME = "tooltype";

/** Answers "is this declaration part of the tooltype package?" by the nearest package.json, cached per folder. */
export class PackageOwnership {
  private readonly byDirectory = new Map<string, boolean>();

  isTooltypeFile(fileName: string): boolean {
    return this.isTooltypeDirectory(path.dirname(fileName));
  }

  private isTooltypeDirectory(dir: string): boolean {
    const cached = this.byDirectory.get(dir);
    if (cached !== undefined) return cached;
    let answer = false;
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest)) {
      try {
        answer = (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: unknown }).name === PACKAGE_NAME;
      } catch {
        answer = false;
      }
    } else {
      const parent = path.dirname(dir);
      answer = parent !== dir && this.isTooltypeDirectory(parent);
    }
    this.byDirectory.set(dir, answer);
    return answer;
  }
}

/**
 * True for syntax that can hold no tool (no call, no decorator): tokens, identifiers and literals, type nodes, and
 * declarations made of types only. The transformer does not walk into them, which is a good part of every file.
 */
export function skipsTools(tsi: TS, node: ts.Node): boolean {
  const k = tsi.SyntaxKind;
  const kind = node.kind;
  return (
    kind <= k.LastToken ||
    (kind >= k.FirstTypeNode && kind <= k.LastTypeNode) ||
    kind === k.InterfaceDeclaration ||
    kind === k.TypeAliasDeclaration ||
    kind === k.ImportDeclaration ||
    kind === k.ExportDeclaration
  );
}

/** A file where any name may be bound by an import (see `importNamesOf`). */
const ANY_NAME = Symbol("any name");

/**
 * The names a TypeScript file's imports bind (`import t, { tool as u } from`, `import * as tt`, `import t =`), or
 * ANY_NAME for a file whose names are not all bound at its top level: JavaScript (`require` binds names), or one
 * with namespaces (an import may sit in a namespace body).
 */
function importNamesOf(tsi: TS, file: ts.SourceFile): ReadonlySet<string> | typeof ANY_NAME {
  if (file.isDeclarationFile || /\.[cm]?jsx?$/i.test(file.fileName)) return ANY_NAME;
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (tsi.isModuleDeclaration(statement)) return ANY_NAME;
    if (tsi.isImportEqualsDeclaration(statement)) names.add(statement.name.text);
    if (!tsi.isImportDeclaration(statement) || !statement.importClause) continue;
    const clause = statement.importClause;
    if (clause.name) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && tsi.isNamespaceImport(bindings)) names.add(bindings.name.text);
    else if (bindings) for (const element of bindings.elements) names.add(element.name.text);
  }
  return names;
}

export class ApiResolver {
  private readonly ownership = new PackageOwnership();

  constructor(
    private readonly tsi: TS,
    private readonly checker: TypeReader,
  ) {}

  /** True when `expression` refers to tooltype's `tool` export. */
  isTool(expression: ts.Expression): boolean {
    return (
      this.mayBeImported(expression) &&
      this.isExport(this.symbolAt(expression), "tool", this.tsi.SyntaxKind.FunctionDeclaration)
    );
  }

  /** True when `expression` refers to tooltype's `structuredOutput` export. */
  isStructuredOutput(expression: ts.Expression): boolean {
    return (
      this.mayBeImported(expression) &&
      this.isExport(this.symbolAt(expression), "structuredOutput", this.tsi.SyntaxKind.FunctionDeclaration)
    );
  }

  /**
   * False for a name that cannot refer to another module's export: an identifier that no import of its file binds
   * (in user code a name reaches tooltype's `tool` only through an import, renamed or not). The transformer asks
   * about every call's callee, and the checker's answer, cheap for one, was a tenth of the plugin's time in a
   * program of 500 tools. Anything else (a property access, a file with namespaces or of JavaScript, where
   * `require` binds names too) is left to the checker.
   */
  private mayBeImported(expression: ts.Expression): boolean {
    if (!this.tsi.isIdentifier(expression)) return true;
    const file = expression.getSourceFile() as ts.SourceFile | undefined;
    if (file === undefined) return true;
    let names = this.importNames.get(file);
    if (names === undefined) this.importNames.set(file, (names = importNamesOf(this.tsi, file)));
    return names === ANY_NAME || names.has(expression.text);
  }

  private readonly importNames = new WeakMap<ts.SourceFile, ReadonlySet<string> | typeof ANY_NAME>();

  private last: { expression: ts.Expression; symbol: ts.Symbol | undefined } | undefined;

  /** The callee's symbol; the transformer asks `isTool` and then `isStructuredOutput` of every call's callee. */
  private symbolAt(expression: ts.Expression): ts.Symbol | undefined {
    if (this.last?.expression !== expression)
      this.last = { expression, symbol: this.checker.getSymbolAtLocation(expression) };
    return this.last.symbol;
  }

  /**
   * For a call of a tool factory (a function of the user's that wraps `tool()` and declares a parameter typed
   * tooltype's `CompiledToolMeta`, which it passes on): the position of that parameter, when the call leaves it
   * out. The transformer compiles such a call's first argument as it would `tool(fn)`'s and fills that position.
   */
  factoryMetaIndex(call: ts.CallExpression): number | undefined {
    const first = call.arguments[0];
    if (!first || first.kind === this.tsi.SyntaxKind.SpreadElement) return undefined;
    const declaration = this.checker.getResolvedSignature(call)?.declaration;
    if (!declaration || this.tsi.isJSDocSignature(declaration)) return undefined;
    let index = this.factoryIndex.get(declaration);
    if (index === undefined) {
      index = declaration.parameters.findIndex(
        (p, i) => i > 0 && !p.dotDotDotToken && this.isCompiledToolMeta(this.checker.getTypeAtLocation(p)),
      );
      this.factoryIndex.set(declaration, index);
    }
    return index > 0 && call.arguments.length <= index ? index : undefined;
  }

  private readonly factoryIndex = new Map<ts.Node, number>();

  private isCompiledToolMeta(type: ts.Type): boolean {
    const defined = this.checker.getNonNullableType(type);
    return this.isExport(
      defined.aliasSymbol ?? defined.getSymbol(),
      "CompiledToolMeta",
      this.tsi.SyntaxKind.InterfaceDeclaration,
    );
  }

  /** True when `type` is tooltype's `ToolContext` interface (such parameters are injected, not sent by the model). */
  isToolContext(type: ts.Type): boolean {
    return this.isExport(type.aliasSymbol ?? type.getSymbol(), "ToolContext", this.tsi.SyntaxKind.InterfaceDeclaration);
  }

  /**
   * What each symbol met stands for: the symbol it resolves to and that one's name, and once asked, the kinds of its
   * declarations in tooltype's files.
   */
  private readonly exports = new Map<ts.Symbol, { resolved: ts.Symbol; name: string; kinds?: ts.SyntaxKind[] }>();

  private isExport(symbol: ts.Symbol | undefined, name: string, kind: ts.SyntaxKind): boolean {
    if (!symbol) return false;
    let known = this.exports.get(symbol);
    if (known === undefined) {
      const resolved = symbol.flags & this.tsi.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
      this.exports.set(symbol, (known = { resolved, name: resolved.getName() }));
    }
    // The name first: only a symbol of that name needs its declarations' files, which a reader may have to fetch
    // whole (the standard library's, for every parameter typed Date or an array, asked whether it is a ToolContext).
    if (known.name !== name) return false;
    known.kinds ??= (known.resolved.declarations ?? [])
      .filter((d) => this.ownership.isTooltypeFile(d.getSourceFile().fileName))
      .map((d) => d.kind);
    return known.kinds.includes(kind);
  }
}
