/**
 * Writes compiled metadata back into the source: JSON data as object literal text, appended as the last argument
 * of the `tool(...)` call or the `@tool(...)` decorator. A usage that already carries metadata is left as it is,
 * so running the transformer twice changes nothing. A file whose validators read `tooltype/kit` gets its import.
 */
import type * as ts from "typescript";
import { type JsonValue, VALIDATOR_IMPORTS } from "../runtime/tool/meta";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A JSON value as the text TypeScript's printer writes for it built as literal nodes (`{ a: [1, "x"] }`: keys that
 * are identifiers bare, one line, strings escaped as the printer escapes them). Emitted as one verbatim
 * identifier, the metadata costs the printer, and every transform after this one, a single node instead of one per
 * value; a test of the emitted text checks the text against the printer's for awkward values.
 */
export function jsonText(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return value < 0 || Object.is(value, -0) ? `-${String(-value)}` : String(value);
  if (typeof value === "string") return quoted(value);
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[${value.map(jsonText).join(", ")}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{ ${entries.map(([key, v]) => `${IDENTIFIER.test(key) ? key : quoted(key)}: ${jsonText(v)}`).join(", ")} }`;
}

/** What a string literal escapes: the quote, `\`, control characters and every UTF-16 unit above U+007F. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes
const ESCAPED: Record<Quote, RegExp> = { '"': /["\\\x00-\x1f\u0080-\uffff]/g, "'": /['\\\x00-\x1f\u0080-\uffff]/g };
const SHORT_ESCAPES: Record<number, string> = {
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  92: "\\\\",
};
type Quote = '"' | "'";

/**
 * A string literal, escaped as the printer escapes a synthesized one (its escapeNonAsciiString): the quote,
 * backslash and control characters, and every UTF-16 unit above U+007F as `\uXXXX`; NUL is `\0`, or `\x00` before
 * a digit. One regular expression replace: schemas are long strings, and a loop adding one character at a time
 * was a noticeable part of a build's time in the transformer.
 */
function quoted(text: string, quote: Quote = '"'): string {
  const escaped = text.replace(ESCAPED[quote], (unit, at: number) => escapeUnit(unit.charCodeAt(0), text, at, quote));
  return `${quote}${escaped}${quote}`;
}

function escapeUnit(code: number, text: string, at: number, quote: Quote): string {
  if (code === quote.charCodeAt(0)) return `\\${quote}`;
  const short = SHORT_ESCAPES[code];
  if (short !== undefined) return short;
  if (code === 0) return /[0-9]/.test(text.charAt(at + 1)) ? "\\x00" : "\\0";
  return `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Fields of the metadata whose JSON is longer than this are written as `JSON.parse('...')`: V8 reads a string
 * and parses JSON about twice as fast as it compiles and runs an object literal, which is most of the time a
 * program with many tools spends loading them (an app's thousand tool schemas: about 12 ms instead of 22).
 */
const PARSED_FIELD_LENGTH = 160;

/** A value with its JSON text, written by the caller already. */
export interface KnownJson {
  value: JsonValue;
  text: string;
}

/** One field of the metadata: a long schema as its JSON text parsed as the module loads, anything else a literal. */
function fieldText(value: JsonValue, known: KnownJson | undefined): string {
  const json =
    typeof value === "object" && value !== null
      ? known?.value === value
        ? known.text
        : JSON.stringify(value)
      : undefined;
  return json !== undefined && json.length > PARSED_FIELD_LENGTH ? `JSON.parse(${quoted(json, "'")})` : jsonText(value);
}

/**
 * The metadata object: its JSON data, plus the precompiled validator functions when there are (of the parameters,
 * and of the return type for results that may be checked). An identifier's text is printed verbatim; being
 * synthesized, it is never resolved or renamed by the transforms after this one.
 */
export function metaExpression(
  f: ts.NodeFactory,
  meta: JsonValue,
  validator: string | undefined,
  known?: KnownJson,
  resultValidator?: string,
): ts.Expression {
  const fields = Object.entries(meta as { [key: string]: JsonValue }).map(
    ([key, value]) => `${IDENTIFIER.test(key) ? key : quoted(key)}: ${fieldText(value, known)}`,
  );
  if (validator !== undefined) fields.push(`validator: ${validator}`);
  if (resultValidator !== undefined) fields.push(`resultValidator: ${resultValidator}`);
  return f.createIdentifier(fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`);
}

/** `tool(fn)` / `tool(fn, options)` → `tool(fn, options ?? undefined, meta)`. */
export function withMetaArgument(
  f: ts.NodeFactory,
  call: ts.CallExpression,
  leading: readonly ts.Expression[],
  leadingCount: number,
  meta: ts.Expression,
): ts.CallExpression {
  const args: ts.Expression[] = [];
  for (let i = 0; i < leadingCount; i++) args.push(leading[i] ?? f.createVoidZero());
  args.push(meta);
  return f.updateCallExpression(call, call.expression, call.typeArguments, args);
}

/** `@tool` → `@tool(undefined, meta)`; `@tool(options)` → `@tool(options, meta)`. */
export function decoratorWithMeta(
  f: ts.NodeFactory,
  tsi: typeof ts,
  decorator: ts.Decorator,
  meta: ts.Expression,
): ts.Decorator {
  const expression = decorator.expression;
  const call = tsi.isCallExpression(expression)
    ? withMetaArgument(f, expression, expression.arguments, 1, meta)
    : f.createCallExpression(expression, undefined, [f.createVoidZero(), meta]);
  return f.updateDecorator(decorator, call);
}

/**
 * The name the `tooltype/kit` import takes in `file`: `__tooltype_kit`, or with a number when the file's text
 * holds that name already (then `rename` turns generated code's references into it).
 */
export function kitImportName(file: ts.SourceFile): string {
  let name: string = VALIDATOR_IMPORTS.name;
  for (let i = 1; file.text.includes(name); i++) name = `${VALIDATOR_IMPORTS.name}${i}`;
  return name;
}

/** Generated code, reading the `tooltype/kit` import by `name`. */
export function renameKitImport(code: string, name: string): string {
  return name === VALIDATOR_IMPORTS.name ? code : code.split(`${VALIDATOR_IMPORTS.name}.`).join(`${name}.`);
}

/**
 * `file` with `import * as <name> from "tooltype/kit"` after its directive prologue (`"use strict"`, `"use client"`).
 * tsc turns it into a `require` for CommonJS output and keeps the name in every module format; bundler hosts copy
 * it into the module's text (the hosts' module transform).
 */
export function withKitImport(f: ts.NodeFactory, tsi: typeof ts, file: ts.SourceFile, name: string): ts.SourceFile {
  const declaration = f.createImportDeclaration(
    undefined,
    // `undefined`, not `false`: TypeScript 5.9 took the first parameter from a boolean to a phase modifier.
    f.createImportClause(undefined, undefined, f.createNamespaceImport(f.createIdentifier(name))),
    f.createStringLiteral(VALIDATOR_IMPORTS.module),
  );
  const statements = [...file.statements];
  let prologue = 0;
  while (prologue < statements.length && isDirective(tsi, statements[prologue]!)) prologue++;
  statements.splice(prologue, 0, declaration);
  return f.updateSourceFile(file, statements);
}

/** A statement of the directive prologue (`"use strict"`, `"use client"`). */
export function isDirective(tsi: typeof ts, statement: ts.Statement): boolean {
  return tsi.isExpressionStatement(statement) && tsi.isStringLiteral(statement.expression);
}
