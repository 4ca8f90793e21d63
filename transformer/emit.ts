/**
 * Writes compiled metadata back into the source: JSON data as object literal text, appended as the last argument
 * of the `tool(...)` call or the `@tool(...)` decorator. A usage that already carries metadata is left as it is,
 * so running the transformer twice changes nothing.
 */
import type * as ts from "typescript";
import type { JsonValue } from "../runtime/tool/meta";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A JSON value as the text TypeScript's printer writes for it built as literal nodes (`{ a: [1, "x"] }`: keys that
 * are identifiers bare, one line, strings escaped as the printer escapes them). Emitted as one verbatim
 * identifier, the metadata costs the printer, and every transform after this one, a single node instead of one per
 * value; test/transformer/emit-text.test.ts checks the text against the printer's for awkward values.
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

/** Printable ASCII without `"` and `\`: written as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7f]*$/;
const SHORT_ESCAPES: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };

/**
 * A string literal in double quotes, escaped as the printer escapes a synthesized one (its escapeNonAsciiString):
 * the quote, backslash and control characters, and every UTF-16 unit above U+007F as `\uXXXX`; NUL is `\0`, or
 * `\x00` before a digit.
 */
function quoted(text: string): string {
  if (PLAIN.test(text)) return `"${text}"`;
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES[code];
    if (short !== undefined) out += short;
    else if (code === 0) out += /[0-9]/.test(text.charAt(i + 1)) ? "\\x00" : "\\0";
    else if (code < 0x20 || code > 0x7f) out += `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
    else out += text.charAt(i);
  }
  return `${out}"`;
}

/**
 * The metadata object: its JSON data, plus the precompiled validator function when there is one. An identifier's
 * text is printed verbatim; being synthesized, it is never resolved or renamed by the transforms after this one.
 */
export function metaExpression(f: ts.NodeFactory, meta: JsonValue, validator: string | undefined): ts.Expression {
  const data = jsonText(meta);
  if (validator === undefined) return f.createIdentifier(data);
  const fields = data === "{}" ? "{ " : `${data.slice(0, -2)}, `;
  return f.createIdentifier(`${fields}validator: ${validator} }`);
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
export function decoratorWithMeta(f: ts.NodeFactory, tsi: typeof ts, decorator: ts.Decorator, meta: ts.Expression): ts.Decorator {
  const expression = decorator.expression;
  const call = tsi.isCallExpression(expression)
    ? withMetaArgument(f, expression, expression.arguments, 1, meta)
    : f.createCallExpression(expression, undefined, [f.createVoidZero(), meta]);
  return f.updateDecorator(decorator, call);
}
