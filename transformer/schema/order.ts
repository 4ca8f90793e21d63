/**
 * The order in which the user wrote the members of a union (and the keys of a mapped type), so that schemas list
 * enum values and `anyOf` branches as written, whatever else the program contains.
 *
 * Why: TypeScript keeps union members sorted by internal type id, and a literal type gets its id when the checker
 * first meets that literal anywhere in the program. `"small" | "large"` can therefore come out as
 * `["large", "small"]` once another file happens to mention "large" first, and adding an unrelated file would
 * change a tool's schema. The written order is read back from the syntax: union type nodes, aliases, enum
 * declarations, `keyof` (declaration order of the properties) and `T[number]` of a tuple (element order).
 */
import type * as ts from "typescript";
import type { TS } from "../compat";

/** Identifies a union member across type objects: literals by value, everything else by identity. */
export type MemberKey = string | ts.Type;

export function memberKey(tsi: TS, type: ts.Type): MemberKey {
  const f = tsi.TypeFlags;
  if (type.flags & f.StringLiteral) return `s:${(type as ts.StringLiteralType).value}`;
  if (type.flags & f.NumberLiteral) return `n:${(type as ts.NumberLiteralType).value}`;
  if (type.flags & f.BooleanLiteral) return `b:${(type as { intrinsicName?: string }).intrinsicName}`;
  return type;
}

export class WrittenOrder {
  constructor(
    private readonly tsi: TS,
    private readonly checker: ts.TypeChecker,
  ) {}

  /**
   * `members` sorted into the order they were written, where that can be found from `node` (the type node that
   * spelled the union, if known) or from the union's alias or enum declaration; otherwise left as they are.
   */
  sort(union: ts.Type, members: readonly ts.Type[], node: ts.TypeNode | undefined): ts.Type[] {
    const written = this.keysOfUnion(union, node);
    if (!written) return [...members];
    const rank = new Map<MemberKey, number>();
    written.forEach((key, i) => {
      if (!rank.has(key)) rank.set(key, i);
    });
    const indexed = members.map((m, i) => ({ m, i, r: rank.get(memberKey(this.tsi, m)) ?? written.length + i }));
    return indexed.sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.m);
  }

  /** Property names of a mapped type in the order its keys were written (`Record<"b" | "a", T>`), if known. */
  keyOrder(node: ts.TypeNode | undefined, depth = 0): string[] | undefined {
    if (!node || depth > 3) return undefined;
    const inner = this.skipParens(node);
    if (!this.tsi.isTypeReferenceNode(inner) || !inner.typeArguments) return undefined;
    for (const argument of inner.typeArguments) {
      const keys = this.keysOfNode(argument, new Set());
      const names = keys.filter((k): k is string => typeof k === "string").map((k) => k.slice(2));
      if (names.length > 1) return names;
      // `Partial<Record<K, T>>`: the keys are written one level down.
      const nested = this.keyOrder(argument, depth + 1);
      if (nested) return nested;
    }
    return undefined;
  }

  private keysOfUnion(union: ts.Type, node: ts.TypeNode | undefined): MemberKey[] | undefined {
    if (node && this.spells(node, union)) return this.keysOfNode(node, new Set());
    const alias = union.aliasSymbol;
    if (alias && !union.aliasTypeArguments) {
      const declaration = alias.declarations?.find((d): d is ts.TypeAliasDeclaration => this.tsi.isTypeAliasDeclaration(d));
      if (declaration) return this.keysOfNode(declaration.type, new Set());
    }
    const symbol = union.getSymbol();
    if (symbol && symbol.flags & this.tsi.SymbolFlags.Enum) return this.enumKeys(symbol);
    return undefined;
  }

  /** True when `node` is the spelling of `type`, give or take an `undefined` added by `?`. */
  private spells(node: ts.TypeNode, type: ts.Type): boolean {
    const spelled = this.checker.getTypeFromTypeNode(node);
    if (spelled === type) return true;
    const members = type.isUnion() ? type.types : [type];
    const spelledMembers = new Set(spelled.isUnion() ? spelled.types : [spelled]);
    return members.every((m) => spelledMembers.has(m) || m.flags & this.tsi.TypeFlags.Undefined);
  }

  private keysOfNode(node: ts.TypeNode, seen: Set<ts.Node>): MemberKey[] {
    const t = this.tsi;
    node = this.skipParens(node);
    if (seen.has(node)) return [];
    seen.add(node);
    if (t.isUnionTypeNode(node)) return node.types.flatMap((n) => this.keysOfNode(n, seen));
    if (node.kind === t.SyntaxKind.BooleanKeyword) return ["b:true", "b:false"];
    const type = this.checker.getTypeFromTypeNode(node);
    if (t.isTypeReferenceNode(node) && !node.typeArguments) {
      const symbol = type.aliasSymbol;
      const declaration = symbol?.declarations?.find((d): d is ts.TypeAliasDeclaration => t.isTypeAliasDeclaration(d));
      if (declaration && !declaration.typeParameters) return this.keysOfNode(declaration.type, seen);
      const typeSymbol = type.getSymbol();
      if (typeSymbol && typeSymbol.flags & t.SymbolFlags.Enum && type.isUnion()) return this.enumKeys(typeSymbol);
    }
    if (t.isTypeOperatorNode(node) && node.operator === t.SyntaxKind.KeyOfKeyword) {
      const operand = this.checker.getTypeFromTypeNode(node.type);
      return this.checker.getPropertiesOfType(operand).map((p) => `s:${p.getName()}`);
    }
    if (t.isIndexedAccessTypeNode(node)) {
      const object = this.checker.getTypeFromTypeNode(node.objectType);
      const index = this.checker.getTypeFromTypeNode(node.indexType);
      if (index.flags & t.TypeFlags.Number && this.checker.isTupleType(object)) {
        return this.checker.getTypeArguments(object as ts.TypeReference).flatMap((e) => this.keysOfType(e));
      }
    }
    return this.keysOfType(type);
  }

  private keysOfType(type: ts.Type): MemberKey[] {
    if (type.isUnion()) {
      const symbol = type.getSymbol();
      if (symbol && symbol.flags & this.tsi.SymbolFlags.Enum) return this.enumKeys(symbol);
      return type.types.map((m) => memberKey(this.tsi, m));
    }
    return [memberKey(this.tsi, type)];
  }

  /** Enum members in declaration order, by value. */
  private enumKeys(symbol: ts.Symbol): MemberKey[] {
    const keys: MemberKey[] = [];
    for (const declaration of symbol.declarations ?? []) {
      if (!this.tsi.isEnumDeclaration(declaration)) continue;
      for (const member of declaration.members) {
        const value = this.checker.getConstantValue(member);
        if (typeof value === "string") keys.push(`s:${value}`);
        else if (typeof value === "number") keys.push(`n:${value}`);
      }
    }
    return keys;
  }

  private skipParens(node: ts.TypeNode): ts.TypeNode {
    while (this.tsi.isParenthesizedTypeNode(node)) node = node.type;
    return node;
  }
}
