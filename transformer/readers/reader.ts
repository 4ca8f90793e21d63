/**
 * What the transformer core asks of a type reader, and nothing more: the core (find.ts, tool-meta.ts, jsdoc.ts, the
 * schema reader) is written against this interface, never against a compiler's checker, so each backend is one
 * adapter behind it: compiler-api/adapter.ts (the in-process compiler API, 5.5 to 6.0) and ts7/facade.ts
 * (TypeScript 7's API, a `tsc --api` process). Types, symbols, signatures and nodes keep the compiler's shapes
 * (`ts.Type`, `ts.Node`): TypeScript 7's adapter hands the core objects of those shapes, so the schema rules are
 * written once.
 *
 * The questions are the checker's, named as the compiler API names them (so its checker answers them as they are);
 * the last four are the ones whose answer depends on how a backend holds a program (parsed JSDoc, documentation,
 * where declarations live), which the core used to work out itself for each backend.
 */
import type * as ts from "typescript";

export interface TypeReader {
  // What a name, a node or a written type stands for.
  getSymbolAtLocation(node: ts.Node): ts.Symbol | undefined;
  getAliasedSymbol(symbol: ts.Symbol): ts.Symbol;
  getTypeAtLocation(node: ts.Node): ts.Type;
  getTypeFromTypeNode(node: ts.TypeNode): ts.Type;
  getConstantValue(
    node: ts.EnumMember | ts.PropertyAccessExpression | ts.ElementAccessExpression,
  ): string | number | undefined;
  // A symbol's type: as declared, or as seen at a location (a property without the `missing` of
  // exactOptionalPropertyTypes).
  getTypeOfSymbol(symbol: ts.Symbol): ts.Type;
  getTypeOfSymbolAtLocation(symbol: ts.Symbol, node: ts.Node): ts.Type;
  // A type's parts: properties, index signatures, type arguments, bases.
  getPropertiesOfType(type: ts.Type): ts.Symbol[];
  getPropertyOfType(type: ts.Type, propertyName: string): ts.Symbol | undefined;
  getIndexInfosOfType(type: ts.Type): readonly ts.IndexInfo[];
  getTypeArguments(type: ts.TypeReference): readonly ts.Type[];
  getBaseTypes(type: ts.InterfaceType): ts.BaseType[];
  isArrayType(type: ts.Type): boolean;
  isTupleType(type: ts.Type): boolean;
  // Types derived from another.
  getNonNullableType(type: ts.Type): ts.Type;
  getWidenedType(type: ts.Type): ts.Type;
  getBaseTypeOfLiteralType(type: ts.Type): ts.Type;
  getAwaitedType(type: ts.Type): ts.Type | undefined;
  // Signatures: of a tool function's declaration (its return type), of a call (a tool factory's).
  getSignatureFromDeclaration(declaration: ts.SignatureDeclaration): ts.Signature | undefined;
  getResolvedSignature(node: ts.CallLikeExpression): ts.Signature | undefined;
  getReturnTypeOfSignature(signature: ts.Signature): ts.Type;
  /** A type as the compiler prints it, for messages and the written order of union members. */
  typeToString(type: ts.Type, enclosingDeclaration?: ts.Node, flags?: ts.TypeFormatFlags): string;

  /**
   * Makes the JSDoc of `node`, and of every node TypeScript reads it from for `node`, readable by the AST's JSDoc
   * helpers (`getJSDocCommentsAndTags`, `getJSDocTags`). Called before they are: a backend that parsed only part of
   * a file's JSDoc parses the rest here.
   */
  parseJsDoc(node: ts.Node): void;
  /** A symbol's documentation comment, inherited documentation included. */
  documentationOf(symbol: ts.Symbol): ts.SymbolDisplayPart[];
  /** A symbol's JSDoc tags, inherited ones included. */
  jsDocTagsOf(symbol: ts.Symbol): ts.JSDocTagInfo[];
  /**
   * True when a declaration of `symbol` is in the standard library of the program (TypeScript's lib files, or
   * @types/node: the files `isStandardLibraryFile` names, or one marked `no-default-lib`).
   */
  isStandardLibrary(symbol: ts.Symbol): boolean;
}

/** A file of TypeScript's lib or of @types/node, by its name: what every reader counts as the standard library. */
export function isStandardLibraryFile(fileName: string): boolean {
  return (
    /[\\/]typescript[^\\/]*[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(fileName) ||
    /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(fileName)
  );
}

/** The compiler's answer to `isStandardLibrary` from a symbol's declaration nodes, which both readers hold. */
export function declaredInStandardLibrary(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => {
    const file = d.getSourceFile();
    return file.hasNoDefaultLib || isStandardLibraryFile(file.fileName);
  });
}
