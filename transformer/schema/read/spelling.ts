/**
 * How a type is spelled where it is used: the type alias declarations it is written with (whose JSDoc keyword tags
 * apply there), the node of a union's or intersection's member, of an array's items and of a tuple's elements.
 * Unions are read in their written order and aliases with their tags through these.
 */
import type * as ts from "typescript";
import type { TypeReader } from "../../readers/reader";
import type { TS } from "../../compat";
import type { Site } from "../model";
import type { Reader } from "./context";
import { isLibrarySymbol } from "./library";

/** Type-name resolutions per reader (a source file, and so its nodes, can outlive one program in watch mode). */
const typeNameSymbols = new WeakMap<TypeReader, Map<ts.Node, ts.Symbol | undefined>>();

/**
 * What a type reference's name resolves to, through import aliases. Remembered per program: the properties of a
 * type shared by many tools spell their types with the same nodes in every tool, and resolving a name is one of
 * the checker's slower questions.
 */
function symbolOfTypeName(reader: Reader, name: ts.EntityName): ts.Symbol | undefined {
  let known = typeNameSymbols.get(reader.checker);
  if (!known) typeNameSymbols.set(reader.checker, (known = new Map()));
  if (known.has(name)) return known.get(name);
  let symbol = reader.checker.getSymbolAtLocation(name);
  if (symbol && symbol.flags & reader.tsi.SymbolFlags.Alias) symbol = reader.checker.getAliasedSymbol(symbol);
  known.set(name, symbol);
  return symbol;
}

/**
 * The type alias declarations `type` is spelled with here, innermost first (`type A = B; type B = string`: B,
 * A): through `site.typeNode` when it names an alias of exactly this type (an alias of `string` leaves no trace
 * on the type itself), else the type's own alias.
 */
export function aliasesOf(reader: Reader, type: ts.Type, site: Site): ts.TypeAliasDeclaration[] {
  const t = reader.tsi;
  const chain: ts.TypeAliasDeclaration[] = [];
  let node = skipTypeParens(t, site.typeNode);
  if (!(node && t.isTypeReferenceNode(node) && reader.checker.getTypeFromTypeNode(node) === type)) {
    // The standard library's aliases are not followed, and asked first: a reader may have to fetch declarations whole.
    if (!type.aliasSymbol || isLibrarySymbol(reader, type.aliasSymbol)) return chain;
    const declaration = type.aliasSymbol.declarations?.find((d): d is ts.TypeAliasDeclaration =>
      t.isTypeAliasDeclaration(d),
    );
    if (!declaration) return chain;
    chain.push(declaration);
    node = skipTypeParens(t, declaration.type);
  }
  for (let depth = 0; node && t.isTypeReferenceNode(node) && depth < 16; depth++) {
    const symbol = symbolOfTypeName(reader, node.typeName);
    if (!symbol || isLibrarySymbol(reader, symbol)) break;
    const declaration = symbol.declarations?.find((d): d is ts.TypeAliasDeclaration => t.isTypeAliasDeclaration(d));
    if (!declaration || chain.includes(declaration)) break;
    chain.push(declaration);
    node = skipTypeParens(t, declaration.type);
  }
  return chain.reverse();
}

/** `node` with parentheses and references to non-generic type aliases followed to what they spell. */
export function spelled(reader: Reader, node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  const t = reader.tsi;
  let spelled = skipTypeParens(t, node);
  for (let depth = 0; spelled && t.isTypeReferenceNode(spelled) && !spelled.typeArguments && depth < 16; depth++) {
    const symbol = symbolOfTypeName(reader, spelled.typeName);
    const declaration = symbol?.declarations?.find((d): d is ts.TypeAliasDeclaration => t.isTypeAliasDeclaration(d));
    if (!declaration || declaration.typeParameters) break;
    spelled = skipTypeParens(t, declaration.type);
  }
  return spelled;
}

/**
 * The type node of one member of a union or intersection spelled at `node` (directly, or in the aliases it
 * names), so an alias written there is seen with its JSDoc tags: `Slug | null`, `type Short = Slug & MaxLength<9>`.
 */
export function memberTypeNode(
  reader: Reader,
  member: ts.Type,
  node: ts.TypeNode | undefined,
): ts.TypeNode | undefined {
  const written = spelled(reader, node);
  if (!written || !(reader.tsi.isUnionTypeNode(written) || reader.tsi.isIntersectionTypeNode(written)))
    return undefined;
  return written.types.find((part) => reader.checker.getTypeFromTypeNode(part) === member);
}

function skipTypeParens(tsi: TS, node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  while (
    node &&
    (tsi.isParenthesizedTypeNode(node) ||
      (tsi.isTypeOperatorNode(node) && node.operator === tsi.SyntaxKind.ReadonlyKeyword))
  ) {
    node = node.type;
  }
  return node;
}

/** The node of the item type of `T[]` / `Array<T>` / `ReadonlyArray<T>`, when that is how the array is spelled. */
export function elementTypeNode(tsi: TS, node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  const inner = skipTypeParens(tsi, node);
  if (!inner) return undefined;
  if (tsi.isArrayTypeNode(inner)) return inner.elementType;
  if (
    tsi.isTypeReferenceNode(inner) &&
    inner.typeArguments?.length === 1 &&
    tsi.isIdentifier(inner.typeName) &&
    /^(Readonly)?Array$/.test(inner.typeName.text)
  ) {
    return inner.typeArguments[0];
  }
  return undefined;
}

/** The nodes of a tuple's element types, when it is spelled as a tuple (named, optional and rest members). */
export function tupleElementNodes(tsi: TS, node: ts.TypeNode | undefined): (ts.TypeNode | undefined)[] | undefined {
  const inner = skipTypeParens(tsi, node);
  if (!inner || !tsi.isTupleTypeNode(inner)) return undefined;
  return inner.elements.map((e) => {
    let t: ts.TypeNode = tsi.isNamedTupleMember(e) ? e.type : e;
    if (tsi.isOptionalTypeNode(t) || tsi.isRestTypeNode(t)) t = t.type;
    return t;
  });
}
