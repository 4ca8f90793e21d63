/**
 * Reads a `ts.Type` into the schema model. This is the only place that asks the checker about parameter types.
 *
 * Responsibilities: primitives and literals, literal unions as enums, `T | null`, arrays, objects (interfaces,
 * type literals, classes as data, index signatures), type tags (`Int & Min<0>`), `Date`, and recursion through
 * `$defs`. Whatever JSON cannot carry is reported at the tool's parameter with the path to the offending part,
 * and reading goes on so one build shows every problem.
 */
import type * as ts from "typescript";
import type { JsonValue } from "../../runtime/meta";
import { arrayElementType, type TS } from "../compat";
import { Code, type RelatedLocation } from "../diagnostics";
import { keywordsFromTags, symbolDescription } from "../jsdoc";
import type { Definitions, Keywords, PropertyNode, SchemaNode } from "./model";

/** Where a type is being read: the node errors point at and the JSON path from the tool's arguments. */
export interface Site {
  node: ts.Node;
  path: string[];
}

export interface Problem {
  code: Code;
  message: string;
  node: ts.Node;
  warning?: boolean;
  related?: RelatedLocation[];
}

/** Library types that have no JSON form, with the advice for each. */
const UNSUPPORTED_LIBRARY_TYPES: Record<string, string> = {
  Map: "use a Record<string, T> or an array of [key, value] pairs",
  WeakMap: "use a Record<string, T>",
  Set: "use an array (T[])",
  WeakSet: "use an array (T[])",
  Promise: "take the resolved value as the parameter and await inside the tool",
  PromiseLike: "take the resolved value as the parameter",
  Function: "pass data, not functions: a model can only send JSON",
  RegExp: "use a string with a Pattern<...> tag",
  Error: "use a plain object type with the fields you need",
};

const TAG_PROPERTY = "~tooltype";

/** One reader per tool: `$defs` and revived-date paths are collected across all its parameters. */
export class TypeReader {
  readonly definitions: Definitions = new Map();
  readonly dates: string[] = [];
  readonly problems: Problem[] = [];
  /** Object types being expanded right now; meeting one again means recursion. */
  private readonly expanding = new Map<ts.Type, { recursive: boolean }>();
  /** Object types that got a `$defs` entry, with its name. */
  private readonly defined = new Map<ts.Type, string>();

  constructor(
    private readonly tsi: TS,
    private readonly checker: ts.TypeChecker,
  ) {}

  /** Reads a parameter or property type. `undefined` members are left to the caller (they make it optional). */
  read(type: ts.Type, site: Site): SchemaNode {
    const f = this.tsi.TypeFlags;
    const flags = type.flags;
    if (flags & (f.Any | f.Unknown)) {
      this.problem(Code.UnknownOrAny, site, `${describe(site)} is typed ${flags & f.Any ? "any" : "unknown"}, so the model is told nothing about it and any JSON value is accepted. Give it a concrete type if you can.`, true);
      return { kind: "any" };
    }
    if (flags & f.Never) return this.unsupported(site, "never", "a parameter of type never can never be passed; remove it or give it a real type");
    if (flags & (f.Void | f.Undefined)) return this.unsupported(site, "void or undefined", "JSON has no undefined; make the parameter optional (x?: T) instead");
    if (flags & f.ESSymbolLike) return this.unsupported(site, "symbol", "use a string");
    if (flags & f.BigIntLike) return this.unsupported(site, "bigint", "use number (Int for whole numbers) or a string of digits");
    if (flags & f.Null) return { kind: "primitive", type: "null" };
    if (flags & f.StringLiteral) return { kind: "literal", value: (type as ts.StringLiteralType).value };
    if (flags & f.NumberLiteral) return { kind: "literal", value: (type as ts.NumberLiteralType).value };
    if (flags & f.BooleanLiteral) return { kind: "literal", value: (type as { intrinsicName?: string }).intrinsicName === "true" };
    if (flags & f.String) return { kind: "primitive", type: "string" };
    if (flags & f.Number) return { kind: "primitive", type: "number" };
    if (flags & f.Boolean) return { kind: "primitive", type: "boolean" };
    if (flags & f.TemplateLiteral) return { kind: "primitive", type: "string" };
    if (type.isUnion()) return this.readUnion(type.types, site);
    if (type.isIntersection()) return this.readIntersection(type, site);
    if (flags & f.Object) return this.readObjectLike(type as ts.ObjectType, site);
    if (flags & f.TypeParameter) {
      return this.unsupported(site, `the type parameter ${this.checker.typeToString(type)}`, "tools need concrete types; replace the type parameter with the type the model should send");
    }
    return this.unsupported(site, this.checker.typeToString(type), "use JSON data types: string, number, boolean, arrays, objects and unions of them");
  }

