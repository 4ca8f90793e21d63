/**
 * Writes compiled metadata back into the source: JSON data as an object literal, appended as the last argument
 * of the `tool(...)` call or the `@tool(...)` decorator. A usage that already carries metadata is left as it is,
 * so running the transformer twice changes nothing.
 */
import type * as ts from "typescript";
import type { JsonValue } from "../runtime/tool/meta";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSON value as an expression the printer writes out literally. */
export function jsonExpression(f: ts.NodeFactory, value: JsonValue): ts.Expression {
  if (value === null) return f.createNull();
  if (typeof value === "boolean") return value ? f.createTrue() : f.createFalse();
  if (typeof value === "number") {
    const literal = f.createNumericLiteral(Math.abs(value));
    return value < 0 || Object.is(value, -0) ? f.createPrefixMinus(literal) : literal;
  }
  if (typeof value === "string") return f.createStringLiteral(value);
  if (Array.isArray(value)) return f.createArrayLiteralExpression(value.map((v) => jsonExpression(f, v)), false);
  return f.createObjectLiteralExpression(
    Object.entries(value).map(([key, v]) =>
      f.createPropertyAssignment(IDENTIFIER.test(key) ? f.createIdentifier(key) : f.createStringLiteral(key), jsonExpression(f, v)),
    ),
    false,
  );
}

/**
 * Fields of the metadata whose JSON is longer than this are written as `JSON.parse('...')`: V8 reads a string
 * and parses JSON about twice as fast as it compiles and runs an object literal, which is most of the time a
 * program with many tools spends loading them (an app's thousand tool schemas: about 12 ms instead of 22).
 */
const PARSED_FIELD_LENGTH = 160;

/**
 * The metadata object: its JSON data, plus the precompiled validator function when there is one. Short fields are
 * object literals; a long schema (`parameters`, an output `schema`) is its JSON text, parsed as the module loads.
 */
export function metaExpression(f: ts.NodeFactory, meta: JsonValue, validator: ts.Expression | undefined): ts.Expression {
  const fields = Object.entries(meta as { [key: string]: JsonValue }).map(([key, value]) => {
    const json = typeof value === "object" && value !== null ? JSON.stringify(value) : undefined;
    const expression =
      json !== undefined && json.length > PARSED_FIELD_LENGTH
        ? f.createCallExpression(f.createPropertyAccessExpression(f.createIdentifier("JSON"), "parse"), undefined, [f.createStringLiteral(json, true)])
        : jsonExpression(f, value);
    return f.createPropertyAssignment(IDENTIFIER.test(key) ? f.createIdentifier(key) : f.createStringLiteral(key), expression);
  });
  if (validator) fields.push(f.createPropertyAssignment("validator", validator));
  return f.createObjectLiteralExpression(fields, false);
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
