/**
 * schema-fit.ts answers "does this value satisfy this schema?" without compiling code; it must agree with ajv on
 * the keywords the transformer emits. Checked on generated values against a set of representative schemas.
 */
import Ajv2020 from "ajv/dist/2020";
import fc from "fast-check";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JsonSchema } from "tooltype";
import { fitsSchema } from "../../runtime/validation/schema-fit";

const item: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 5 },
    qty: { type: "integer", minimum: 0, exclusiveMaximum: 10 },
  },
  required: ["name"],
  additionalProperties: false,
};

const schemas: JsonSchema[] = [
  { type: "string", pattern: "^[a-z]+$" },
  { type: ["number", "null"], multipleOf: 0.5, maximum: 3 },
  { type: "string", enum: ["a", "b", "c"] },
  { type: "boolean", const: true },
  { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 3, uniqueItems: true },
  { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 1, maxItems: 2 },
  { type: "array", prefixItems: [{ type: "string" }], items: { type: "boolean" } },
  item,
  { type: "object", additionalProperties: { type: "number" } },
  {
    type: "object",
    properties: { a: { type: "string" } },
    patternProperties: { "^n_": { type: "number" } },
    additionalProperties: false,
  },
  { anyOf: [{ $ref: "#/$defs/Item" }, { type: "null" }], $defs: { Item: item } },
  {
    anyOf: [
      {
        type: "object",
        properties: { kind: { type: "string", const: "circle" }, r: { type: "number" } },
        required: ["kind", "r"],
        additionalProperties: false,
      },
      {
        type: "object",
        properties: { kind: { type: "string", const: "square" }, s: { type: "number" } },
        required: ["kind", "s"],
        additionalProperties: false,
      },
    ],
  },
  {
    $ref: "#/$defs/Tree",
    $defs: {
      Tree: {
        type: "object",
        properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#/$defs/Tree" } } },
        required: ["v"],
        additionalProperties: false,
      },
    },
  },
];

const ajv = new Ajv2020({ strict: false });

/** Values near the schemas' shapes, so both answers occur often. */
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      0.5,
      1,
      2,
      3,
      3.5,
      10,
      -1,
      "",
      "a",
      "b",
      "abc",
      "ABC",
      "abcdef",
      "circle",
      "square",
    ),
    fc.array(tie("json"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("name", "qty", "kind", "r", "s", "a", "n_1", "x", "v", "kids"), tie("json"), {
      maxKeys: 4,
    }),
  ),
})).json;

test("agrees with ajv on generated values for every representative schema", () => {
  schemas.forEach((schema, i) => {
    const validate = ajv.compile(schema);
    fc.assert(
      fc.property(value, (v) => fitsSchema(v, schema, schema) === validate(v)),
      { numRuns: 600, seed: 4242 + i },
    );
  });
});

/** Values right at the edges of the schemas above: each keyword decides at least one of them. */
const edges: unknown[] = [
  "",
  "a",
  "ab1",
  null,
  2.5,
  3,
  3.5,
  0.25,
  true,
  false,
  "a",
  "d",
  [1],
  [1, 1],
  [1, 2, 3, 4],
  [],
  ["x"],
  ["x", 1],
  ["x", 1, 2],
  ["x", true, false],
  ["x", true, 1],
  { name: "" },
  { name: "abcde" },
  { name: "abcdef" },
  { name: "a", qty: 9 },
  { name: "a", qty: 10 },
  { name: "a", qty: -1 },
  { name: "a", qty: 1.5 },
  { name: "a", x: 1 },
  { qty: 1 },
  { a: 1 },
  { a: "x", n_1: 2 },
  { a: "x", n_1: "2" },
  { b: 1 },
  { kind: "circle", r: 1 },
  { kind: "circle", s: 1 },
  { kind: "square", s: 2 },
  { kind: "oval", r: 1 },
  { v: 1, kids: [{ v: 2 }] },
  { v: 1, kids: [{ v: 2.5 }] },
  { v: 1, kids: [{}] },
];

test("agrees with ajv at the edges of every keyword", () => {
  schemas.forEach((schema) => {
    const validate = ajv.compile(schema);
    for (const v of edges)
      assert.is(fitsSchema(v, schema, schema), validate(v), `${JSON.stringify(v)} against ${JSON.stringify(schema)}`);
  });
});

test("a $ref that does not resolve, or a false schema, never fits", () => {
  assert.not.ok(fitsSchema(1, { $ref: "#/$defs/Missing" }, {}));
  assert.not.ok(fitsSchema(1, false, {}));
  assert.ok(fitsSchema(1, true, {}));
});

test.run();
