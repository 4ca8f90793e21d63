/**
 * tooltype's compile-time diagnostics: the stable `TT` codes, and turning a problem into a `ts.Diagnostic` at the
 * exact place it concerns (a node, or a span such as one JSDoc tag), with related locations.
 *
 * The wording of each message lives at its call site, next to the facts it states; every message says what is
 * wrong, where, and what to write instead. The diagnostics table of docs/types-to-schema.md lists the codes below.
 */
import type * as ts from "typescript";

export enum Code {
  /** A type (or part of one) that JSON cannot carry: functions, symbol, bigint, Map, Set, Promise, void, never... */
  UnsupportedType = 1001,
  /** A tool without a description. */
  MissingDescription = 1002,
  /** A tool name providers reject. */
  InvalidToolName = 1003,
  /** A rest parameter. */
  RestParameter = 1004,
  /** `unknown`, `any` or `object`: accepted, but the model learns nothing (warning). */
  UnknownOrAny = 1005,
  /** A union JSON Schema cannot express: a member without a JSON form, or `Date | string`. */
  UnsupportedUnion = 1006,
  /** `tool(x)` where x is not a function the transformer can read. */
  UnresolvableFunction = 1007,
  /** `@tool` on a method with a computed name. */
  ComputedName = 1008,
  /** A JSDoc tag or type tag whose value does not parse, or a default/example the type does not accept. */
  InvalidTagValue = 1009,
  /** A `@param` that names no parameter (warning). */
  UnknownParamTag = 1010,
  /** A constraint on a type it cannot constrain (`@minLength` on a number, `Min<0>` on a string). */
  MisplacedConstraint = 1011,
  /** A `Date` that dispatch cannot revive (inside a recursive type, or a tuple rest after strings). */
  UnrevivableDate = 1012,
  /** A parameter list shape that cannot map to named arguments (several or misplaced destructured parameters). */
  UnsupportedParameter = 1013,
  /** A `format` the runtime validator does not know: sent to the model, never checked (warning). */
  UnknownFormat = 1014,
  /** `structuredOutput<T>()` without T, with a T that is not an object, or with a name providers reject. */
  OutputShape = 1015,
  /** `@tool` on something other than a method: a field holding an arrow function, a getter, a class. */
  MisplacedDecorator = 1021,
  /** `tool(obj.method)` where the method uses `this`, which the bare reference loses. */
  UnboundMethod = 1022,
  /** The program has `strictNullChecks` off, so `null` and `undefined` vanish from every type (warning, once). */
  StrictNullChecksOff = 1023,
  /** A `pattern` that can backtrack exponentially (star height above one): one string could block the process. */
  SlowPattern = 1024,
  /** `@tool` in a program whose emit keeps standard decorators as written (`target: ESNext`): no engine runs them. */
  UnloweredDecorator = 1025,
  /** An `@example` of JSON arguments that the tool's parameter schema does not accept. */
  InvalidExample = 1026,
  /** A free-form tool (`@freeform`, `freeform: true`) whose parameters are not one required string. */
  FreeformParameters = 1027,
  /** A free-form tool's pattern that OpenAI's `regex` grammar (Rust's `regex` syntax) cannot express as it means. */
  FreeformPattern = 1028,
}

export interface RelatedLocation {
  node: Location;
  message: string;
}

/** Where a diagnostic points: a node, or a span of a file (a JSDoc tag without its trailing blanks). */
export type Location = ts.Node | Span;

export interface Span {
  file: ts.SourceFile;
  start: number;
  end: number;
}

/**
 * tsc prints every diagnostic as `error TS<code>`; offsetting ours keeps them clear of TypeScript's own codes,
 * while the message starts with the `TT<code>` users look up in docs/types-to-schema.md#compile-time-diagnostics.
 */
export const TS_CODE_OFFSET = 990000;

/** Builds a diagnostic at `location`, with code `TT<code>` in its text so users can search for it. */
export function makeDiagnostic(
  tsi: typeof ts,
  location: Location,
  code: Code,
  message: string,
  category: ts.DiagnosticCategory = tsi.DiagnosticCategory.Error,
  related: RelatedLocation[] = [],
): ts.Diagnostic {
  const { file, start, end } = spanOf(location);
  return {
    file,
    start,
    length: end - start,
    category,
    code: TS_CODE_OFFSET + code,
    source: "tooltype",
    messageText: `TT${code}: ${message}`,
    relatedInformation: related.map((r) => {
      const span = spanOf(r.node);
      return {
        file: span.file,
        start: span.start,
        length: span.end - span.start,
        category: tsi.DiagnosticCategory.Message,
        code: TS_CODE_OFFSET + code,
        messageText: r.message,
      };
    }),
  };
}

/** The span of a JSDoc tag, from `@` to the last non-blank character of its text. */
export function tagSpan(tag: ts.JSDocTag): Span {
  const file = tag.getSourceFile();
  const start = tag.getStart(file);
  let end = tag.getEnd();
  while (end > start && /\s/.test(file.text[end - 1]!)) end--;
  return { file, start, end };
}

function spanOf(location: Location): Span {
  if ("kind" in location) {
    const file = location.getSourceFile();
    return { file, start: location.getStart(file), end: location.getEnd() };
  }
  return location;
}

/**
 * Writes a warning to the console the way tsc writes its diagnostics (with colour and context when tsc would use
 * them). Under the tsc CLI every diagnostic handed to ts-patch counts towards the exit status, whatever its
 * category (tsc exits 2, or 1 on an incremental rebuild that re-reports stored diagnostics), so warnings go here
 * instead: printed, never counted.
 */
export function printWarning(tsi: typeof ts, diagnostic: ts.Diagnostic, options: ts.CompilerOptions): void {
  const sys = tsi.sys;
  const host: ts.FormatDiagnosticsHost = {
    getCurrentDirectory: () => sys.getCurrentDirectory(),
    getNewLine: () => sys.newLine,
    getCanonicalFileName: (name) => (sys.useCaseSensitiveFileNames ? name : name.toLowerCase()),
  };
  const pretty = options.pretty ?? (!!sys.writeOutputIsTTY?.() && !process.env.NO_COLOR);
  sys.write(
    pretty
      ? tsi.formatDiagnosticsWithColorAndContext([diagnostic], host) + sys.newLine
      : tsi.formatDiagnostic(diagnostic, host),
  );
}
