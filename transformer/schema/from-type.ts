/**
 * Reads a `ts.Type` into the schema model. This is the only place that asks the checker about parameter types.
 *
 * Responsibilities:
 * - primitives, literals and template literals; literal unions as one enum in written order; `T | null`; other
 *   unions as alternatives, refusing members without a JSON form and `Date | string`;
 * - arrays and tuples (optional and rest elements); objects: interfaces, type literals, intersections, mapped and
 *   conditional types, classes as data (public data members only), string/numeric/template index signatures;
 * - branded primitives (`string & { __brand }`); type tags (`Int & Min<0>`) and property JSDoc keyword tags are
 *   read and checked by tags.ts;
 * - `Date`, and `$defs` for recursive and shared named types (`finish`);
 * - a named object type read once per program and its reading shared by every tool, when the reading depends on
 *   nothing of the use (`readTracked`); answers that depend on a type alone are remembered per type.
 *
 * Problems are reported at the exact node: the parameter, or, for a part of a type declared in the user's own
 * code, the property declaration (or JSDoc tag) that spells it, related back to the parameter. Reading goes on
 * after a problem so one build shows every problem.
 */
import type * as ts from "typescript";
import { arrayElementType, type TS } from "../compat";
import { Code, type RelatedLocation } from "../diagnostics";
import { symbolDescription } from "../jsdoc";
import type { Resolve } from "./keywords";
import type { Definitions, Keywords, PatternProperty, Problem, PropertyNode, SchemaNode, Site } from "./model";
import { readableName } from "./names";
import { WrittenOrder } from "./order";
import { NUMERIC_KEY, templatePattern } from "./patterns";
import { KeywordTags, TAG_PROPERTY } from "./tags";
import { toJsonSchema } from "./to-json";

/** Why a type has no JSON form, and what to write instead. */
interface NoJson {
  what: string;
  advice: string;
}

/** Library types that have no JSON form, with the advice for each. */
const UNSUPPORTED_LIBRARY_TYPES: Record<string, string> = {
  Map: "use a Record<string, T> or an array of [key, value] pairs",
  ReadonlyMap: "use a Record<string, T> or an array of [key, value] pairs",
  WeakMap: "use a Record<string, T>",
  Set: "use an array (T[])",
  ReadonlySet: "use an array (T[])",
  WeakSet: "use an array (T[])",
  Promise: "take the resolved value as the parameter and await inside the tool",
  PromiseLike: "take the resolved value as the parameter",
  Function: "pass data, not functions: a model can only send JSON",
  RegExp: "use a string with a Pattern<...> tag",
  Error: "use a plain object type with the fields you need",
  String: "write string (lowercase): String is the wrapper object type",
  Number: "write number (lowercase): Number is the wrapper object type",
  Boolean: "write boolean (lowercase): Boolean is the wrapper object type",
  Object: "write an interface or type literal with the properties you expect (Object is any non-null value)",
  ArrayBuffer: "use a string (base64) with Format<\"byte\">",
  Uint8Array: "use a string (base64) with Format<\"byte\">",
  Buffer: "use a string (base64) with Format<\"byte\"> and decode it with Buffer.from(value, \"base64\") in the tool",
  Blob: "use a string (base64) with Format<\"byte\">, or a URL the tool fetches",
  File: "use a string (base64) with Format<\"byte\"> and a file name, or a URL the tool fetches",
  URLSearchParams: "use a Record<string, string> (or a query string) and build new URLSearchParams(...) in the tool",
  WeakRef: "pass the data itself; a reference to an object cannot travel in JSON",
};

/**
 * A class or interface of the standard library (TypeScript's lib files or @types/node) whose instances have
 * methods is behaviour, not data: read as its public fields it would be a silently wrong schema (`Blob` as
 * `{ size, type }`). Only the ones with a JSON form are mapped (`Date`, `URL`, arrays); the rest are refused.
 */
const LIBRARY_CLASS_ADVICE = "take the data it is built from (a string, number or plain object type) and construct it in the tool";

/**
 * Readings of named object types (interfaces, classes, aliased object types) per checker, shared by every tool of
 * the program: a type used by many tools is read once. Only readings that cannot depend on where the type is used
 * are kept (see `readTracked`); a new program (watch mode) has a new checker and so starts empty.
 */
const sharedReadings = new WeakMap<ts.TypeChecker, Map<ts.Type, SchemaNode>>();
/** Type-name resolutions per checker (a source file, and so its nodes, can outlive one program in watch mode). */
const typeNameSymbols = new WeakMap<ts.TypeChecker, Map<ts.Node, ts.Symbol | undefined>>();
/** Answers that depend on an object type alone (a type belongs to one checker), asked again by every tool. */
const objectNoJson = new WeakMap<ts.Type, NoJson | null>();
const impossibleObjects = new WeakMap<ts.Type, boolean>();
/** isLibrarySymbol's answers. */
const librarySymbols = new WeakMap<ts.Symbol, boolean>();

/** What the reader knows about one composite type it has met (see `readTracked`). */
interface Tracked {
  name?: string;
  node?: SchemaNode;
  expanding: boolean;
  recursive: boolean;
  uses: number;
}

/** One reader per tool: `$defs` are collected across all its parameters. */
export class TypeReader {
  readonly problems: Problem[] = [];
  /** Composite types met so far: named ones stay (shared via `$defs`), anonymous ones only while expanding. */
  private readonly tracked = new Map<ts.Type, Tracked>();
  private readonly byName = new Map<string, Tracked>();
  /** The tracked types being expanded, outermost first (a recursion marks the whole cycle). */
  private readonly expanding: Tracked[] = [];
  private readonly order: WrittenOrder;
  private readonly tags: KeywordTags;
  /** Looks up a `$defs` entry by name while reading (keyword checks follow references). */
  private readonly resolve: Resolve = (name) => this.byName.get(name)?.node;

  constructor(
    private readonly tsi: TS,
    private readonly checker: ts.TypeChecker,
    private readonly toolName: string,
  ) {
    this.order = new WrittenOrder(tsi, checker);
    this.tags = new KeywordTags({ tsi, checker, resolve: this.resolve, describe: (site) => this.describe(site), problems: this.problems });
  }

