/**
 * The order in which the user wrote the members of a union (and the keys of a mapped type), so that schemas list
 * enum values and `anyOf` branches as written, whatever else the program contains.
 *
 * Why: TypeScript keeps union members sorted by internal type id, and a literal type gets its id when the checker
 * first meets that literal anywhere in the program. `"small" | "large"` can therefore come out as
 * `["large", "small"]` once another file happens to mention "large" first, and adding an unrelated file would
 * change a tool's schema. The written order is read back from the syntax: union type nodes, aliases, enum
 * declarations, `keyof` (declaration order of the properties) and `T[number]` of a tuple (element order); where
 * nothing was written (an inferred return type), a canonical order by value or declaration is used instead.
 */
import type * as ts from "typescript";
import type { TypeReader } from "../readers/reader";
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

/** What type nodes spell, per checker: it depends on the program only, and every tool of it asks again. */
const spellings = new WeakMap<
  TypeReader,
  { keys: Map<ts.TypeNode, MemberKey[]>; unions: Map<ts.TypeNode, MemberKey[][]> }
>();

/** TypeScript's intrinsic string mappings, as they change one literal. */
const STRING_MAPPINGS: Record<string, ((text: string) => string) | undefined> = {
  Uppercase: (text) => text.toUpperCase(),
  Lowercase: (text) => text.toLowerCase(),
  Capitalize: (text) => text.charAt(0).toUpperCase() + text.slice(1),
  Uncapitalize: (text) => text.charAt(0).toLowerCase() + text.slice(1),
};

export class WrittenOrder {
  /** The keys written at a type node (see `keysOfNode`), found once per node. */
  private readonly keysAt: Map<ts.TypeNode, MemberKey[]>;
  /** Unions spelled inside a type node (and the aliases it names), found once per node. */
  private readonly spelledIn: Map<ts.TypeNode, MemberKey[][]>;

  constructor(
    private readonly tsi: TS,
    private readonly checker: TypeReader,
  ) {
    let known = spellings.get(checker);
    if (!known) spellings.set(checker, (known = { keys: new Map(), unions: new Map() }));
    this.keysAt = known.keys;
    this.spelledIn = known.unions;
  }

  /**
   * How often an order was looked for where a type is used (the type node of the use, the scopes the reader came
   * through) rather than in the type's own declarations: the type reader shares no reading that did.
   */
  useSiteReads = 0;

  /**
   * `members` sorted into the order they were written. Where from, in turn: `node` (the type node that spelled
   * the union); the union's alias or enum declaration; a union with the same members written in one of `scopes`
   * (the type nodes the reader came through, innermost last: `Box<"b" | "a">` spells the union that `value: T`
   * becomes). Members whose order is still unknown (an inferred return type) follow in a canonical order, by value
   * or declaration, never by type id.
   */
  sort(
    union: ts.Type,
    members: readonly ts.Type[],
    node: ts.TypeNode | undefined,
    scopes: readonly ts.TypeNode[] = [],
  ): ts.Type[] {
    const written = this.keysOfUnion(union, node) ?? this.keysInScopes(members, scopes) ?? [];
    const rank = new Map<MemberKey, number>();
    written.forEach((key, i) => {
      if (!rank.has(key)) rank.set(key, i);
    });
    const known = members.filter((m) => rank.has(memberKey(this.tsi, m)));
    const unknown = members.filter((m) => !rank.has(memberKey(this.tsi, m)));
    known.sort((a, b) => rank.get(memberKey(this.tsi, a))! - rank.get(memberKey(this.tsi, b))!);
    const canonical = unknown.map((m) => ({ m, key: this.canonicalKey(m) }));
    canonical.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return [...known, ...canonical.map((c) => c.m)];
  }

  /** Key names in the order a union of them is written in one of `scopes` (`{ [K in "b" | "a"]: T }`), if any. */
  namesInScopes(names: readonly string[], scopes: readonly ts.TypeNode[]): string[] | undefined {
    if (names.length < 2) return undefined;
    this.useSiteReads++;
    for (let i = scopes.length - 1; i >= 0; i--) {
      for (const keys of this.unionsIn(scopes[i]!)) {
        const set = new Set(keys);
        if (names.every((n) => set.has(`s:${n}`)))
          return keys.filter((k): k is string => typeof k === "string").map((k) => k.slice(2));
      }
    }
    return undefined;
  }

  private keysInScopes(members: readonly ts.Type[], scopes: readonly ts.TypeNode[]): MemberKey[] | undefined {
    const wanted = members.filter((m) => !(m.flags & (this.tsi.TypeFlags.Undefined | this.tsi.TypeFlags.Null)));
    if (wanted.length < 2) return undefined;
    this.useSiteReads++;
    for (let i = scopes.length - 1; i >= 0; i--) {
      for (const keys of this.unionsIn(scopes[i]!)) {
        const set = new Set(keys);
        if (wanted.every((m) => set.has(memberKey(this.tsi, m)))) return keys;
      }
    }
    return undefined;
  }

