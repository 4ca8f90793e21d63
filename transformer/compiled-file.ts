/**
 * What the transformer made of one file, as plain data a host can keep between builds (the schema cache of tspc and
 * of `tooltype build` on 5.x/6.0), and its writing into the file again: handed back for a file whose text and
 * dependencies did not change, it is written without reading a type.
 */
import type * as ts from "typescript";
import type { TS } from "./compat";
import { decoratorWithMeta, kitImportName, withKitImport, withMetaArgument } from "./emit";

/** One usage the transformer gave metadata: its call or decorator by position in the file's text, and the text. */
export interface CompiledSite {
  kind: "call" | "decorator";
  /** The node's `pos` and `end`: the same text parses to the same positions, and a kind and span name one node. */
  pos: number;
  end: number;
  /** A call's arguments before the metadata (missing ones become `void 0`); 1 for a decorator. */
  leading: number;
  /** The metadata argument's text, as `metaExpression` wrote it (`null` for a function that cannot be read). */
  meta: string;
}

export interface CompiledFile {
  sites: CompiledSite[];
  /** The name of the `tooltype/kit` import the file's validators read, or undefined when they read none. */
  kit: string | undefined;
  /** How many usages the file compiled (what the dependency tracker of incremental builds is told). */
  tools: number;
  /** tooltype's diagnostics of the file, in the order they were reported, but for the one below. */
  diagnostics: ts.Diagnostic[];
  /**
   * The warning that strictNullChecks is off, at the file's first tool: reported once per program, at the first
   * tool the program compiles, so a replay reports it only when no file before this one did.
   */
  nullWarning: ts.Diagnostic | undefined;
}

/** Where a host keeps files' compiled usages: the transformer asks before it reads a file, and records after. */
export interface CompiledFileCache {
  /** The file's compiled usages as recorded for its text and dependencies now, or undefined: read the types. */
  lookup(file: ts.SourceFile): CompiledFile | undefined;
  store(file: ts.SourceFile, compiled: CompiledFile): void;
}

/**
 * `file` with the recorded usages' metadata written in as the read wrote it, each usage found by its position (only
 * the nodes that hold one are entered); undefined when a usage is not where the record says, or the kit import's name
 * is not the one the file's text gives.
 */
export function writeCompiledFile(
  tsi: TS,
  context: ts.TransformationContext,
  file: ts.SourceFile,
  known: CompiledFile,
): ts.SourceFile | undefined {
  const f = context.factory;
  if (known.kit !== undefined && known.kit !== kitImportName(file)) return undefined;
  const sites = known.sites;
  let found = 0;
  const holdsSite = (node: ts.Node): boolean => sites.some((s) => s.pos >= node.pos && s.end <= node.end);
  const siteAt = (node: ts.Node): CompiledSite | undefined =>
    sites.find(
      (s) =>
        s.pos === node.pos &&
        s.end === node.end &&
        (s.kind === "call" ? tsi.isCallExpression(node) : tsi.isDecorator(node)),
    );
  const metaOf = (site: CompiledSite): ts.Expression =>
    site.meta === "null" ? f.createNull() : f.createIdentifier(site.meta);
  const write = (node: ts.Node): ts.Node => {
    if (!holdsSite(node)) return node;
    const site = siteAt(node);
    if (site) found++;
    if (site?.kind === "decorator") return decoratorWithMeta(f, tsi, node as ts.Decorator, metaOf(site));
    const visited = tsi.visitEachChild(node, write, context);
    if (!site) return visited;
    const call = visited as ts.CallExpression;
    return withMetaArgument(f, call, call.arguments, site.leading, metaOf(site));
  };
  const visited = sites.length === 0 ? file : tsi.visitEachChild(file, write, context);
  if (found !== sites.length) return undefined;
  return known.kit === undefined ? visited : withKitImport(f, tsi, visited, known.kit);
}
