/**
 * Stable, readable `$defs` names: what a person would call the type. `Folder`, `Page<User>` → `Page_User`,
 * `Page<User[]>` → `Page_UserArray`, `Result<string | null>` → `Result_string_or_null`. Built from the type's
 * structure rather than from `typeToString`, whose spelling differs between TypeScript versions and truncates.
 * Anonymous structures have no such name; the reader names them after where they were met.
 */
import type * as ts from "typescript";
import type { TypeReader } from "../readers/reader";
import type { TS } from "../compat";

const MAX_LENGTH = 60;

export function readableName(tsi: TS, checker: TypeReader, type: ts.Type): string | undefined {
  const name = nameOf(tsi, checker, type, 0);
  if (!name || name.length > MAX_LENGTH) return undefined;
  return name;
}

function nameOf(tsi: TS, checker: TypeReader, type: ts.Type, depth: number): string | undefined {
  if (depth > 4) return undefined;
  const f = tsi.TypeFlags;
  const inner = (t: ts.Type) => nameOf(tsi, checker, t, depth + 1);
  const withArguments = (base: string, args: readonly ts.Type[] | undefined): string | undefined => {
    if (!args || args.length === 0) return base;
    const parts = args.map(inner);
    return parts.every((p) => p !== undefined) ? [base, ...parts].join("_") : undefined;
  };
  if (type.aliasSymbol) return withArguments(identifier(type.aliasSymbol.getName()), type.aliasTypeArguments);
  if (type.flags & (f.String | f.Number | f.Boolean | f.Null | f.Undefined | f.Any | f.Unknown | f.BigInt)) {
    return (type as { intrinsicName?: string }).intrinsicName;
  }
  if (type.flags & f.BooleanLiteral) return (type as { intrinsicName?: string }).intrinsicName;
  if (type.flags & (f.StringLiteral | f.NumberLiteral)) return identifier(String((type as ts.LiteralType).value));
  if (type.isUnion()) {
    const parts = type.types.map(inner);
    return parts.every((p) => p !== undefined) ? parts.join("_or_") : undefined;
  }
  if (checker.isArrayType(type)) {
    const element = checker.getTypeArguments(type as ts.TypeReference)[0];
    const name = element && inner(element);
    return name && `${name}Array`;
  }
  if (checker.isTupleType(type)) return undefined;
  const symbol = type.getSymbol();
  if (!symbol || !(symbol.flags & (tsi.SymbolFlags.Interface | tsi.SymbolFlags.Class | tsi.SymbolFlags.Enum)))
    return undefined;
  // A reference may carry the `this` type after its declared arguments; only the declared ones name it.
  const reference =
    (type as ts.ObjectType).objectFlags & tsi.ObjectFlags.Reference
      ? checker
          .getTypeArguments(type as ts.TypeReference)
          .slice(0, (type as ts.TypeReference).target.typeParameters?.length ?? 0)
      : undefined;
  return withArguments(identifier(symbol.getName()), reference);
}

function identifier(text: string): string {
  return text.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
}