  /** True when a union type has `undefined` (or `void`) among its members: the value may be left out. */
  includesUndefined(type: ts.Type): boolean {
    const f = this.tsi.TypeFlags;
    const members = type.isUnion() ? type.types : [type];
    return members.some((m) => (m.flags & (f.Undefined | f.Void)) !== 0);
  }

  private readUnion(all: readonly ts.Type[], site: Site): SchemaNode {
    const f = this.tsi.TypeFlags;
    const members = all.filter((m) => !(m.flags & (f.Undefined | f.Void)));
    const hasNull = members.some((m) => m.flags & f.Null);
    let rest = members.filter((m) => !(m.flags & f.Null));
    // TypeScript spells `boolean` as `true | false`; keep it one boolean rather than two literals.
    const hasTrue = rest.some((m) => m.flags & f.BooleanLiteral && isTrue(m));
    const hasFalse = rest.some((m) => m.flags & f.BooleanLiteral && !isTrue(m));
    let sawBoolean = false;
    if (hasTrue && hasFalse) {
      rest = rest.filter((m) => !(m.flags & f.BooleanLiteral));
      sawBoolean = true;
    }
    let node: SchemaNode;
    const parts: SchemaNode[] = [];
    if (sawBoolean) parts.push({ kind: "primitive", type: "boolean" });
    const literals = rest.filter((m) => m.flags & (f.StringLiteral | f.NumberLiteral));
    const others = rest.filter((m) => !(m.flags & (f.StringLiteral | f.NumberLiteral)));
    if (literals.length > 1) {
      parts.push({ kind: "enum", values: literals.map((m) => (m as ts.LiteralType).value as string | number) });
    } else if (literals.length === 1) {
      parts.push(this.read(literals[0]!, site));
    }
    for (const m of others) parts.push(this.read(m, site));
    if (parts.length === 0) {
      return this.unsupported(site, "undefined", "JSON has no undefined; make the parameter optional (x?: T) instead");
    }
    node = parts.length === 1 ? parts[0]! : { kind: "union", members: parts };
    if (hasNull) node = { kind: "union", members: [node, { kind: "primitive", type: "null" }] };
    return node;
  }

  /** `Int & Min<0>`: the non-tag part is the type, the tags add keywords. Other intersections are objects. */
  private readIntersection(type: ts.IntersectionType, site: Site): SchemaNode {
    const tagged = type.types.filter((t) => t.getProperty(TAG_PROPERTY));
    if (tagged.length === 0) return this.readObjectLike(type, site);
    const base = type.types.filter((t) => !t.getProperty(TAG_PROPERTY));
    const keywords = this.tagKeywords(type, site);
    let node: SchemaNode;
    if (base.length === 1) node = this.read(base[0]!, site);
    else if (base.length === 0) node = { kind: "any" };
    else node = this.readObjectLike(type, site);
    if (keywords.type === "integer") {
      delete keywords.type;
      if (node.kind === "primitive" && node.type === "number") node = { ...node, type: "integer" };
      else if (!(node.kind === "primitive" && node.type === "integer")) {
        return this.unsupported(site, this.checker.typeToString(type), "Int can only tag number");
      }
    }
    return withKeywords(node, keywords);
  }

