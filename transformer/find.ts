/**
 * Finds tooltype's own API in user code by symbol, never by spelling: an expression is `tool` when the checker
 * resolves it (through aliases, renamed and namespace imports, re-exports) to the `tool` function declared in the
 * tooltype package. A user's own function that happens to be called `tool` is left alone.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
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

export class ApiResolver {
  private readonly ownership = new PackageOwnership();

  constructor(
    private readonly tsi: TS,
    private readonly checker: ts.TypeChecker,
  ) {}

  /** True when `expression` refers to tooltype's `tool` export. */
  isTool(expression: ts.Expression): boolean {
    return this.isExport(this.checker.getSymbolAtLocation(expression), "tool", this.tsi.SyntaxKind.FunctionDeclaration);
  }

  /** True when `expression` refers to tooltype's `structuredOutput` export. */
  isStructuredOutput(expression: ts.Expression): boolean {
    return this.isExport(this.checker.getSymbolAtLocation(expression), "structuredOutput", this.tsi.SyntaxKind.FunctionDeclaration);
  }

  /** True when `type` is tooltype's `ToolContext` interface (such parameters are injected, not sent by the model). */
  isToolContext(type: ts.Type): boolean {
    return this.isExport(type.aliasSymbol ?? type.getSymbol(), "ToolContext", this.tsi.SyntaxKind.InterfaceDeclaration);
  }

  private isExport(symbol: ts.Symbol | undefined, name: string, kind: ts.SyntaxKind): boolean {
    if (!symbol) return false;
    const resolved = symbol.flags & this.tsi.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
    if (resolved.getName() !== name) return false;
    return (resolved.declarations ?? []).some(
      (d) => d.kind === kind && this.ownership.isTooltypeFile(d.getSourceFile().fileName),
    );
  }
}
