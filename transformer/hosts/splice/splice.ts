/**
 * Writing the transformer's additions into a module's original text: insertions (and the removal of a `@tool`
 * decorator that becomes a static block), so everything else stays byte for byte and a source map of the
 * insertions stays right. Both module transforms (on the JavaScript API and on TypeScript 7) end here.
 */
import MagicString, { type SourceMap } from "magic-string";
import type { HostDiagnostic } from "../diagnostic-format";

/** What a module transform gives its host. */
export interface ModuleResult {
  /** The module's text with the metadata spliced in; undefined when tooltype had nothing to add. */
  code: string | undefined;
  map: SourceMap | undefined;
  diagnostics: HostDiagnostic[];
  /** Files whose change may change this module's schemas: re-transform the module when one changes. */
  dependencies: string[];
}

/** Text to insert at a position of the original, optionally replacing a range of it. */
export interface TextEdit {
  at: number;
  text: string;
  remove?: { start: number; end: number };
}

export function spliceText(
  code: string,
  fileName: string,
  edits: readonly TextEdit[],
): { code: string; map: SourceMap } {
  const text = new MagicString(code);
  for (const edit of edits) {
    if (edit.remove) text.remove(edit.remove.start, edit.remove.end);
    text.appendLeft(edit.at, edit.text);
  }
  return {
    code: text.toString(),
    map: text.generateMap({ source: fileName, includeContent: true, hires: "boundary" }),
  };
}
