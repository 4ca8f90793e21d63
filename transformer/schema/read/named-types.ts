/**
 * Named and recursive types: composite types are read through `track`, so that recursion ends in a `$ref` and named
 * types (interfaces, classes, aliases) used more than once become one `$defs` entry; `finish` puts the ones used
 * once back inline. A named object type is read once per program and its reading shared by every tool, when the
 * reading depends on nothing of the use.
 */
import type * as ts from "typescript";
import type { TypeReader } from "../../readers/reader";
import { symbolDescription } from "../../jsdoc";
import type { Definitions, Keywords, SchemaNode, Site } from "../model";
import { readableName } from "../names";
import { type Reader, withKeywords } from "./context";
import { isLibrarySymbol } from "./library";

/**
 * Readings of named object types (interfaces, classes, aliased object types) per checker, shared by every tool of
 * the program: a type used by many tools is read once. Only readings that cannot depend on where the type is used
 * are kept (see `track`); a new program (watch mode) has a new checker and so starts empty.
 */
const sharedReadings = new WeakMap<TypeReader, Map<ts.Type, SchemaNode>>();
/** What the reader knows about one composite type it has met (see `track`). */
interface Tracked {
  name?: string;
  node?: SchemaNode;
  expanding: boolean;
  recursive: boolean;
  uses: number;
}

/** The composite types one tool's reader has met: `$defs` are collected across all its parameters. */
export class NamedTypes {
  /** Composite types met so far: named ones stay (shared via `$defs`), anonymous ones only while expanding. */
  private readonly tracked = new Map<ts.Type, Tracked>();
  private readonly byName = new Map<string, Tracked>();
  /** The tracked types being expanded, outermost first (a recursion marks the whole cycle). */
  private readonly expanding: Tracked[] = [];

  constructor(private readonly reader: Reader) {}

  /** The reading of a `$defs` entry by name, while reading (keyword checks follow references). */
  lookup(name: string): SchemaNode | undefined {
    return this.byName.get(name)?.node;
  }

  /**
   * Composite types go through here so that recursion ends in a `$ref` and named types (interfaces, classes,
   * aliases) used more than once become one `$defs` entry. Named types used once are inlined again by
   * `finish()` once the whole tool has been read.
   */
  track(type: ts.Type, site: Site, expand: () => SchemaNode, shareable = false): SchemaNode {
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
      shared = sharedReadings.get(this.reader.checker);
      if (!shared) sharedReadings.set(this.reader.checker, (shared = new Map()));
      const reading = shared.get(type);
      if (reading) {
        entry.expanding = false;
        entry.node = reading;
        return { kind: "ref", name: entry.name! };
      }
    }
    const problemsBefore = this.reader.problems.length;
    const useSiteReadsBefore = this.reader.order.useSiteReads;
    this.expanding.push(entry);
    const node = expand();
    this.expanding.pop();
    entry.expanding = false;
    entry.node = named ? withKeywords(node, typeDescription(this.reader, type)) : node;
    // Shared only when reading it here asked nothing of this use: no problem (its text and place name the use), no
    // order taken from the use site, and no reference to another tracked type (whose `$defs` name, sharing and
    // recursion belong to this tool).
    if (
      shared &&
      !entry.recursive &&
      this.reader.problems.length === problemsBefore &&
      this.reader.order.useSiteReads === useSiteReadsBefore &&
      !hasRef(entry.node)
    ) {
      shared.set(type, entry.node);
    }
    if (named || entry.recursive) return { kind: "ref", name: entry.name! };
    this.tracked.delete(type);
    return node;
  }

  /** Types a person would name in a schema: interfaces, classes and aliases; not arrays, tuples or literals. */
  private isNamed(type: ts.Type): boolean {
    if (this.reader.checker.isArrayType(type) || this.reader.checker.isTupleType(type)) return false;
    if (type.aliasSymbol) return true;
    const symbol = type.getSymbol();
    return (
      !!symbol && (symbol.flags & (this.reader.tsi.SymbolFlags.Interface | this.reader.tsi.SymbolFlags.Class)) !== 0
    );
  }

  /** A stable, readable `$defs` name (see `readableName`), unique within the tool; else named after where it was met. */
  private nameOf(type: ts.Type, entry: Tracked, site: Site): string {
    if (entry.name) return entry.name;
    let base = readableName(this.reader.tsi, this.reader.checker, type);
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
      return entry?.node && entry.uses === 1 && !entry.recursive ? entry : undefined;
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
          const additionalProperties =
            typeof node.additionalProperties === "boolean"
              ? node.additionalProperties
              : resolve(node.additionalProperties);
          if (
            properties === node.properties &&
            patterns === node.patterns &&
            additionalProperties === node.additionalProperties
          )
            return node;
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
    for (const [name, entry] of this.byName)
      if (entry.node && !inline(name)) definitions.set(name, resolve(entry.node));
    return { roots: roots.map(resolve), definitions };
  }
}

/** The JSDoc of a named type declared outside the standard library (`Partial`'s own doc is no help). */
export function typeDescription(reader: Reader, type: ts.Type): Keywords {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol || isLibrarySymbol(reader, symbol) || symbol.getName().startsWith("__")) return {};
  const description = symbolDescription(reader.tsi, reader.checker, symbol);
  return description ? { description } : {};
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
      return (
        node.properties.some((p) => hasRef(p.schema)) ||
        node.patterns.some((p) => hasRef(p.schema)) ||
        (typeof node.additionalProperties !== "boolean" && hasRef(node.additionalProperties))
      );
    case "union":
      return node.members.some(hasRef);
    default:
      return false;
  }
}