  /**
   * Reads a parameter or property type. `undefined` members are left to the caller (they make it optional).
   * Keyword tags in the JSDoc of the type alias(es) it is spelled with apply here, where the alias is used.
   */
  read(type: ts.Type, site: Site): SchemaNode {
    const node = this.readType(type, site);
    const aliases = this.aliasesOf(type, site);
    return aliases.length === 0 ? node : withKeywords(node, this.tags.aliasKeywords(aliases, node, site));
  }

  /**
   * The type alias declarations `type` is spelled with here, innermost first (`type A = B; type B = string`: B,
   * A): through `site.typeNode` when it names an alias of exactly this type (an alias of `string` leaves no trace
   * on the type itself), else the type's own alias.
   */
  private aliasesOf(type: ts.Type, site: Site): ts.TypeAliasDeclaration[] {
    const t = this.tsi;
    const chain: ts.TypeAliasDeclaration[] = [];
    let node = skipTypeParens(t, site.typeNode);
    if (!(node && t.isTypeReferenceNode(node) && this.checker.getTypeFromTypeNode(node) === type)) {
      const declaration = type.aliasSymbol?.declarations?.find((d): d is ts.TypeAliasDeclaration => t.isTypeAliasDeclaration(d));
      if (!declaration || this.isLibrarySymbol(type.aliasSymbol!)) return chain;
      chain.push(declaration);
      node = skipTypeParens(t, declaration.type);
    }
    for (let depth = 0; node && t.isTypeReferenceNode(node) && depth < 16; depth++) {
      const symbol = this.symbolOfTypeName(node.typeName);
      const declaration = symbol?.declarations?.find((d): d is ts.TypeAliasDeclaration => t.isTypeAliasDeclaration(d));
      if (!declaration || this.isLibrarySymbol(symbol!) || chain.includes(declaration)) break;
      chain.push(declaration);
      node = skipTypeParens(t, declaration.type);
    }
    return chain.reverse();
  }

  /**
   * What a type reference's name resolves to, through import aliases. Remembered per program: the properties of a
   * type shared by many tools spell their types with the same nodes in every tool, and resolving a name is one of
   * the checker's slower questions.
   */
  private symbolOfTypeName(name: ts.EntityName): ts.Symbol | undefined {
    let known = typeNameSymbols.get(this.checker);
    if (!known) typeNameSymbols.set(this.checker, (known = new Map()));
    if (known.has(name)) return known.get(name);
    let symbol = this.checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & this.tsi.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    known.set(name, symbol);
    return symbol;
  }

  private readType(type: ts.Type, site: Site): SchemaNode {
    const f = this.tsi.TypeFlags;
    const flags = type.flags;
    if (flags & (f.Any | f.Unknown)) {
      this.problem(Code.UnknownOrAny, site, `${this.describe(site)} is typed ${flags & f.Any ? "any" : "unknown"}, so the model is told nothing about it and any JSON value is accepted. Give it a concrete type if you can.`, true);
      return { kind: "any" };
    }
    const no = this.noJson(type);
    if (no) return this.unsupported(site, no.what, no.advice);
    if (flags & f.Null) return { kind: "primitive", type: "null" };
    if (flags & f.StringLiteral) return { kind: "literal", value: (type as ts.StringLiteralType).value };
    if (flags & f.NumberLiteral) return { kind: "literal", value: (type as ts.NumberLiteralType).value };
    if (flags & f.BooleanLiteral) return { kind: "literal", value: isTrue(type) };
    if (flags & f.String) return { kind: "primitive", type: "string" };
    if (flags & f.Number) return { kind: "primitive", type: "number" };
    if (flags & f.Boolean) return { kind: "primitive", type: "boolean" };
    if (flags & f.TemplateLiteral) {
      return { kind: "primitive", type: "string", keywords: { pattern: templatePattern(this.tsi, type as ts.TemplateLiteralType) } };
    }
    if (flags & f.StringMapping) return { kind: "primitive", type: "string" };
    if (flags & f.NonPrimitive) {
      this.problem(Code.UnknownOrAny, site, `${this.describe(site)} is typed object, so the model is told nothing about its properties and any JSON object is accepted. Give it an interface or type literal with the properties you expect.`, true);
      return { kind: "object", properties: [], patterns: [], additionalProperties: true };
    }
    if (type.isUnion()) return this.readUnion(type, site);
    if (type.isIntersection()) return this.readIntersection(type, site);
    if (flags & f.Object) return this.readObjectLike(type as ts.ObjectType, site);
    return this.unsupported(site, this.checker.typeToString(type), "use JSON data types: string, number, boolean, arrays, objects and unions of them");
  }

  /** True when a union type has `undefined` (or `void`) among its members: the value may be left out. */
  includesUndefined(type: ts.Type): boolean {
    const f = this.tsi.TypeFlags;
    const members = type.isUnion() ? type.types : [type];
    return members.some((m) => (m.flags & (f.Undefined | f.Void)) !== 0);
  }

  /** Types that have no JSON form at all, whatever surrounds them. */
  private noJson(type: ts.Type): NoJson | undefined {
    const f = this.tsi.TypeFlags;
    const flags = type.flags;
    if (flags & f.Never) return { what: "never", advice: "a value of type never can never be passed; remove it or give it a real type" };
    if (flags & (f.Void | f.Undefined)) return { what: "void or undefined", advice: "JSON has no undefined; make it optional (x?: T) instead" };
    if (flags & f.ESSymbolLike) return { what: "symbol", advice: "use a string" };
    if (flags & f.BigIntLike) return { what: "bigint", advice: "use number (Int for whole numbers) or a string of digits" };
    if (flags & f.TypeParameter) {
      return { what: `the type parameter ${this.checker.typeToString(type)}`, advice: "tools need concrete types; replace the type parameter with the type the model should send" };
    }
    if (!(flags & f.Object) || this.checker.isArrayType(type) || this.checker.isTupleType(type)) return undefined;
    let answer = objectNoJson.get(type);
    if (answer === undefined) objectNoJson.set(type, (answer = this.objectNoJson(type) ?? null));
    return answer ?? undefined;
  }

