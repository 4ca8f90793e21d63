/**
 * What the transformer made of one file, as plain data a host can keep between builds (the schema cache of tspc and
 * of `tooltype build` on 5.x/6.0): handed back for a file whose text and dependencies did not change, it is written
 * into the file again without reading a type. A file of its own so that the hosts name it without the core.
 */
import type * as ts from "typescript";

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