  /** The written keys of every union spelled in `scope`, following references to non-generic aliases. */
  private unionsIn(scope: ts.TypeNode): MemberKey[][] {
    const cached = this.spelledIn.get(scope);
    if (cached) return cached;
    const found: MemberKey[][] = [];
    const seen = new Set<ts.Node>();
    const visit = (node: ts.Node): void => {
      if (seen.has(node)) return;
      seen.add(node);
      if (this.tsi.isUnionTypeNode(node)) found.push(this.keysWrittenAt(node));
      if (this.tsi.isTypeReferenceNode(node)) {
        const symbol = this.checker.getTypeFromTypeNode(node).aliasSymbol;
        const declaration = symbol?.declarations?.find((d): d is ts.TypeAliasDeclaration =>
          this.tsi.isTypeAliasDeclaration(d),
        );
        if (declaration && !declaration.typeParameters) visit(declaration.type);
      }
      this.tsi.forEachChild(node, visit);
    };
    visit(scope);
    this.spelledIn.set(scope, found);
    return found;
  }

  /**
   * An order that does not depend on when the checker created a type: literals by kind and value, intrinsic
   * types by name, declared types by where they are declared, anything else by how it prints.
   */
  private canonicalKey(type: ts.Type): string {
    const f = this.tsi.TypeFlags;
    if (type.flags & f.BooleanLiteral)
      return `1:${(type as { intrinsicName?: string }).intrinsicName === "true" ? 0 : 1}`;
    if (type.flags & f.NumberLiteral) {
      // Sortable as text: sign, then magnitude padded.
      const value = (type as ts.NumberLiteralType).value;
      return `2:${value < 0 ? "0" : "1"}${(value < 0 ? 1e15 + value : value).toFixed(6).padStart(24, "0")}`;
    }
    if (type.flags & f.StringLiteral) return `3:${(type as ts.StringLiteralType).value}`;
    const intrinsic = (type as { intrinsicName?: string }).intrinsicName;
    if (intrinsic) return `0:${intrinsic}`;
    const declaration = (type.aliasSymbol ?? type.getSymbol())?.declarations?.[0];
    if (declaration) {
      const file = declaration.getSourceFile().fileName;
      return `4:${file}:${String(declaration.pos).padStart(10, "0")}`;
    }
    return `5:${this.checker.typeToString(type)}`;
  }

  /**
   * The property names of an object literal that has a spread (`{ ...base, c }`), in the order JavaScript gives
   * its keys: each key where it is first written, a spread's keys in their own order where the spread stands.
   * TypeScript 5.9 lists the literal's own properties before the spread's, TypeScript 7 in source order.
   * `undefined` for any other type.
   */
  spreadOrder(type: ts.Type, depth = 0): string[] | undefined {
    const t = this.tsi;
    const symbol = type.getSymbol();
    if (depth > 8 || !symbol || !(symbol.flags & t.SymbolFlags.ObjectLiteral)) return undefined;
    const literal = symbol.declarations?.find((d): d is ts.ObjectLiteralExpression => t.isObjectLiteralExpression(d));
    if (!literal?.properties.some((p) => t.isSpreadAssignment(p))) return undefined;
    const names: string[] = [];
    for (const element of literal.properties) {
      if (t.isSpreadAssignment(element)) {
        const spread = this.checker.getTypeAtLocation(element.expression);
        names.push(...(this.spreadOrder(spread, depth + 1) ?? this.propertyNames(spread)));
      } else if (
        element.name &&
        (t.isIdentifier(element.name) || t.isStringLiteral(element.name) || t.isNumericLiteral(element.name))
      ) {
        names.push(element.name.text);
      }
    }
    return [...new Set(names)];
  }

  /** A type's property names in declaration order (an object literal with a spread: see `spreadOrder`). */
  private propertyNames(type: ts.Type): string[] {
    const names = this.checker.getPropertiesOfType(type).map((p) => p.getName());
    const written = names.length > 1 ? this.spreadOrder(type) : undefined;
    if (!written) return names;
    const rank = (name: string) => (written.indexOf(name) < 0 ? written.length : written.indexOf(name));
    return names.sort((a, b) => rank(a) - rank(b));
  }

  /** Property names of a mapped type in the order its keys were written (`Record<"b" | "a", T>`), if known. */
  keyOrder(node: ts.TypeNode | undefined, depth = 0): string[] | undefined {
    if (depth === 0) this.useSiteReads++;
    if (!node || depth > 3) return undefined;
    const inner = this.skipParens(node);
    if (!this.tsi.isTypeReferenceNode(inner) || !inner.typeArguments) return undefined;
    for (const argument of inner.typeArguments) {
      const keys = this.keysWrittenAt(argument);
      const names = keys.filter((k): k is string => typeof k === "string").map((k) => k.slice(2));
      if (names.length > 1) return names;
      // `Partial<Record<K, T>>`: the keys are written one level down.
      const nested = this.keyOrder(argument, depth + 1);
      if (nested) return nested;
    }
    return undefined;
  }

