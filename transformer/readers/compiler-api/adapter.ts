/**
 * The type reader on the in-process compiler API (TypeScript 5.5 to 6.0): the program's own checker answers the
 * core's questions, with no wrapper between them (its methods are closures, handed over as they are, so a question
 * costs what it cost before the reader interface). JSDoc that tsc left unparsed is parsed here on first need
 * (jsdoc-fill.ts), and a symbol's documentation is read with the checker, as the compiler API asks.
 */
import type * as ts from "typescript";
import type { TS } from "../../compat";
import { declaredInStandardLibrary, type TypeReader } from "../reader";
import { fillJsDoc, fillSymbolJsDoc } from "./jsdoc-fill";

/** One reader per checker, so what the core remembers per reader (shared readings, spellings) is per program. */
const readers = new WeakMap<ts.TypeChecker, TypeReader>();

/** The reader over a compiler-API program's checker; `tsi` is the TypeScript module that made the program. */
export function compilerApiReader(tsi: TS, checker: ts.TypeChecker): TypeReader {
  let reader = readers.get(checker);
  if (!reader) readers.set(checker, (reader = makeReader(tsi, checker)));
  return reader;
}

function makeReader(tsi: TS, c: ts.TypeChecker): TypeReader {
  return {
    getSymbolAtLocation: c.getSymbolAtLocation,
    getAliasedSymbol: c.getAliasedSymbol,
    getTypeAtLocation: c.getTypeAtLocation,
    getTypeFromTypeNode: c.getTypeFromTypeNode,
    getConstantValue: c.getConstantValue,
    getTypeOfSymbol: c.getTypeOfSymbol,
    getTypeOfSymbolAtLocation: c.getTypeOfSymbolAtLocation,
    getPropertiesOfType: c.getPropertiesOfType,
    getPropertyOfType: c.getPropertyOfType,
    getIndexInfosOfType: c.getIndexInfosOfType,
    getTypeArguments: c.getTypeArguments,
    getBaseTypes: c.getBaseTypes,
    isArrayType: c.isArrayType,
    isTupleType: c.isTupleType,
    getNonNullableType: c.getNonNullableType,
    getWidenedType: c.getWidenedType,
    getBaseTypeOfLiteralType: c.getBaseTypeOfLiteralType,
    getAwaitedType: c.getAwaitedType,
    getSignatureFromDeclaration: c.getSignatureFromDeclaration,
    getResolvedSignature: c.getResolvedSignature,
    getReturnTypeOfSignature: c.getReturnTypeOfSignature,
    typeToString: c.typeToString,
    parseJsDoc: (node) => fillJsDoc(tsi, node),
    documentationOf: (symbol) => {
      fillSymbolJsDoc(tsi, c, symbol);
      return symbol.getDocumentationComment(c);
    },
    jsDocTagsOf: (symbol) => {
      fillSymbolJsDoc(tsi, c, symbol);
      return symbol.getJsDocTags(c);
    },
    isStandardLibrary: declaredInStandardLibrary,
  };
}