  /** Keywords recorded in the phantom `~tooltype` property of the type tags. */
  private tagKeywords(type: ts.Type, site: Site): Keywords {
    const prop = type.getProperty(TAG_PROPERTY)!;
    const tagType = this.checker.getNonNullableType(this.checker.getTypeOfSymbolAtLocation(prop, site.node));
    const keywords: Keywords = {};
    for (const keyword of this.checker.getPropertiesOfType(tagType)) {
      const valueType = this.checker.getTypeOfSymbolAtLocation(keyword, site.node);
      const value = literalValue(this.tsi, valueType);
      if (value === undefined) {
        this.problem(Code.UnsupportedType, site, `${describe(site)} has the type tag "${keyword.name}" with a value that is not a single literal (${this.checker.typeToString(valueType)}); write a literal such as Min<0> or Pattern<"^[a-z]+$">.`);
        continue;
      }
      keywords[keyword.name] = value;
    }
    return keywords;
  }

  private readObjectLike(type: ts.Type, site: Site): SchemaNode {
    const symbol = type.getSymbol() ?? type.aliasSymbol;
    const libName = symbol && this.isLibrarySymbol(symbol) ? symbol.getName() : undefined;
    if (libName === "Date") {
      this.dates.push("/" + site.path.map(escapePointer).join("/"));
      return { kind: "primitive", type: "string", keywords: { format: "date-time" } };
    }
    if (libName && libName in UNSUPPORTED_LIBRARY_TYPES) {
      return this.unsupported(site, libName, UNSUPPORTED_LIBRARY_TYPES[libName]!);
    }
    const element = arrayElementType(this.checker, type);
    if (element) {
      return { kind: "array", items: this.readElement(element, { node: site.node, path: [...site.path, "*"] }) };
    }
    if (this.checker.isTupleType(type)) {
      return this.unsupported(site, "a tuple", "tuples are not supported yet; use an array (T[]) or an object with named fields");
    }
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      return this.unsupported(site, "a function", "a model can only send JSON data, not functions; take the data the function would need instead");
    }
    return this.readObject(type, site);
  }

  /** Array items: `undefined` members make no sense in JSON arrays and are dropped. */
  private readElement(type: ts.Type, site: Site): SchemaNode {
    return type.isUnion() ? this.readUnion(type.types, site) : this.read(type, site);
  }

  private readObject(type: ts.Type, site: Site): SchemaNode {
    const defined = this.defined.get(type);
    if (defined) return { kind: "ref", name: defined };
    const open = this.expanding.get(type);
    if (open) {
      open.recursive = true;
      return { kind: "ref", name: this.definitionName(type) };
    }
    this.expanding.set(type, { recursive: false });
    const properties: PropertyNode[] = [];
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const property = this.readProperty(prop, site);
      if (property) properties.push(property);
    }
    let additionalProperties: SchemaNode | false = false;
    const stringIndex = this.checker.getIndexInfosOfType(type).find((info) => info.keyType.flags & this.tsi.TypeFlags.String);
    if (stringIndex) {
      additionalProperties = this.readElement(stringIndex.type, { node: site.node, path: [...site.path, "*"] });
    }
    const node: SchemaNode = { kind: "object", properties, additionalProperties };
    const state = this.expanding.get(type)!;
    this.expanding.delete(type);
    if (!state.recursive) return node;
    const name = this.definitionName(type);
    this.definitions.set(name, node);
    return { kind: "ref", name };
  }

  private readProperty(prop: ts.Symbol, site: Site): PropertyNode | undefined {
    const name = prop.getName();
    if (name === TAG_PROPERTY || name.startsWith("__#")) return undefined;
    const declaration = prop.valueDeclaration ?? prop.declarations?.[0];
    if (declaration && this.tsi.isMethodDeclaration(declaration)) return undefined; // classes used as data: behaviour is not data
    if (declaration && hasNonPublicModifier(this.tsi, declaration)) return undefined;
    const path = [...site.path, name];
    const related: RelatedLocation[] = declaration ? [{ node: declaration, message: `"${name}" is declared here.` }] : [];
    const propertySite: Site = { node: site.node, path };
    const before = this.problems.length;
    const propType = this.checker.getTypeOfSymbolAtLocation(prop, site.node);
    const optional = (prop.flags & this.tsi.SymbolFlags.Optional) !== 0 || this.includesUndefined(propType);
    let schema = this.read(propType, propertySite);
    for (let i = before; i < this.problems.length; i++) this.problems[i]!.related ??= related;
    const keywords: Keywords = {};
    const description = symbolDescription(this.tsi, this.checker, prop);
    if (description) keywords.description = description;
    const tags = keywordsFromTags(prop.getJsDocTags(this.checker), this.tsi);
    for (const p of tags.problems) {
      this.problems.push({
        code: Code.InvalidTagValue,
        node: site.node,
        message: `The JSDoc tag @${p.tag} "${p.text}" on ${describe(propertySite)} does not parse: expected ${p.expected}.`,
        related,
      });
    }
    schema = withKeywords(schema, { ...tags.keywords, ...keywords });
    return { name, schema, required: !optional, declaration };
  }

  /** A stable, readable `$defs` name: the type's own name with its type arguments, unique within the tool. */
  private definitionName(type: ts.Type): string {
    const existing = this.defined.get(type);
    if (existing) return existing;
    const base = this.checker
      .typeToString(type, undefined, this.tsi.TypeFormatFlags.NoTruncation)
      .replace(/[^A-Za-z0-9_]+/g, "_")
      .replace(/^_+|_+$/g, "") || "Type";
    let name = base;
    const taken = new Set(this.defined.values());
    for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
    this.defined.set(type, name);
    return name;
  }

  private isLibrarySymbol(symbol: ts.Symbol): boolean {
    return (symbol.declarations ?? []).some((d) => {
      const file = d.getSourceFile();
      return file.hasNoDefaultLib || /[\\/]typescript[^\\/]*[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$/.test(file.fileName);
    });
  }

  private unsupported(site: Site, what: string, advice: string): SchemaNode {
    this.problem(Code.UnsupportedType, site, `${describe(site)} has type ${what}, which JSON Schema cannot describe: ${advice}.`);
    return { kind: "any" };
  }

  private problem(code: Code, site: Site, message: string, warning = false): void {
    this.problems.push({ code, message, node: site.node, warning });
  }
}