  private keysOfUnion(union: ts.Type, node: ts.TypeNode | undefined): MemberKey[] | undefined {
    if (node && this.spells(node, union)) return this.keysWrittenAt(node);
    const alias = union.aliasSymbol;
    if (alias && !union.aliasTypeArguments) {
      const declaration = alias.declarations?.find((d): d is ts.TypeAliasDeclaration =>
        this.tsi.isTypeAliasDeclaration(d),
      );
      if (declaration) return this.keysWrittenAt(declaration.type);
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

  private keysWrittenAt(node: ts.TypeNode): MemberKey[] {
    let keys = this.keysAt.get(node);
    if (!keys) this.keysAt.set(node, (keys = this.keysOfNode(node, new Set())));
    return keys;
  }

  private keysOfNode(node: ts.TypeNode, seen: Set<ts.Node>): MemberKey[] {
    const t = this.tsi;
    node = this.skipParens(node);
    if (seen.has(node)) return [];
    seen.add(node);
    if (t.isUnionTypeNode(node)) return node.types.flatMap((n) => this.keysOfNode(n, seen));
    if (node.kind === t.SyntaxKind.BooleanKeyword) return ["b:true", "b:false"];
    const type = this.checker.getTypeFromTypeNode(node);
    if (t.isTemplateLiteralTypeNode(node)) return this.templateKeys(node, seen);
    if (t.isTypeReferenceNode(node) && !node.typeArguments) {
      // The alias the name stands for (TypeScript 7 does not always keep it on the type: `type Keys = keyof T`).
      const declaration =
        this.aliasDeclaration(this.checker.getSymbolAtLocation(node.typeName)) ??
        this.aliasDeclaration(type.aliasSymbol);
      if (declaration && !declaration.typeParameters) return this.keysOfNode(declaration.type, seen);
      const typeSymbol = type.getSymbol();
      if (typeSymbol && typeSymbol.flags & t.SymbolFlags.Enum && type.isUnion()) return this.enumKeys(typeSymbol);
    }
    if (t.isTypeReferenceNode(node) && node.typeArguments && type.isUnion()) {
      // `Uppercase<"b" | "a">`, `Exclude<T, "a">`, `Narrow<"b" | "a">`: the members in the order of the arguments'
      // (mapped by the intrinsic, for the string mappings); members no argument spells get the canonical order.
      const argumentKeys = node.typeArguments.flatMap((argument) => this.keysOfNode(argument, seen));
      const mapping = STRING_MAPPINGS[t.isIdentifier(node.typeName) ? node.typeName.text : ""];
      const keys = mapping
        ? argumentKeys.flatMap((k) => (typeof k === "string" && k.startsWith("s:") ? [`s:${mapping(k.slice(2))}`] : []))
        : argumentKeys;
      const members = new Set(type.types.map((m) => memberKey(t, m)));
      const known = [...new Set(keys)].filter((k) => members.has(k));
      const placed = new Set(known);
      return [...known, ...this.keysOfType(type).filter((k) => !placed.has(k))];
    }
    if (t.isTypeOperatorNode(node) && node.operator === t.SyntaxKind.KeyOfKeyword) {
      const operand = this.checker.getTypeFromTypeNode(node.type);
      return this.propertyNames(operand).map((name) => `s:${name}`);
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

  /**
   * The keys of a type no spelling orders: an enum's in declaration order, a union's in the canonical order (its
   * members' own order follows type ids, which differ between TypeScript 5.9 and 7, and with the program).
   */
  private keysOfType(type: ts.Type): MemberKey[] {
    if (type.isUnion()) {
      const symbol = type.getSymbol();
      if (symbol && symbol.flags & this.tsi.SymbolFlags.Enum) return this.enumKeys(symbol);
      return type.types
        .map((m) => ({ key: memberKey(this.tsi, m), canonical: this.canonicalKey(m) }))
        .sort((a, b) => (a.canonical < b.canonical ? -1 : a.canonical > b.canonical ? 1 : 0))
        .map((m) => m.key);
    }
    return [memberKey(this.tsi, type)];
  }

  /**
   * The strings a template literal type spells, in written order: `x-${"b" | "a"}` is x-b, x-a; with several
   * spans the first varies slowest. Spans that are not literal unions spell no keys.
   */
  private templateKeys(node: ts.TemplateLiteralTypeNode, seen: Set<ts.Node>): MemberKey[] {
    let texts = [node.head.text];
    for (const span of node.templateSpans) {
      const values: string[] = [];
      for (const key of this.keysOfNode(span.type, seen)) {
        if (typeof key === "string" && (key.startsWith("s:") || key.startsWith("n:"))) values.push(key.slice(2));
        else if (key === "b:true" || key === "b:false") values.push(key.slice(2));
      }
      if (values.length === 0 || texts.length * values.length > 10_000) return [];
      texts = texts.flatMap((text) => values.map((value) => `${text}${value}${span.literal.text}`));
    }
    return texts.map((text) => `s:${text}`);
  }

  /** The type alias declaration of `symbol` (an imported name followed to what it imports), if it is one. */
  private aliasDeclaration(symbol: ts.Symbol | undefined): ts.TypeAliasDeclaration | undefined {
    const t = this.tsi;
    if (symbol && symbol.flags & t.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return symbol?.declarations?.find((d): d is ts.TypeAliasDeclaration => t.isTypeAliasDeclaration(d));
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
