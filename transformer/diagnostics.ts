/**
 * Every compile-time message tooltype can print: a stable `TT` code, the category, and a sentence that says what
 * went wrong and what to write instead. Call sites only pick a code and fill in the facts, so the wording of a
 * message lives in exactly one place and the README table can be checked against it.
 */
import type * as ts from "typescript";

export const enum Code {
  UnsupportedType = 1001,
  MissingDescription = 1002,
  InvalidToolName = 1003,
  RestParameter = 1004,
  UnknownOrAny = 1005,
  UnsupportedUnion = 1006,
  UnresolvableFunction = 1007,
  ComputedName = 1008,
  InvalidTagValue = 1009,
  UnknownParamTag = 1010,
}

export interface DiagnosticSink {
  report(diagnostic: ts.Diagnostic): void;
}

export interface RelatedLocation {
  node: ts.Node;
  message: string;
}

/**
 * tsc prints every diagnostic as `error TS<code>`; offsetting ours keeps them clear of TypeScript's own codes,
 * while the message starts with the `TT<code>` users look up in the README.
 */
export const TS_CODE_OFFSET = 990000;

/** Builds a diagnostic at `node`, with code `TT<code>` in its text so users can search for it. */
export function makeDiagnostic(
  tsi: typeof ts,
  node: ts.Node,
  code: Code,
  message: string,
  category: ts.DiagnosticCategory = tsi.DiagnosticCategory.Error,
  related: RelatedLocation[] = [],
): ts.Diagnostic {
  const file = node.getSourceFile();
  const start = node.getStart(file);
  return {
    file,
    start,
    length: node.getEnd() - start,
    category,
    code: TS_CODE_OFFSET + code,
    source: "tooltype",
    messageText: `TT${code}: ${message}`,
    relatedInformation: related.map((r) => {
      const rf = r.node.getSourceFile();
      const rs = r.node.getStart(rf);
      return {
        file: rf,
        start: rs,
        length: r.node.getEnd() - rs,
        category: tsi.DiagnosticCategory.Message,
        code: TS_CODE_OFFSET + code,
        messageText: r.message,
      };
    }),
  };
}