  /** noJson for object types (other than arrays and tuples), which asks the checker about signatures and bases. */
  private objectNoJson(type: ts.Type): NoJson | undefined {
    const symbol = type.getSymbol() ?? type.aliasSymbol;
    const libName = symbol && this.isLibrarySymbol(symbol) ? symbol.getName() : undefined;
    if (libName && libName in UNSUPPORTED_LIBRARY_TYPES) return { what: libName, advice: UNSUPPORTED_LIBRARY_TYPES[libName]! };
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      return { what: "a function", advice: "a model can only send JSON data, not functions; take the data the function would need instead" };
    }
    if (symbol && libName && !this.revivedClass(type) && symbol.flags & (this.tsi.SymbolFlags.Class | this.tsi.SymbolFlags.Interface) && this.hasMethods(type)) {
      return { what: `${libName} (a class of the standard library)`, advice: LIBRARY_CLASS_ADVICE };
    }
    const base = symbol && !libName ? this.libraryBase(type) : undefined;
    if (base) {
      return { what: `${symbol!.getName()}, which extends ${base} (a class of the standard library)`, advice: "take the data it is built from and construct it in the tool" };
    }
    return undefined;
  }

  /** The standard-library class with methods (not Array) that a class or interface of the user's extends, if any. */
  private libraryBase(type: ts.Type, depth = 0): string | undefined {
    const objectFlags = (type as ts.ObjectType).objectFlags ?? 0;
    const target = objectFlags & this.tsi.ObjectFlags.Reference ? (type as ts.TypeReference).target : type;
    if (depth > 8 || !(((target as ts.ObjectType).objectFlags ?? 0) & this.tsi.ObjectFlags.ClassOrInterface)) return undefined;
    for (const base of this.checker.getBaseTypes(target as ts.InterfaceType)) {
      if (this.checker.isArrayType(base) || this.checker.isTupleType(base)) continue;
      const symbol = base.getSymbol();
      if (symbol && this.isLibrarySymbol(symbol)) {
        if (this.hasMethods(base)) return symbol.getName();
        continue;
      }
      const further = this.libraryBase(base, depth + 1);
      if (further) return further;
    }
    return undefined;
  }

  private hasMethods(type: ts.Type): boolean {
    const t = this.tsi;
    return this.checker.getPropertiesOfType(type).some((p) => (p.declarations ?? []).some((d) => t.isMethodSignature(d) || t.isMethodDeclaration(d)));
  }

  /** Unions: literal members as one enum, `boolean` kept whole, null as one more branch, in written order. */
  private readUnion(type: ts.UnionType, site: Site): SchemaNode {
    const f = this.tsi.TypeFlags;
    // `x?: T` is `T | undefined`: with one member left once undefined is dropped (readMembers), order says nothing.
    const ordered = type.types.filter((m) => !(m.flags & (f.Undefined | f.Void))).length > 1;
    const members = ordered ? this.order.sort(type, type.types, site.typeNode, site.scopes) : type.types;
    const literalOnly = members.every((m) => m.flags & (f.Literal | f.Null | f.Undefined | f.Void));
    if (literalOnly) return withKeywords(this.readMembers(members, site), this.typeDescription(type));
    // Primitives cannot lead back to the union, so there is no recursion to track.
    const primitive = f.StringLike | f.NumberLike | f.BooleanLike | f.Null | f.Undefined | f.Void;
    if (type.types.every((m) => m.flags & primitive)) return this.readMembers(members, site);
    return this.readTracked(type, site, () => this.readMembers(members, site));
  }

  private readMembers(all: readonly ts.Type[], site: Site): SchemaNode {
    const f = this.tsi.TypeFlags;
    const defined = all.filter((m) => !(m.flags & (f.Undefined | f.Void)));
    // A branch no value can have (`[never]`, `{ kind: "x"; v: never }`) says nothing; an all-impossible union is never.
    const possible = defined.filter((m) => !this.isImpossible(m));
    const members = possible.length > 0 ? possible : defined;
    const hasNull = members.some((m) => m.flags & f.Null);
    const rest = members.filter((m) => !(m.flags & f.Null));
    // TypeScript spells `boolean` as `true | false`; when both are there, keep it one boolean.
    const isBoolean = (m: ts.Type) => (m.flags & f.BooleanLiteral) !== 0;
    const wholeBoolean = rest.some((m) => isBoolean(m) && isTrue(m)) && rest.some((m) => isBoolean(m) && !isTrue(m));
    const isLiteral = (m: ts.Type) => (m.flags & (f.StringLiteral | f.NumberLiteral)) !== 0 || (!wholeBoolean && isBoolean(m));
    const literals = rest.filter(isLiteral);
    // `x?: T` and `T | undefined` are T, optional: what is wrong with T is said about T, not about a union.
    if (rest.length === 1 && !hasNull) return this.read(rest[0]!, site);

    const rejected = rest.filter((m) => !isLiteral(m) && !(wholeBoolean && isBoolean(m))).map((m) => ({ m, no: this.noJson(m) })).filter((r) => r.no);
    if (rejected.length > 0 && rejected.length === rest.length) {
      // Nothing in the union has a JSON form (`1n | 2n`): that is one unsupported type.
      return this.unsupported(site, rejected[0]!.no!.what, rejected[0]!.no!.advice);
    }
    if (rejected.length > 0) {
      const listed = rejected.map((r) => `${this.checker.typeToString(r.m)} (${r.no!.what})`).join(", ");
      const advice = [...new Set(rejected.map((r) => r.no!.advice))].join("; ");
      this.problem(Code.UnsupportedUnion, site, `${this.describe(site)} is a union with ${rejected.length === 1 ? "a member" : "members"} JSON cannot carry: ${listed}. Remove ${rejected.length === 1 ? "that member" : "them"} from the union (${advice}).`);
    }
    this.checkDateOrString(rest, site);
    const parts: SchemaNode[] = [];
    let placedBoolean = false;
    let placedLiterals = false;
    for (const m of rest) {
      if (wholeBoolean && isBoolean(m)) {
        if (!placedBoolean) parts.push({ kind: "primitive", type: "boolean" });
        placedBoolean = true;
      } else if (isLiteral(m)) {
        if (placedLiterals) continue;
        placedLiterals = true;
        const values = literals.map((l) => (isBoolean(l) ? isTrue(l) : ((l as ts.LiteralType).value as string | number)));
        const names = this.numericEnumNames(literals);
        parts.push(values.length === 1 ? { kind: "literal", value: values[0]! } : names ? { kind: "enum", values, names } : { kind: "enum", values });
      } else {
        if (rejected.some((r) => r.m === m)) continue;
        const node = this.read(m, { ...site, typeNode: this.memberTypeNode(m, site.typeNode) ?? site.typeNode });
        if (node.kind === "union" && !node.keywords) parts.push(...node.members);
        else parts.push(node);
      }
    }
    if (parts.length === 0) {
      if (hasNull) return { kind: "primitive", type: "null" };
      return this.unsupported(site, "undefined", "JSON has no undefined; make it optional (x?: T) instead");
    }
    if (hasNull) parts.push({ kind: "primitive", type: "null" });
    // Branches that say the same (two brands of number, `number & A` next to number) are one: a `type` array or
    // `anyOf` listing a schema twice is invalid or redundant.
    if (parts.length === 1) return parts[0]!;
    const written = parts.map((p) => JSON.stringify(toJsonSchema(p)));
    const distinct = parts.filter((_, i) => written.indexOf(written[i]!) === i);
    return distinct.length === 1 ? distinct[0]! : { kind: "union", members: distinct };
  }

  /**
   * The type node of one member of a union or intersection spelled at `node` (directly, or in the aliases it
   * names), so an alias written there is seen with its JSDoc tags: `Slug | null`, `type Short = Slug & MaxLength<9>`.
   */
  private memberTypeNode(member: ts.Type, node: ts.TypeNode | undefined): ts.TypeNode | undefined {
    const spelled = this.spelled(node);
    if (!spelled || !(this.tsi.isUnionTypeNode(spelled) || this.tsi.isIntersectionTypeNode(spelled))) return undefined;
    return spelled.types.find((part) => this.checker.getTypeFromTypeNode(part) === member);
  }

  /** `node` with parentheses and references to non-generic type aliases followed to what they spell. */
  private spelled(node: ts.TypeNode | undefined): ts.TypeNode | undefined {
    const t = this.tsi;
    let spelled = skipTypeParens(t, node);
    for (let depth = 0; spelled && t.isTypeReferenceNode(spelled) && !spelled.typeArguments && depth < 16; depth++) {
      const symbol = this.symbolOfTypeName(spelled.typeName);
      const declaration = symbol?.declarations?.find((d): d is ts.TypeAliasDeclaration => t.isTypeAliasDeclaration(d));
      if (!declaration || declaration.typeParameters) break;
      spelled = skipTypeParens(t, declaration.type);
    }
    return spelled;
  }

  /**
   * A type no JSON value can have: a tuple with a required `never` element, an object with a required `never`
   * property. Inside a union such a branch is dropped; alone it is reported as never.
   */
  private isImpossible(type: ts.Type): boolean {
    const f = this.tsi.TypeFlags;
    if (type.flags & f.Never) return true;
    if (!(type.flags & f.Object)) return false;
    if (this.checker.isTupleType(type)) {
      const flags = (type as ts.TupleTypeReference).target.elementFlags;
      return this.checker.getTypeArguments(type as ts.TypeReference).some((t, i) => flags[i]! & this.tsi.ElementFlags.Required && t.flags & f.Never);
    }
    if (this.checker.isArrayType(type)) return false;
    let answer = impossibleObjects.get(type);
    if (answer === undefined) {
      answer = this.checker.getPropertiesOfType(type).some((p) => !(p.flags & this.tsi.SymbolFlags.Optional) && this.checker.getTypeOfSymbol(p).flags & f.Never);
      impossibleObjects.set(type, answer);
    }
    return answer;
  }

  /**
   * The member names of a numeric enum (`enum Level { Low = 1, High = 2 }`), for the model, which otherwise sees
   * only `[1, 2]`; undefined unless every literal is a member of one enum and some value is a number.
   */
  private numericEnumNames(literals: readonly ts.Type[]): string[] | undefined {
    const names: string[] = [];
    let parent: ts.Node | undefined;
    for (const l of literals) {
      const symbol = l.getSymbol();
      if (!symbol || !(symbol.flags & this.tsi.SymbolFlags.EnumMember)) return undefined;
      const owner = symbol.valueDeclaration?.parent;
      if (!owner || (parent && owner !== parent)) return undefined;
      parent = owner;
      names.push(symbol.getName());
    }
    return literals.some((l) => l.flags & this.tsi.TypeFlags.NumberLiteral) ? names : undefined;
  }

  /**
   * A Date or URL arrives as a string, so next to another string type (or each other) dispatch could not tell
   * which strings to revive.
   */
  private checkDateOrString(members: readonly ts.Type[], site: Site): void {
    const f = this.tsi.TypeFlags;
    const revived = members.find((m) => this.revivedClass(m));
    if (!revived) return;
    const name = this.revivedClass(revived)!;
    const stringy = members.find(
      (m) => m !== revived && (m.flags & (f.String | f.TemplateLiteral | f.StringMapping) || (m.isIntersection() && m.types.some((t) => t.flags & f.String)) || this.revivedClass(m)),
    );
    if (!stringy) return;
    const format = name === "Date" ? "date-time" : "uri";
    const convert = name === "Date" ? "new Date(...)" : "new URL(...)";
    this.problem(Code.UnsupportedUnion, site, `${this.describe(site)} is a union of ${name} and ${this.checker.typeToString(stringy)}, but a ${name} arrives as a string too, so dispatch cannot tell which strings to turn into ${name}s. Use ${name} alone, or string alone (string & Format<"${format}">) and convert it with ${convert} in the tool.`);
  }

  /**
   * Intersections: type tags (`Int & Min<0>`) add keywords to the tagged type; a primitive intersected with object
   * types is a branded primitive (`string & { __brand: "UserId" }`), which is its primitive on the wire; anything
   * else is one object with all the members' properties.
   */
  private readIntersection(type: ts.IntersectionType, site: Site): SchemaNode {
    const f = this.tsi.TypeFlags;
    const tags = type.types.filter((t) => this.tags.isTag(t));
    const base = type.types.filter((t) => !this.tags.isTag(t));
    // The value itself: a primitive, or an array or tuple (`number[] & { __brand?: "ids" }`): the other members
    // are brands, types only, which a JSON array carries no more than a JSON string does.
    const primitives = base.filter((t) => t.flags & (f.StringLike | f.NumberLike | f.BooleanLike) || this.checker.isArrayType(t) || this.checker.isTupleType(t));
    if (tags.length === 0 && primitives.length === 0) return this.readTracked(type, site, () => this.readObject(type, site));
    let node: SchemaNode;
    if (primitives.length === 1) node = this.read(primitives[0]!, { ...site, typeNode: this.memberTypeNode(primitives[0]!, site.typeNode) ?? site.typeNode });
    else if (base.length === 1) node = this.read(base[0]!, site);
    else if (base.length === 0) node = { kind: "any" };
    else node = this.readTracked(type, site, () => this.readObject(type, site));
    return tags.length === 0 ? node : this.tags.applyTypeTags(type, node, site);
  }

  private readObjectLike(type: ts.ObjectType, site: Site): SchemaNode {
    const revived = this.revivedClass(type);
    if (revived) return { kind: revived === "Date" ? "date" : "url" };
    return this.readTracked(type, site, () => this.readStructure(type, site), true);
  }

  /** `Date` and `URL` of the standard library: strings on the wire, revived to instances before the call. */
  private revivedClass(type: ts.Type): "Date" | "URL" | undefined {
    const symbol = type.getSymbol();
    if (!symbol || !this.isLibrarySymbol(symbol)) return undefined;
    const name = symbol.getName();
    return name === "Date" || name === "URL" ? name : undefined;
  }

  private readStructure(type: ts.Type, site: Site): SchemaNode {
    const element = arrayElementType(this.checker, type);
    if (element) {
      return { kind: "array", items: this.readElement(element, this.itemSite(site, "*", elementTypeNode(this.tsi, this.spelled(site.typeNode)))) };
    }
    const inherited = this.arrayBase(type);
    if (inherited) {
      // `interface TagArray extends Array<Tag> {}` is an array; members of its own cannot travel in a JSON array.
      const own = this.checker.getPropertiesOfType(type).filter((p) => p.getName() !== TAG_PROPERTY && !p.getName().startsWith("__@") && !(p.flags & this.tsi.SymbolFlags.Optional) && !this.checker.getPropertyOfType(inherited, p.getName()));
      const data = own.filter((p) => !(p.valueDeclaration ?? p.declarations?.[0]) || !this.isBehaviour((p.valueDeclaration ?? p.declarations![0])!));
      if (data.length > 0) {
        return this.unsupported(site, this.checker.typeToString(type), `an array with its own properties (${data.map((p) => p.getName()).join(", ")}) has no JSON form, which holds only the items; take an object such as { items: T[]; ${data[0]!.getName()}: ... } instead`);
      }
      return { kind: "array", items: this.readElement(arrayElementType(this.checker, inherited)!, this.itemSite(site, "*", undefined)) };
    }
    if (this.checker.isTupleType(type)) return this.readTuple(type as ts.TupleTypeReference, site);
    return this.readObject(type, site);
  }

  private itemSite(site: Site, segment: string, typeNode: ts.TypeNode | undefined): Site {
    return { node: site.node, param: site.param, path: [...site.path, segment], typeNode, scopes: site.scopes };
  }

  /** `[A, B?, ...C[]]`: positional items, the required count, and the type of the rest. */
  private readTuple(type: ts.TupleTypeReference, site: Site): SchemaNode {
    const E = this.tsi.ElementFlags;
    const elements = this.checker.getTypeArguments(type);
    const flags = type.target.elementFlags;
    const nodes = tupleElementNodes(this.tsi, this.spelled(site.typeNode));
    const prefix: SchemaNode[] = [];
    let rest: SchemaNode | undefined;
    let minItems = 0;
    for (let i = 0; i < elements.length; i++) {
      const element = elements[i]!;
      if (flags[i]! & E.Variable) {
        if (i !== elements.length - 1) {
          return this.unsupported(site, this.checker.typeToString(type), "JSON Schema can only describe a rest element at the end of a tuple; move it last or use an array");
        }
        rest = this.readElement(element, this.itemSite(site, "*", elementTypeNode(this.tsi, nodes?.[i])));
        continue;
      }
      prefix.push(this.readElement(element, this.itemSite(site, String(i), nodes?.[i])));
      if (flags[i]! & E.Required) minItems = prefix.length;
    }
    const node: SchemaNode = { kind: "tuple", prefix, minItems };
    if (rest) node.rest = rest;
    return node;
  }

  /**
   * Composite types go through here so that recursion ends in a `$ref` and named types (interfaces, classes,
   * aliases) used more than once become one `$defs` entry. Named types used once are inlined again by
   * `finish()` once the whole tool has been read.
   */
  private readTracked(type: ts.Type, site: Site, expand: () => SchemaNode, shareable = false): SchemaNode {
    const known = this.tracked.get(type);
    if (known) {
      if (known.expanding) {
        const cycle = this.expanding.slice(this.expanding.indexOf(known));
        // `items: Menu[]` where Menu has `submenu: Menu[]`: the cycle passes through the named Menu, so expand the
        // array once more and let the reference fall on the name a reader knows.
        if (!known.name && cycle.some((e) => e.name)) return expand();
        // Every named type on the cycle is recursive: each keeps its own `$defs` entry, none is inlined into another.
        for (const e of cycle) if (e.name || e === known) e.recursive = true;
      }
      known.uses++;
      return { kind: "ref", name: this.nameOf(type, known, site) };
    }
    const entry: Tracked = { expanding: true, recursive: false, uses: 1 };
    const named = this.isNamed(type);
    if (named) this.nameOf(type, entry, site);
    this.tracked.set(type, entry);
    let shared: Map<ts.Type, SchemaNode> | undefined;
    if (named && shareable) {
      shared = sharedReadings.get(this.checker);
      if (!shared) sharedReadings.set(this.checker, (shared = new Map()));
      const reading = shared.get(type);
      if (reading) {
        entry.expanding = false;
        entry.node = reading;
        return { kind: "ref", name: entry.name! };
      }
    }
    const problemsBefore = this.problems.length;
    const useSiteReadsBefore = this.order.useSiteReads;
    this.expanding.push(entry);
    const node = expand();
    this.expanding.pop();
    entry.expanding = false;
    entry.node = named ? withKeywords(node, this.typeDescription(type)) : node;
    // Shared only when reading it here asked nothing of this use: no problem (its text and place name the use), no
    // order taken from the use site, and no reference to another tracked type (whose `$defs` name, sharing and
    // recursion belong to this tool).
    if (shared && !entry.recursive && this.problems.length === problemsBefore && this.order.useSiteReads === useSiteReadsBefore && !hasRef(entry.node)) {
      shared.set(type, entry.node);
    }
    if (named || entry.recursive) return { kind: "ref", name: entry.name! };
    this.tracked.delete(type);
    return node;
  }

  /** The array type an interface or class extends (`interface Tags extends Array<Tag>`), directly or further up. */
  private arrayBase(type: ts.Type, depth = 0): ts.Type | undefined {
    const objectFlags = (type as ts.ObjectType).objectFlags ?? 0;
    const target = objectFlags & this.tsi.ObjectFlags.Reference ? (type as ts.TypeReference).target : type;
    if (depth > 8 || !(((target as ts.ObjectType).objectFlags ?? 0) & this.tsi.ObjectFlags.ClassOrInterface)) return undefined;
    for (const base of this.checker.getBaseTypes(target as ts.InterfaceType)) {
      if (this.checker.isArrayType(base)) return base;
      const further = this.arrayBase(base, depth + 1);
      if (further) return further;
    }
    return undefined;
  }

  /** Types a person would name in a schema: interfaces, classes and aliases; not arrays, tuples or literals. */
  private isNamed(type: ts.Type): boolean {
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) return false;
    if (type.aliasSymbol) return true;
    const symbol = type.getSymbol();
    return !!symbol && (symbol.flags & (this.tsi.SymbolFlags.Interface | this.tsi.SymbolFlags.Class)) !== 0;
  }

  /** The JSDoc of a named type declared outside the standard library (`Partial`'s own doc is no help). */
  private typeDescription(type: ts.Type): Keywords {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (!symbol || this.isLibrarySymbol(symbol) || symbol.getName().startsWith("__")) return {};
    const description = symbolDescription(this.tsi, this.checker, symbol);
    return description ? { description } : {};
  }

  /** A stable, readable `$defs` name (see names.ts), unique within the tool; else named after where it was met. */
  private nameOf(type: ts.Type, entry: Tracked, site: Site): string {
    if (entry.name) return entry.name;
    let base = readableName(this.tsi, this.checker, type);
    if (!base) {
      const last = [...site.path].reverse().find((p) => p !== "*" && !/^\d+$/.test(p)) ?? "Type";
      base = last.charAt(0).toUpperCase() + last.slice(1).replace(/[^A-Za-z0-9_]/g, "_");
    }
    let name = base;
    for (let i = 2; this.byName.has(name); i++) name = `${base}_${i}`;
    this.byName.set(name, entry);
    entry.name = name;
    return name;
  }

  /**
   * Finishes the tool: named types used once are put back inline, and what stays shared or recursive is
   * returned as `$defs`.
   */
  finish(roots: SchemaNode[]): { roots: SchemaNode[]; definitions: Definitions } {
    const inline = (name: string): Tracked | undefined => {
      const entry = this.byName.get(name);
      return entry && entry.node && entry.uses === 1 && !entry.recursive ? entry : undefined;
    };
    // Parts without an inlined reference are kept as they are, not copied (readings are shared between tools).
    const resolve = (node: SchemaNode): SchemaNode => {
      switch (node.kind) {
        case "ref": {
          const entry = inline(node.name);
          if (!entry) return node;
          const target = resolve(entry.node!);
          return node.keywords ? { ...target, keywords: { ...target.keywords, ...node.keywords } } : target;
        }
        case "array": {
          const items = resolve(node.items);
          return items === node.items ? node : { ...node, items };
        }
        case "tuple": {
          const prefix = mapKept(node.prefix, resolve);
          const rest = node.rest && resolve(node.rest);
          return prefix === node.prefix && rest === node.rest ? node : { ...node, prefix, ...(rest ? { rest } : {}) };
        }
        case "object": {
          const properties = mapKept(node.properties, (p) => withSchema(p, resolve(p.schema)));
          const patterns = mapKept(node.patterns, (p) => withSchema(p, resolve(p.schema)));
          const additionalProperties = typeof node.additionalProperties === "boolean" ? node.additionalProperties : resolve(node.additionalProperties);
          if (properties === node.properties && patterns === node.patterns && additionalProperties === node.additionalProperties) return node;
          return { ...node, properties, patterns, additionalProperties };
        }
        case "union": {
          const members = mapKept(node.members, resolve);
          return members === node.members ? node : { ...node, members };
        }
        default:
          return node;
      }
    };
    const definitions: Definitions = new Map();
    for (const [name, entry] of this.byName) if (entry.node && !inline(name)) definitions.set(name, resolve(entry.node));
    return { roots: roots.map(resolve), definitions };
  }

  /** Array items: `undefined` members make no sense in JSON arrays and are dropped. */
  private readElement(type: ts.Type, site: Site): SchemaNode {
    const f = this.tsi.TypeFlags;
    if (type.isUnion() && type.types.some((m) => m.flags & (f.Undefined | f.Void))) {
      const rest = type.types.filter((m) => !(m.flags & (f.Undefined | f.Void)));
      return this.readMembers(this.order.sort(type, rest, site.typeNode, site.scopes), site);
    }
    return this.read(type, site);
  }

  /**
   * Properties, then index signatures: a string index gives `additionalProperties`; numeric and template-literal
   * keys give `patternProperties` (JSON Schema applies `additionalProperties` only to the keys those do not
   * match, which is exactly TypeScript's rule for known keys next to an index signature).
   */
  private readObject(type: ts.Type, site: Site): SchemaNode {
    const f = this.tsi.TypeFlags;
    let properties = this.readProperties(type, site);
    const patterns: PatternProperty[] = [];
    let additionalProperties: SchemaNode | false = false;
    const infos = this.checker.getIndexInfosOfType(type);
    if (infos.length > 0 && infos.every((i) => i.keyType.flags & f.ESSymbolLike)) {
      // `Record<symbol, T>`: every key is a symbol, and JSON has none; without this it would be an empty object.
      this.unsupported(site, this.checker.typeToString(type), "an object keyed by symbols has no JSON form, whose keys are strings; use Record<string, T>");
    }
    for (const info of infos) {
      // `Record<string, never>`: no key may have a value, which is what a closed object already says.
      if (info.type.flags & f.Never) continue;
      const valueSite = this.itemSite(site, "*", info.declaration?.type);
      if (info.keyType.flags & f.String) {
        additionalProperties = this.readElement(info.type, valueSite);
      } else if (info.keyType.flags & f.Number) {
        patterns.push({ pattern: NUMERIC_KEY, schema: this.readElement(info.type, valueSite) });
      } else if (info.keyType.flags & f.TemplateLiteral) {
        patterns.push({ pattern: templatePattern(this.tsi, info.keyType as ts.TemplateLiteralType), schema: this.readElement(info.type, valueSite) });
      }
      // Symbol keys never reach JSON (next to string keys they are left out; alone they are reported above).
    }
    // `b?: never` (must be absent): a closed object already refuses every key it does not list.
    if (additionalProperties === false && patterns.length === 0) properties = properties.filter((p) => p.schema.kind !== "never");
    return { kind: "object", properties, patterns, additionalProperties };
  }

  /** The data members of an object type (also used to flatten a destructured parameter). */
  readProperties(type: ts.Type, site: Site): PropertyNode[] {
    const properties: PropertyNode[] = [];
    for (const prop of this.propertiesInOrder(type, site)) {
      const property = this.readProperty(prop, site);
      if (property) properties.push(property);
    }
    return properties;
  }

  /**
   * Declaration order for interfaces, classes and type literals (TypeScript keeps it). Mapped types list their
   * keys in the order of the key union, which follows type ids, not the source; so homomorphic ones (`Partial`,
   * `Pick`, `Omit`, `Readonly`) take the order of the declarations they copy, `Record<"a" | "b", T>` and
   * `{ [K in "a" | "b"]: T }` the order their keys are written in, and keys written nowhere sort by name.
   */
  private propertiesInOrder(type: ts.Type, site: Site): ts.Symbol[] {
    const props = this.checker.getPropertiesOfType(type);
    const mapped = (type as ts.ObjectType).objectFlags & this.tsi.ObjectFlags.Mapped;
    if (!mapped || props.length < 2) return [...props];
    if (props.every((p) => p.declarations?.length)) {
      const position = (p: ts.Symbol) => {
        const d = p.declarations![0]!;
        return { file: d.getSourceFile().fileName, pos: d.pos };
      };
      return [...props].sort((a, b) => {
        const pa = position(a);
        const pb = position(b);
        return pa.file === pb.file ? pa.pos - pb.pos : pa.file < pb.file ? -1 : 1;
      });
    }
    const names = props.map((p) => p.getName());
    // Where no order was written, sort by name rather than by type id.
    const written = this.order.keyOrder(site.typeNode) ?? this.order.namesInScopes(names, site.scopes ?? []) ?? [...names].sort();
    const rank = (p: ts.Symbol) => {
      const i = written.indexOf(p.getName());
      return i < 0 ? written.length : i;
    };
    return [...props].sort((a, b) => rank(a) - rank(b));
  }

  private readProperty(prop: ts.Symbol, site: Site): PropertyNode | undefined {
    const name = prop.getName();
    // The tag property and symbol keys are not data a model can send.
    if (name === TAG_PROPERTY || name.startsWith("__@")) return undefined;
    const declaration = prop.valueDeclaration ?? prop.declarations?.[0];
    if (declaration && this.isBehaviour(declaration)) return undefined;
    const propType = this.checker.getTypeOfSymbolAtLocation(prop, site.param);
    const optional = (prop.flags & this.tsi.SymbolFlags.Optional) !== 0 || this.includesUndefined(propType);
    // `b?: never` (the XOR idiom `{ a: string; b?: never } | { a?: never; b: number }`): b must be absent.
    if (prop.flags & this.tsi.SymbolFlags.Optional && this.isAbsent(propType)) return { name, schema: { kind: "never" }, required: false, declaration };

    // Point at the declaration when the user wrote it and it spells this type (not a generic `value: T`).
    const here = declaration && this.isOwnDeclaration(declaration) ? declaration : undefined;
    const typeNode = declaration && hasTypeNode(this.tsi, declaration) ? declaration.type : undefined;
    const propertySite: Site = {
      node: here ?? site.node,
      param: site.param,
      path: [...site.path, name],
      typeNode,
      scopes: typeNode ? [...(site.scopes ?? []), typeNode] : site.scopes,
    };
    const related: RelatedLocation[] = here
      ? [{ node: site.param, message: `Used by ${this.describe({ ...site, path: site.path.slice(0, 1) })} of tool "${this.toolName}".` }]
      : declaration
        ? [{ node: declaration, message: `"${name}" is declared here.` }]
        : [];
    const before = this.problems.length;
    let schema = this.read(propType, propertySite);
    const keywords = this.tags.propertyKeywords(prop, declaration, schema, propertySite);
    for (let i = before; i < this.problems.length; i++) this.problems[i]!.related ??= related;
    const description = symbolDescription(this.tsi, this.checker, prop);
    if (description) keywords.description = description;
    schema = withKeywords(schema, keywords);
    return { name, schema, required: !optional, declaration };
  }

  /** `never`, or `undefined` only (what `x?: never` reads as): no value may be given. */
  private isAbsent(type: ts.Type): boolean {
    const f = this.tsi.TypeFlags;
    const members = type.isUnion() ? type.types : [type];
    return members.every((m) => m.flags & (f.Never | f.Undefined));
  }

  /** Methods, accessors and function-valued class fields are behaviour, and non-public members are not the API. */
  private isBehaviour(declaration: ts.Declaration): boolean {
    const t = this.tsi;
    if (t.isMethodDeclaration(declaration) || t.isMethodSignature(declaration) || t.isAccessor(declaration)) return true;
    if (t.isPropertyDeclaration(declaration) && declaration.initializer) {
      const init = declaration.initializer;
      if (t.isArrowFunction(init) || t.isFunctionExpression(init)) return true;
    }
    const name = (declaration as { name?: ts.Node }).name;
    if (name && t.isPrivateIdentifier(name)) return true;
    const modifiers = t.canHaveModifiers(declaration) ? t.getModifiers(declaration) : undefined;
    return (modifiers ?? []).some((m) => m.kind === t.SyntaxKind.PrivateKeyword || m.kind === t.SyntaxKind.ProtectedKeyword);
  }

  /**
   * A declaration in the user's own source whose type is what we read: not in a .d.ts or a dependency, and not
   * inside a generic declaration (whose `value: T` says nothing about the problem's cause, the type argument).
   */
  private isOwnDeclaration(declaration: ts.Node): boolean {
    const file = declaration.getSourceFile();
    if (file.isDeclarationFile || /[\\/]node_modules[\\/]/.test(file.fileName)) return false;
    for (let node = declaration.parent; node && !this.tsi.isSourceFile(node); node = node.parent) {
      if (this.tsi.isMappedTypeNode(node)) return false;
      const typeParameters = (node as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> }).typeParameters;
      if (typeParameters && typeParameters.length > 0) return false;
    }
    return true;
  }

  /**
   * Declared by TypeScript's lib files or by @types/node: the standard library of the program. Remembered per
   * symbol (the answer depends only on its declarations' files), as most types are asked about many times.
   */
  private isLibrarySymbol(symbol: ts.Symbol): boolean {
    let answer = librarySymbols.get(symbol);
    if (answer === undefined) {
      answer = (symbol.declarations ?? []).some((d) => {
        const file = d.getSourceFile();
        return file.hasNoDefaultLib || /[\\/]typescript[^\\/]*[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(file.fileName) || /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(file.fileName);
      });
      librarySymbols.set(symbol, answer);
    }
    return answer;
  }

  private unsupported(site: Site, what: string, advice: string): SchemaNode {
    this.problem(Code.UnsupportedType, site, `${this.describe(site)} has type ${what}, which JSON Schema cannot describe: ${advice}.`);
    return { kind: "any" };
  }

  private problem(code: Code, site: Site, message: string, warning = false): void {
    this.problems.push({ code, message, node: site.node, warning });
  }

  /** `parameter "limit"`, or `"address.city" (in parameter "address" of tool "ship")` for a part of one. */
  describe(site: Pick<Site, "path">): string {
    const [param, ...rest] = site.path;
    if (rest.length === 0) return `parameter "${param}"`;
    return `"${[param, ...rest].join(".").replace(/\.\*/g, "[]")}" (in parameter "${param}" of tool "${this.toolName}")`;
  }
}

