/**
 * The core type mapping, checked by behaviour: every case is a tool compiled with the real compiler, and its
 * emitted `parameters` must accept the arguments a careful human would allow and reject the others.
 * All cases share one program, which keeps the suite fast.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JsonSchema, ToolRegistry } from "tooltype";
import { compileFixture } from "../support/compile";
import { assertAccepts } from "../support/schema";

interface Case {
  name: string;
  /** Parameter list of the tool. */
  params: string;
  /** Expected `properties` (exact), when the shape matters. */
  properties?: JsonSchema;
  required?: string[];
  valid: unknown[];
  invalid: unknown[];
}

const preamble = `
import { tool, ToolRegistry, type Int, type Min, type Max, type MinLength, type Pattern, type MaxItems } from "tooltype";
interface Address {
  /** Street and house number */
  street: string;
  /** City name */
  city?: string;
  /** Postal code, null when unknown */
  zip: string | null;
}
type Point = { x: number; y: number };
interface Order {
  id: string;
  items: { sku: string; qty: Int }[];
  shipTo: Address;
}
enum Color { Red = "red", Green = "green" }
enum Level { Low = 1, High = 2 }
`;

const cases: Case[] = [
  {
    name: "primitives",
    params: "s: string, n: number, i: Int, b: boolean",
    properties: { s: { type: "string" }, n: { type: "number" }, i: { type: "integer" }, b: { type: "boolean" } },
    required: ["s", "n", "i", "b"],
    valid: [{ s: "x", n: 1.5, i: 2, b: false }],
    invalid: [
      { s: 1, n: 1, i: 1, b: true },
      { s: "x", n: 1, i: 1.5, b: true },
      { s: "x", n: 1, i: 1, b: "true" },
      { s: "x", n: 1, i: 1 },
      { s: "x", n: 1, i: 1, b: true, extra: 1 },
    ],
  },
  {
    name: "string_enum",
    params: `unit: "celsius" | "fahrenheit"`,
    properties: { unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
    valid: [{ unit: "celsius" }],
    invalid: [{ unit: "kelvin" }, { unit: 1 }, {}],
  },
  {
    name: "number_enum",
    params: "size: 1 | 2 | 3",
    properties: { size: { type: "integer", enum: [1, 2, 3] } },
    valid: [{ size: 2 }],
    invalid: [{ size: 4 }, { size: "2" }],
  },
  {
    name: "ts_enums",
    params: "color: Color, level: Level",
    properties: {
      color: { type: "string", enum: ["red", "green"] },
      level: { type: "integer", enum: [1, 2], description: "1 = Low, 2 = High" },
    },
    valid: [{ color: "red", level: 2 }],
    invalid: [
      { color: "Red", level: 2 },
      { color: "red", level: 3 },
    ],
  },
  {
    name: "arrays",
    params: "tags: string[], matrix: Array<number[]>, frozen: readonly Int[]",
    properties: {
      tags: { type: "array", items: { type: "string" } },
      matrix: { type: "array", items: { type: "array", items: { type: "number" } } },
      frozen: { type: "array", items: { type: "integer" } },
    },
    valid: [{ tags: [], matrix: [[1, 2], []], frozen: [1] }],
    invalid: [
      { tags: [1], matrix: [], frozen: [] },
      { tags: [], matrix: [1], frozen: [] },
      { tags: "a", matrix: [], frozen: [] },
    ],
  },
  {
    name: "optional_and_defaults",
    params: `a: string, d: string | undefined, b?: number, c: boolean = true, e: "x" | "y" = "x"`,
    properties: {
      a: { type: "string" },
      d: { type: "string" },
      b: { type: "number" },
      c: { type: "boolean", default: true },
      e: { type: "string", enum: ["x", "y"], default: "x" },
    },
    required: ["a"],
    valid: [{ a: "" }, { a: "", b: 1, c: false, d: "z", e: "y" }],
    invalid: [{}, { a: "", b: null }, { a: "", e: "z" }],
  },
  {
    name: "nullable",
    params: `note: string | null, count: number | null, mode: "a" | "b" | null, where: Point | null`,
    properties: {
      note: { type: ["string", "null"] },
      count: { type: ["number", "null"] },
      mode: { type: ["string", "null"], enum: ["a", "b", null] },
      where: {
        anyOf: [
          {
            type: "object",
            properties: { x: { type: "number" }, y: { type: "number" } },
            required: ["x", "y"],
            additionalProperties: false,
          },
          { type: "null" },
        ],
      },
    },
    valid: [
      { note: null, count: null, mode: null, where: null },
      { note: "n", count: 1, mode: "a", where: { x: 1, y: 2 } },
    ],
    invalid: [
      { note: null, count: null, mode: "c", where: null },
      { count: null, mode: null, where: null },
      { note: 1, count: null, mode: null, where: null },
    ],
  },
  {
    name: "nested_objects",
    params: "order: Order",
    valid: [{ order: { id: "o1", items: [{ sku: "a", qty: 2 }], shipTo: { street: "Main 1", zip: null } } }],
    invalid: [
      { order: { id: "o1", items: [{ sku: "a", qty: 2.5 }], shipTo: { street: "Main 1", zip: null } } },
      { order: { id: "o1", items: [], shipTo: { street: "Main 1" } } },
      { order: { id: "o1", items: [], shipTo: { street: "Main 1", zip: "1", country: "x" } } },
    ],
  },
  {
    name: "type_literal_param",
    // JSDoc needs its own line, as TypeScript itself only attaches it there.
    params:
      "filter: {\n  /** Lowest price */\n  min?: number;\n  /** Highest price */\n  max?: number;\n  inStock: boolean;\n}",
    properties: {
      filter: {
        type: "object",
        properties: {
          min: { type: "number", description: "Lowest price" },
          max: { type: "number", description: "Highest price" },
          inStock: { type: "boolean" },
        },
        required: ["inStock"],
        additionalProperties: false,
      },
    },
    valid: [{ filter: { inStock: true } }, { filter: { inStock: false, min: 1, max: 2 } }],
    invalid: [{ filter: {} }, { filter: { inStock: true, min: "1" } }],
  },
  {
    name: "type_tags",
    params: `age: Int & Min<0> & Max<150>, code: string & MinLength<2> & Pattern<"^[A-Z]+$">, picks: string[] & MaxItems<2>`,
    properties: {
      age: { type: "integer", minimum: 0, maximum: 150 },
      code: { type: "string", minLength: 2, pattern: "^[A-Z]+$" },
      picks: { type: "array", items: { type: "string" }, maxItems: 2 },
    },
    valid: [
      { age: 0, code: "AB", picks: [] },
      { age: 150, code: "XYZ", picks: ["a", "b"] },
    ],
    invalid: [
      { age: -1, code: "AB", picks: [] },
      { age: 151, code: "AB", picks: [] },
      { age: 1, code: "A", picks: [] },
      { age: 1, code: "ab", picks: [] },
      { age: 1, code: "AB", picks: ["a", "b", "c"] },
    ],
  },
  {
    name: "property_descriptions",
    params: "address: Address",
    properties: {
      address: {
        type: "object",
        properties: {
          street: { type: "string", description: "Street and house number" },
          city: { type: "string", description: "City name" },
          zip: { type: ["string", "null"], description: "Postal code, null when unknown" },
        },
        required: ["street", "zip"],
        additionalProperties: false,
      },
    },
    valid: [{ address: { street: "s", zip: "1" } }],
    invalid: [{ address: { street: "s" } }],
  },
];

const source =
  preamble +
  cases
    .map(
      (c) => `/** Case ${c.name}. */\nexport const ${c.name} = tool(function ${c.name}(${c.params}) { return 1; });\n`,
    )
    .join("") +
  `export const registry = new ToolRegistry([${cases.map((c) => c.name).join(", ")}]);\n`;

const fixture = compileFixture(source);
const registry = fixture.load<{ registry: ToolRegistry }>().registry;

test("the fixture compiles without diagnostics", () => {
  assert.equal(fixture.diagnostics, []);
});

for (const c of cases) {
  test(`${c.name}: schema shape and behaviour`, () => {
    const schema = registry.get(c.name)!.parameters;
    if (c.properties) assert.equal(schema.properties, c.properties);
    if (c.required) assert.equal(schema.required, c.required);
    assert.is(schema.additionalProperties, false);
    assertAccepts(schema, c.valid, c.invalid);
  });
}

test.run();
