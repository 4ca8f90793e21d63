/**
 * What each kind's reader is handed: the tool's reader (the checker, the problems found so far, reading a part of
 * the type, tracking named and recursive types), and the small helpers on sites and nodes they share.
 */
import type * as ts from "typescript";
import type { TypeReader } from "../../readers/reader";
import type { TS } from "../../compat";
import type { Code } from "../../diagnostics";
import type { Keywords, Problem, SchemaNode, Site } from "../model";
import type { WrittenOrder } from "../order";
import type { KeywordTags } from "../tags";

export interface Reader {
  readonly tsi: TS;
  readonly checker: TypeReader;
  readonly toolName: string;
  readonly problems: Problem[];
  /** The written order of unions and keys. */
  readonly order: WrittenOrder;
  /** Type tags and JSDoc keyword tags. */
  readonly tags: KeywordTags;
  /** Reads a part of the type (a property, an item, a member), with the keyword tags of the aliases it is spelled with. */
  read(type: ts.Type, site: Site): SchemaNode;
  /** True when a union type has `undefined` (or `void`) among its members: the value may be left out. */
  includesUndefined(type: ts.Type): boolean;
  /**
   * Reads a composite type through `expand`, so that recursion ends in a `$ref` and named types used more than once
   * become one `$defs` entry; `shareable` readings of named object types are shared by every tool of the program.
   */
  track(type: ts.Type, site: Site, expand: () => SchemaNode, shareable?: boolean): SchemaNode;
  /** Reports that the type at `site` has no JSON form, and reads it as any JSON value. */
  unsupported(site: Site, what: string, advice: string): SchemaNode;
  problem(code: Code, site: Site, message: string, warning?: boolean): void;
  /** `parameter "limit"`, or `"address.city" (in parameter "address" of tool "ship")` for a part of one. */
  describe(site: Pick<Site, "path">): string;
}

/** The site of an item, a value or an element of the type at `site` (`segment`: `*`, or a tuple position). */
export function itemSite(site: Site, segment: string, typeNode: ts.TypeNode | undefined): Site {
  return { node: site.node, param: site.param, path: [...site.path, segment], typeNode, scopes: site.scopes };
}

export function withKeywords(node: SchemaNode, keywords: Keywords): SchemaNode {
  if (Object.keys(keywords).length === 0) return node;
  return { ...node, keywords: { ...node.keywords, ...keywords } };
}

export function isTrue(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === "true";
}