/** `list` mapped by `f`; `list` itself when `f` kept every item. */
function mapKept<T>(list: T[], f: (item: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = f(list[i]!);
    if (out) out.push(item);
    else if (item !== list[i]) out = [...list.slice(0, i), item];
  }
  return out ?? list;
}

/** `part` (a property or pattern property) with `schema`; `part` itself when the schema is its own. */
function withSchema<T extends { schema: SchemaNode }>(part: T, schema: SchemaNode): T {
  return schema === part.schema ? part : { ...part, schema };
}

/** True when `node` refers to a `$defs` entry anywhere inside. */
function hasRef(node: SchemaNode): boolean {
  switch (node.kind) {
    case "ref":
      return true;
    case "array":
      return hasRef(node.items);
    case "tuple":
      return node.prefix.some(hasRef) || (node.rest !== undefined && hasRef(node.rest));
    case "object":
      return node.properties.some((p) => hasRef(p.schema)) || node.patterns.some((p) => hasRef(p.schema)) || (typeof node.additionalProperties !== "boolean" && hasRef(node.additionalProperties));
    case "union":
      return node.members.some(hasRef);
    default:
      return false;
  }
}

export function withKeywords(node: SchemaNode, keywords: Keywords): SchemaNode {
  if (Object.keys(keywords).length === 0) return node;
  return { ...node, keywords: { ...node.keywords, ...keywords } };
}

