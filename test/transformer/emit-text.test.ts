/**
 * The transformer writes each tool's metadata as text (emit.ts `jsonText`) instead of building literal nodes for
 * the printer, which is much cheaper on a large project. The build output must not change by a byte: this test
 * prints the same values built as literal nodes, the way the transformer did before, with TypeScript's own
 * printer, and compares the two texts, for the values where they could differ (escapes, non-ASCII, NUL before a
 * digit, line separators, negative zero, tiny and huge numbers, keys that are not identifiers, empty containers).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as ts from "typescript";
import type { JsonValue } from "tooltype";
import { jsonText, metaExpression } from "../../transformer/emit";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The value as literal nodes, as the transformer built it before it wrote text. */
function literalNodes(f: ts.NodeFactory, value: JsonValue): ts.Expression {
  if (value === null) return f.createNull();
  if (typeof value === "boolean") return value ? f.createTrue() : f.createFalse();
  if (typeof value === "number") {
    const literal = f.createNumericLiteral(Math.abs(value));
    return value < 0 || Object.is(value, -0) ? f.createPrefixMinus(literal) : literal;
  }
  if (typeof value === "string") return f.createStringLiteral(value);
  if (Array.isArray(value))
    return f.createArrayLiteralExpression(
      value.map((v) => literalNodes(f, v)),
      false,
    );
  return f.createObjectLiteralExpression(
    Object.entries(value).map(([key, v]) =>
      f.createPropertyAssignment(
        IDENTIFIER.test(key) ? f.createIdentifier(key) : f.createStringLiteral(key),
        literalNodes(f, v),
      ),
    ),
    false,
  );
}

const source = ts.createSourceFile("x.ts", "", ts.ScriptTarget.ES2022);
const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
const printed = (node: ts.Expression): string => printer.printNode(ts.EmitHint.Expression, node, source);

const AWKWARD_STRINGS = [
  "",
  "plain text, with (punctuation) & symbols ~ `backtick` 'single'",
  'double " quote and back\\slash',
  "tab\there, newline\nthere, cr\r\nlf, vertical\vtab, form\ffeed, back\bspace",
  "nul\0 then nul\x001 (before a digit) and \x01\x1f\x7f",
  "line\u2028separator\u2029paragraph\u0085next line",
  "café, naïve, 北京, Ελληνικά",
  "emoji 😀 and a lone surrogate \ud800 here",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: text that must come out of the emitter as written
  "$ref and __proto__ and ${template}",
];

test("jsonText: every awkward string prints exactly as a string literal node", () => {
  for (const text of AWKWARD_STRINGS) {
    assert.is(jsonText(text), printed(ts.factory.createStringLiteral(text)), JSON.stringify(text));
  }
});

test("jsonText: numbers, keys and containers print exactly as literal nodes", () => {
  const values: JsonValue[] = [
    0,
    -0,
    1,
    -1,
    1.5,
    -2.25,
    1e21,
    -1e21,
    1e-7,
    -1e-7,
    123456789012,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_VALUE,
    -Number.MAX_VALUE,
    true,
    false,
    null,
    [],
    {},
    [[]],
    [{}],
    { a: {} },
    {
      v: 1,
      name: "x",
      "not-an-identifier": 1,
      "": "empty key",
      "1abc": true,
      $dollar: null,
      _under: [1, -1, "é"],
      "with space": { 'a"b': "\u2028" },
    },
    {
      type: "object",
      properties: { q: { type: "string", enum: ["a", "b\n", "ç"] } },
      required: ["q"],
      additionalProperties: false,
    },
    AWKWARD_STRINGS,
    Object.fromEntries(AWKWARD_STRINGS.map((s, i) => [s, i])),
  ];
  for (const value of values) {
    assert.is(jsonText(value), printed(literalNodes(ts.factory, value)), JSON.stringify(value));
  }
});

test("metaExpression: the validator is spliced in as the last property, as before", () => {
  const meta = { v: 1, name: "t", description: 'Ünïcode "quoted"', params: ["a"] };
  const validator = "function (require) {\nreturn 1;\n}";
  const expected = ts.factory.createObjectLiteralExpression(
    [
      ...(literalNodes(ts.factory, meta) as ts.ObjectLiteralExpression).properties,
      ts.factory.createPropertyAssignment("validator", ts.factory.createIdentifier(validator)),
    ],
    false,
  );
  assert.is(printed(metaExpression(ts.factory, meta, validator)), printed(expected));
  assert.is(printed(metaExpression(ts.factory, meta, undefined)), printed(literalNodes(ts.factory, meta)));
});

test.run();