/** "parameter "limit"" or "property "address.city"" for messages. */
export function describe(site: Site): string {
  const [param, ...rest] = site.path;
  if (rest.length === 0) return `parameter "${param}"`;
  return `"${[param, ...rest].join(".").replace(/\.\*/g, "[]")}" (in parameter "${param}")`;
}

function withKeywords(node: SchemaNode, keywords: Keywords): SchemaNode {
  if (Object.keys(keywords).length === 0) return node;
  return { ...node, keywords: { ...node.keywords, ...keywords } };
}

function isTrue(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === "true";
}

function literalValue(tsi: TS, type: ts.Type): JsonValue | undefined {
  const f = tsi.TypeFlags;
  if (type.flags & f.StringLiteral) return (type as ts.StringLiteralType).value;
  if (type.flags & f.NumberLiteral) return (type as ts.NumberLiteralType).value;
  if (type.flags & f.BooleanLiteral) return isTrue(type);
  return undefined;
}

function hasNonPublicModifier(tsi: TS, node: ts.Node): boolean {
  const modifiers = tsi.canHaveModifiers(node) ? tsi.getModifiers(node) : undefined;
  return (modifiers ?? []).some((m) => m.kind === tsi.SyntaxKind.PrivateKeyword || m.kind === tsi.SyntaxKind.ProtectedKeyword);
}

function escapePointer(segment: string): string {
  return segment === "*" ? "*" : segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
