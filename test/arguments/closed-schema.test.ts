/**
 * closed-schema.ts: which schemas bound every value they accept to plain JSON within a depth (so the first stages of
 * dispatch may skip their walk), shape by shape. That the generated validators of closed schemas really refuse
 * `__proto__` keys
 * and Infinity is checked over the whole type corpus in test/transformer/validator/differential.test.ts.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { closedDepth } from "../../runtime/arguments/read/closed-schema";
import type { JsonSchema } from "../../runtime/tool/meta";

const object = (properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

test("scalars, enums and closed objects count their nesting", () => {
  assert.is(closedDepth(object({ city: { type: "string" }, days: { type: "integer", minimum: 1 } })), 1);
  assert.is(closedDepth(object({ unit: { type: "string", enum: ["c", "f"] }, flag: { const: true } })), 1);
  assert.is(
    closedDepth(object({ at: { type: "string", format: "date-time" }, note: { type: ["string", "null"] } })),
    1,
  );
  assert.is(closedDepth(object({ tags: { type: "array", items: { type: "string" } } })), 2);
  assert.is(closedDepth(object({ a: object({ b: object({ c: { type: "array", items: { type: "number" } } }) }) })), 4);
  assert.is(closedDepth(object({})), 1);
});

test("unions take their deepest branch; tuples their deepest item", () => {
  assert.is(
    closedDepth(object({ x: { anyOf: [{ type: "string" }, object({ y: { type: "number" } }), { type: "null" }] } })),
    2,
  );
  assert.is(closedDepth(object({ x: { oneOf: [{ type: "string" }, { type: "boolean" }] } })), 1);
  const tuple: JsonSchema = {
    type: "array",
    prefixItems: [{ type: "string" }, object({ n: { type: "integer" } })],
    items: false,
    minItems: 2,
  };
  assert.is(closedDepth(object({ pair: tuple })), 3);
});

test("anything that may accept a __proto__ key, a value of any shape or unbounded nesting is open", () => {
  const open: [string, JsonSchema][] = [
    ["additional properties allowed", { type: "object", properties: { a: { type: "string" } } }],
    ["a record", { type: "object", additionalProperties: { type: "string" } }],
    [
      "a declared __proto__ property",
      {
        type: "object",
        properties: JSON.parse('{"__proto__":{"type":"string"}}') as JsonSchema,
        additionalProperties: false,
      },
    ],
    ["an untyped property", object({ anything: {} })],
    [
      "a property of schema true",
      { type: "object", properties: { a: true }, additionalProperties: false } as unknown as JsonSchema,
    ],
    ["a $ref (recursive types)", { ...object({ next: { $ref: "#/$defs/Node" } }), $defs: { Node: object({}) } }],
    ["patternProperties", object({ a: { type: "string" } }, { patternProperties: { "^x": { type: "string" } } })],
    ["an array without items", object({ list: { type: "array" } })],
    ["an enum holding an object", object({ choice: { enum: [{ a: 1 }, "b"] } })],
    ["a const object", object({ fixed: { const: { a: 1 } } })],
    ["not", object({ x: { not: { type: "string" } } })],
    ["a type next to anyOf", object({ x: { type: "object", anyOf: [object({})] } })],
  ];
  for (const [label, schema] of open) assert.is(closedDepth(schema), undefined, label);
});

test("false accepts nothing, so nothing needs walking", () => {
  assert.is(closedDepth(false), 0);
  assert.is(closedDepth(object({ never: false as unknown as JsonSchema })), 1);
  assert.is(closedDepth(true), undefined);
});

test.run();
