/**
 * Reads a `ts.Type` into the schema model. This is the only place that asks the checker about parameter types.
 *
 * Responsibilities: primitives and literals, literal unions as enums, `T | null`, other unions as `anyOf`,
 * arrays and tuples, objects (interfaces, type literals, intersections, mapped types, classes as data, index
 * signatures), type tags (`Int & Min<0>`), `Date`, and `$defs` for recursive and shared named types. Whatever
 * JSON cannot carry is reported at the tool's parameter with the path to the offending part, and reading goes on
 * so one build shows every problem.
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

/** What the reader knows about one composite type it has met (see `tracked`). */
interface Tracked {
  name?: string;
  node?: SchemaNode;
  expanding: boolean;
  recursive: boolean;
  uses: number;
}

/** One reader per tool: `$defs` and revived-date paths are collected across all its parameters. */
export class TypeReader {
  readonly dates: string[] = [];
  readonly problems: Problem[] = [];
  /** Composite types met so far: named ones stay (shared via `$defs`), anonymous ones only while expanding. */
  private readonly tracked = new Map<ts.Type, Tracked>();
  private readonly names = new Set<string>();

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
    if (type.isUnion()) {
      if (type.types.every((m) => m.flags & (f.Literal | f.Null | f.Undefined | f.Void))) return this.readUnion(type.types, site);
      return this.readTracked(type, site, () => this.readUnion((type as ts.UnionType).types, site));
    }
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
    if (tagged.length === 0) return this.readTracked(type, site, () => this.readObject(type, site));
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
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      return this.unsupported(site, "a function", "a model can only send JSON data, not functions; take the data the function would need instead");
    }
    return this.readTracked(type, site, () => this.readStructure(type, site));
  }

  private readStructure(type: ts.Type, site: Site): SchemaNode {
    const element = arrayElementType(this.checker, type);
    if (element) {
      return { kind: "array", items: this.readElement(element, { node: site.node, path: [...site.path, "*"] }) };
    }
    if (this.checker.isTupleType(type)) return this.readTuple(type as ts.TupleTypeReference, site);
    return this.readObject(type, site);
  }

  /** `[A, B?, ...C[]]`: positional items, the required count, and the type of the rest. */
  private readTuple(type: ts.TupleTypeReference, site: Site): SchemaNode {
    const E = this.tsi.ElementFlags;
    const elements = this.checker.getTypeArguments(type);
    const flags = type.target.elementFlags;
    const prefix: SchemaNode[] = [];
    let rest: SchemaNode | undefined;
    let minItems = 0;
    elements.forEach((element, i) => {
      const itemSite = { node: site.node, path: [...site.path, String(i)] };
      if (flags[i]! & E.Variable) {
        if (rest || i !== elements.length - 1) {
          this.unsupported(site, this.checker.typeToString(type), "JSON Schema can only describe a rest element at the end of a tuple; move it last or use an array");
          return;
        }
        rest = this.readElement(element, { node: site.node, path: [...site.path, "*"] });
        return;
      }
      prefix.push(this.readElement(element, itemSite));
      if (flags[i]! & E.Required) minItems = prefix.length;
    });
    const node: SchemaNode = { kind: "tuple", prefix, minItems };
    if (rest) node.rest = rest;
    return node;
  }

  /**
   * Composite types go through here so that recursion ends in a `$ref` and named types (interfaces, classes,
   * aliases) used more than once become one `$defs` entry. Named types used once are inlined again by
   * `resolve()` once the whole tool has been read.
   */
  private readTracked(type: ts.Type, site: Site, expand: () => SchemaNode): SchemaNode {
    const known = this.tracked.get(type);
    if (known) {
      known.uses++;
      if (known.expanding) known.recursive = true;
      return { kind: "ref", name: this.nameOf(type, known, site) };
    }
    const entry: Tracked = { expanding: true, recursive: false, uses: 1 };
    const named = this.isNamed(type);
    if (named) entry.name = this.nameOf(type, entry, site);
    this.tracked.set(type, entry);
    const node = expand();
    entry.expanding = false;
    entry.node = node;
    if (named || entry.recursive) return { kind: "ref", name: entry.name! };
    this.tracked.delete(type);
    return node;
  }

  /** Types a person would name in a schema: interfaces, classes and aliases; not arrays, tuples or literals. */
  private isNamed(type: ts.Type): boolean {
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) return false;
    if (type.aliasSymbol) return true;
    const symbol = type.getSymbol();
    return !!symbol && (symbol.flags & (this.tsi.SymbolFlags.Interface | this.tsi.SymbolFlags.Class)) !== 0;
  }

  /** A stable, readable `$defs` name: the type as written (generic arguments included), unique within the tool. */
  private nameOf(type: ts.Type, entry: Tracked, site: Site): string {
    if (entry.name) return entry.name;
    const written = this.checker.typeToString(type, undefined, this.tsi.TypeFormatFlags.NoTruncation);
    let base = written.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
    if (/[{[(]/.test(written) || base.length === 0 || base.length > 60) {
      // Anonymous structure: name it after where it was met.
      const last = [...site.path].reverse().find((p) => p !== "*" && !/^\d+$/.test(p)) ?? "Type";
      base = last.charAt(0).toUpperCase() + last.slice(1).replace(/[^A-Za-z0-9_]/g, "_");
    }
    let name = base;
    for (let i = 2; this.names.has(name); i++) name = `${base}_${i}`;
    this.names.add(name);
    entry.name = name;
    return name;
  }

  /**
   * Finishes the tool: named types used once are put back inline, and what stays shared or recursive is
   * returned as `$defs`.
   */
  finish(roots: SchemaNode[]): { roots: SchemaNode[]; definitions: Definitions } {
    const byName = new Map<string, Tracked>();
    for (const entry of this.tracked.values()) if (entry.name && entry.node) byName.set(entry.name, entry);
    const inline = (name: string): Tracked | undefined => {
      const entry = byName.get(name);
      return entry && entry.uses === 1 && !entry.recursive ? entry : undefined;
    };
    const resolve = (node: SchemaNode): SchemaNode => {
      switch (node.kind) {
        case "ref": {
          const entry = inline(node.name);
          if (!entry) return node;
          const target = resolve(entry.node!);
          return node.keywords ? { ...target, keywords: { ...target.keywords, ...node.keywords } } : target;
        }
        case "array":
          return { ...node, items: resolve(node.items) };
        case "tuple":
          return { ...node, prefix: node.prefix.map(resolve), ...(node.rest ? { rest: resolve(node.rest) } : {}) };
        case "object":
          return {
            ...node,
            properties: node.properties.map((p) => ({ ...p, schema: resolve(p.schema) })),
            additionalProperties: node.additionalProperties === false ? false : resolve(node.additionalProperties),
          };
        case "union":
          return { ...node, members: node.members.map(resolve) };
        default:
          return node;
      }
    };
    const definitions: Definitions = new Map();
    for (const [name, entry] of byName) if (!inline(name)) definitions.set(name, resolve(entry.node!));
    return { roots: roots.map(resolve), definitions };
  }

  /** Array items: `undefined` members make no sense in JSON arrays and are dropped. */
  private readElement(type: ts.Type, site: Site): SchemaNode {
    return type.isUnion() ? this.readUnion(type.types, site) : this.read(type, site);
  }

  private readObject(type: ts.Type, site: Site): SchemaNode {
    const properties = this.readProperties(type, site);
    let additionalProperties: SchemaNode | false = false;
    const indexes = this.checker.getIndexInfosOfType(type);
    const index =
      indexes.find((info) => info.keyType.flags & this.tsi.TypeFlags.String) ??
      indexes.find((info) => info.keyType.flags & (this.tsi.TypeFlags.Number | this.tsi.TypeFlags.TemplateLiteral));
    if (index) {
      additionalProperties = this.readElement(index.type, { node: site.node, path: [...site.path, "*"] });
    }
    return { kind: "object", properties, additionalProperties };
  }

  /** The data members of an object type, in declaration order (also used to flatten a destructured parameter). */
  readProperties(type: ts.Type, site: Site): PropertyNode[] {
    const properties: PropertyNode[] = [];
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const property = this.readProperty(prop, site);
      if (property) properties.push(property);
    }
    return properties;
  }

  private readProperty(prop: ts.Symbol, site: Site): PropertyNode | undefined {
    const name = prop.getName();
    if (name === TAG_PROPERTY || name.startsWith("__#")) return undefined;
    const declaration = prop.valueDeclaration ?? prop.declarations?.[0];
    // Classes used as data: methods and accessors are behaviour, not data the model sends.
    if (declaration && (this.tsi.isMethodDeclaration(declaration) || this.tsi.isAccessor(declaration))) return undefined;
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

export function withKeywords(node: SchemaNode, keywords: Keywords): SchemaNode {
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