function isTrue(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === "true";
}

function hasTypeNode(tsi: TS, node: ts.Node): node is ts.Declaration & { type: ts.TypeNode } {
  return (tsi.isPropertySignature(node) || tsi.isPropertyDeclaration(node) || tsi.isParameter(node)) && !!node.type;
}

function skipTypeParens(tsi: TS, node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  while (node && (tsi.isParenthesizedTypeNode(node) || (tsi.isTypeOperatorNode(node) && node.operator === tsi.SyntaxKind.ReadonlyKeyword))) {
    node = node.type;
  }
  return node;
}

/** The node of the item type of `T[]` / `Array<T>` / `ReadonlyArray<T>`, when that is how the array is spelled. */
function elementTypeNode(tsi: TS, node: ts.TypeNode | undefined): ts.TypeNode | undefined {
  const inner = skipTypeParens(tsi, node);
  if (!inner) return undefined;
  if (tsi.isArrayTypeNode(inner)) return inner.elementType;
  if (tsi.isTypeReferenceNode(inner) && inner.typeArguments?.length === 1 && tsi.isIdentifier(inner.typeName) && /^(Readonly)?Array$/.test(inner.typeName.text)) {
    return inner.typeArguments[0];
  }
  return undefined;
}

/** The nodes of a tuple's element types, when it is spelled as a tuple (named, optional and rest members). */
function tupleElementNodes(tsi: TS, node: ts.TypeNode | undefined): (ts.TypeNode | undefined)[] | undefined {
  const inner = skipTypeParens(tsi, node);
  if (!inner || !tsi.isTupleTypeNode(inner)) return undefined;
  return inner.elements.map((e) => {
    let t: ts.TypeNode = tsi.isNamedTupleMember(e) ? e.type : e;
    if (tsi.isOptionalTypeNode(t) || tsi.isRestTypeNode(t)) t = t.type;
    return t;
  });
}
