/**
 * Reads a `ts.Type` into the schema model. This is the only place that asks the checker about parameter types: one
 * reader per tool, dispatching each type to the reader of its kind (primitives and literals, library types, unions,
 * intersections, arrays, tuples, objects), which read their parts back through it.
 *
 * Problems are reported at the exact node: the parameter, or, for a part of a type declared in the user's own
 * code, the property declaration (or JSDoc tag) that spells it, related back to the parameter. Reading goes on
 * after a problem so one build shows every problem.
 */
import type * as ts from "typescript";
import type { TypeReader } from "../../readers/reader";
import type { TS } from "../../compat";
import { Code } from "../../diagnostics";
import type { Definitions, Problem, PropertyNode, SchemaNode, Site } from "../model";
import { WrittenOrder } from "../order";
import { KeywordTags } from "../tags";
import { readArray } from "./array";
import { type Reader, withKeywords } from "./context";
import { readIntersection } from "./intersection";
import { noJson, revivedClass } from "./library";
import { NamedTypes } from "./named-types";
import { readObject, readProperties } from "./object";
import { readAnyOrUnknown, readPrimitive } from "./primitives";
import { aliasesOf } from "./spelling";
import { readTuple } from "./tuple";
import { readUnion } from "./union";

export { withKeywords } from "./context";

/** One reader per tool: `$defs` are collected across all its parameters. */
export class SchemaReader implements Reader {
  readonly problems: Problem[] = [];
  readonly order: WrittenOrder;
  readonly tags: KeywordTags;
  private readonly named: NamedTypes;

  constructor(
    readonly tsi: TS,
    readonly checker: TypeReader,
    readonly toolName: string,
  ) {
    this.order = new WrittenOrder(tsi, checker);
    this.named = new NamedTypes(this);
    this.tags = new KeywordTags({
      tsi,
      checker,
      resolve: (name) => this.named.lookup(name),
      describe: (site) => this.describe(site),
      problems: this.problems,
    });
  }

  /**
   * Reads a parameter or property type. `undefined` members are left to the caller (they make it optional).
   * Keyword tags in the JSDoc of the type alias(es) it is spelled with apply here, where the alias is used.
   */
  read(type: ts.Type, site: Site): SchemaNode {
    const node = this.readType(type, site);
    const aliases = aliasesOf(this, type, site);
    return aliases.length === 0 ? node : withKeywords(node, this.tags.aliasKeywords(aliases, node, site));
  }

  /** The one dispatch: each kind of type to its reader. */
  private readType(type: ts.Type, site: Site): SchemaNode {
    const open = readAnyOrUnknown(this, type, site);
    if (open) return open;
    const no = noJson(this, type);
    if (no) return this.unsupported(site, no.what, no.advice);
    const primitive = readPrimitive(this, type, site);
    if (primitive) return primitive;
    if (type.isUnion()) return readUnion(this, type, site);
    if (type.isIntersection()) return readIntersection(this, type, site);
    if (type.flags & this.tsi.TypeFlags.Object) {
      const revived = revivedClass(this, type);
      if (revived) return { kind: revived === "Date" ? "date" : "url" };
      const expand = (): SchemaNode =>
        readArray(this, type, site) ??
        (this.checker.isTupleType(type)
          ? readTuple(this, type as ts.TupleTypeReference, site)
          : readObject(this, type, site));
      return this.track(type, site, expand, true);
    }
    return this.unsupported(
      site,
      this.checker.typeToString(type),
      "use JSON data types: string, number, boolean, arrays, objects and unions of them",
    );
  }

  includesUndefined(type: ts.Type): boolean {
    const f = this.tsi.TypeFlags;
    const members = type.isUnion() ? type.types : [type];
    return members.some((m) => (m.flags & (f.Undefined | f.Void)) !== 0);
  }

  /** The data members of an object type (also used to flatten a destructured parameter). */
  readProperties(type: ts.Type, site: Site): PropertyNode[] {
    return readProperties(this, type, site);
  }

  track(type: ts.Type, site: Site, expand: () => SchemaNode, shareable = false): SchemaNode {
    return this.named.track(type, site, expand, shareable);
  }

  /**
   * Finishes the tool: named types used once are put back inline, and what stays shared or recursive is
   * returned as `$defs`.
   */
  finish(roots: SchemaNode[]): { roots: SchemaNode[]; definitions: Definitions } {
    return this.named.finish(roots);
  }

  unsupported(site: Site, what: string, advice: string): SchemaNode {
    this.problem(
      Code.UnsupportedType,
      site,
      `${this.describe(site)} has type ${what}, which JSON Schema cannot describe: ${advice}.`,
    );
    return { kind: "any" };
  }

  problem(code: Code, site: Site, message: string, warning = false): void {
    this.problems.push({ code, message, node: site.node, warning });
  }

  describe(site: Pick<Site, "path">): string {
    const [param, ...rest] = site.path;
    if (rest.length === 0) return `parameter "${param}"`;
    return `"${[param, ...rest].join(".").replace(/\.\*/g, "[]")}" (in parameter "${param}" of tool "${this.toolName}")`;
  }
}
