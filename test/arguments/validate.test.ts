/**
 * The validation messages a model reads: one line per violation with where, what was expected and what arrived;
 * unions folded into something a model can act on. Checked through the public API (`invoke` throws the same
 * ToolValidationError whose message dispatch sends).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type JsonSchema, ToolRegistry, ToolValidationError, tool } from "tooltype";

/** A registry with one tool `t` taking one parameter `x` of the given schema (plus root `$defs`). */
function single(x: JsonSchema, defs?: JsonSchema): ToolRegistry {
  const parameters: JsonSchema = {
    type: "object",
    properties: { x },
    required: ["x"],
    additionalProperties: false,
  };
  if (defs) parameters.$defs = defs;
  return new ToolRegistry([
    tool((value: unknown) => value, undefined, { v: 1, name: "t", description: "", parameters, params: ["x"] }),
  ]);
}

/** The issue lines for `x: value`, or [] when it is valid. */
async function issues(registry: ToolRegistry, value: unknown): Promise<string[]> {
  try {
    await registry.invoke("t", { x: value });
    return [];
  } catch (error) {
    if (!(error instanceof ToolValidationError)) throw error;
    return [...error.issues];
  }
}

test("scalars: type, enum, const, numeric ranges", async () => {
  assert.equal(await issues(single({ type: "integer" }), "5"), ['/x: must be an integer; got "5"']);
  assert.equal(await issues(single({ type: ["string", "null"] }), 5), ["/x: must be a string or null; got 5"]);
  assert.equal(await issues(single({ type: "string", enum: ["a", "b", null] }), "c"), [
    '/x: must be one of "a", "b", null; got "c"',
  ]);
  assert.equal(await issues(single({ type: "boolean", const: true }), false), ["/x: must be true; got false"]);
  assert.equal(await issues(single({ type: "number", minimum: 0, maximum: 10 }), 11), ["/x: must be <= 10; got 11"]);
  assert.equal(await issues(single({ type: "number", exclusiveMinimum: 0 }), 0), ["/x: must be > 0; got 0"]);
  assert.equal(await issues(single({ type: "number", exclusiveMaximum: 1 }), 1), ["/x: must be < 1; got 1"]);
  assert.equal(await issues(single({ type: "number", multipleOf: 5 }), 7), ["/x: must be a multiple of 5; got 7"]);
});

test("strings: length, pattern, formats with an example", async () => {
  assert.equal(await issues(single({ type: "string", minLength: 3 }), "ab"), [
    '/x: must be at least 3 characters long; got "ab" (2 characters)',
  ]);
  assert.equal(await issues(single({ type: "string", maxLength: 1 }), "ab"), [
    '/x: must be at most 1 character long; got "ab" (2 characters)',
  ]);
  assert.equal(await issues(single({ type: "string", pattern: "^[a-z]+$" }), "ABC"), [
    '/x: must match the pattern /^[a-z]+$/; got "ABC"',
  ]);
  assert.equal(await issues(single({ type: "string", format: "email" }), "nope"), [
    '/x: must be a string in the email format, such as "name@example.com"; got "nope"',
  ]);
  assert.equal(await issues(single({ type: "string", format: "date" }), "2025-02-30"), [
    '/x: must be a string in the date format, such as "2025-01-31"; got "2025-02-30"',
  ]);
  assert.equal(await issues(single({ type: "string", format: "ipv4" }), "1.2.3"), [
    '/x: must be a string in the ipv4 format, such as "192.168.0.1"; got "1.2.3"',
  ]);
  assert.equal(await issues(single({ type: "string", format: "int32" }), "x"), []);
  assert.equal(await issues(single({ type: "string", format: "made-up" }), "anything"), []);
});

test("arrays: item counts, uniqueness, tuples, item errors by index", async () => {
  assert.equal(await issues(single({ type: "array", minItems: 2 }), [1]), [
    "/x: must have at least 2 items; got 1 item",
  ]);
  assert.equal(await issues(single({ type: "array", maxItems: 1 }), [1, 2]), [
    "/x: must have at most 1 item; got 2 items",
  ]);
  assert.equal(await issues(single({ type: "array", uniqueItems: true }), [1, 2, 1]), [
    "/x: must not contain duplicates (items 0 and 2 are equal)",
  ]);
  const tuple = single({
    type: "array",
    prefixItems: [{ type: "string" }, { type: "number" }],
    minItems: 2,
    maxItems: 2,
  });
  assert.equal(await issues(tuple, ["a", "b", 3]), [
    "/x: must have at most 2 items; got 3 items",
    '/x/1: must be a number; got "b"',
  ]);
  assert.equal(await issues(single({ type: "array", items: { type: "string" } }), ["a", 2, "c", false]), [
    "/x/1: must be a string; got 2",
    "/x/3: must be a string; got false",
  ]);
});

test("objects: missing and unexpected properties, nested paths", async () => {
  const point = single({
    type: "object",
    properties: { lat: { type: "number" }, lng: { type: "number" } },
    required: ["lat", "lng"],
    additionalProperties: false,
  });
  assert.equal(await issues(point, { lat: "1", lon: 2 }), [
    '/x: missing required property "lng"',
    '/x: unexpected property "lon"; allowed properties: lat, lng',
    '/x/lat: must be a number; got "1"',
  ]);
  assert.equal(await issues(single({ type: "object", additionalProperties: false }), { a: 1 }), [
    '/x: unexpected property "a"; this object takes no properties',
  ]);
  assert.equal(await issues(single({ type: "object", additionalProperties: { type: "number" } }), { "a/b": "1" }), [
    '/x/a~1b: must be a number; got "1"',
  ]);
});

const shapes = {
  Circle: {
    type: "object",
    properties: { kind: { type: "string", const: "circle" }, radius: { type: "number" } },
    required: ["kind", "radius"],
    additionalProperties: false,
  },
  Square: {
    type: "object",
    properties: { kind: { type: "string", const: "square" }, side: { type: "number" } },
    required: ["kind", "side"],
    additionalProperties: false,
  },
} satisfies JsonSchema;

test("unions: the alternative the value fits reports its own errors; otherwise the alternatives are listed", async () => {
  const union = single({ anyOf: [{ $ref: "#/$defs/Circle" }, { $ref: "#/$defs/Square" }] }, shapes);
  assert.equal(await issues(union, { kind: "circle", radius: "big" }), ['/x/radius: must be a number; got "big"']);
  assert.equal(await issues(union, { kind: "square" }), ['/x: missing required property "side"']);
  assert.equal(await issues(union, { kind: "triangle" }), [
    '/x: must be an object with kind: "circle" or an object with kind: "square"; got {"kind":"triangle"}',
  ]);
  assert.equal(await issues(union, "circle"), [
    '/x: must be an object with kind: "circle" or an object with kind: "square"; got "circle"',
  ]);
  assert.equal(await issues(union, { kind: "circle", radius: 1 }), []);

  const mixed = single({
    anyOf: [
      { type: "string", minLength: 2 },
      { type: "array", items: { type: "string" } },
    ],
  });
  assert.equal(await issues(mixed, "a"), ['/x: must be at least 2 characters long; got "a" (1 character)']);
  assert.equal(await issues(mixed, ["a", 1]), ["/x/1: must be a string; got 1"]);
  assert.equal(await issues(mixed, 3), ["/x: must be a string or an array; got 3"]);
});

test("unions nested in arrays and recursive types keep their paths; sibling errors stay", async () => {
  const registry = new ToolRegistry([
    tool((tree: unknown, count: number) => [tree, count], undefined, {
      v: 1,
      name: "t",
      description: "",
      parameters: {
        type: "object",
        properties: {
          x: { $ref: "#/$defs/Node" },
          count: { type: "integer" },
        },
        required: ["x", "count"],
        additionalProperties: false,
        $defs: {
          Node: {
            type: "object",
            properties: {
              label: { type: "string" },
              children: { type: "array", items: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] } },
            },
            required: ["label"],
            additionalProperties: false,
          },
        },
      },
      params: ["x", "count"],
    }),
  ]);
  const error = await registry
    .invoke("t", {
      count: 1.5,
      x: { label: "root", children: [null, { label: 1 }, { label: "ok", children: [{ lbl: "x" }] }] },
    })
    .catch((e: unknown) => e as ToolValidationError);
  assert.instance(error, ToolValidationError);
  assert.equal((error as ToolValidationError).issues, [
    "/x/children/1/label: must be a string; got 1",
    '/x/children/2/children/0: missing required property "label"',
    '/x/children/2/children/0: unexpected property "lbl"; allowed properties: label, children',
    "/count: must be an integer; got 1.5",
  ]);
});

test("the message: header, one line per issue, the instruction; long values truncated, long lists capped", async () => {
  const registry = single({ type: "array", items: { type: "integer" } });
  const error = (await registry
    .invoke("t", { x: Array.from({ length: 40 }, (_, i) => `n${i}`) })
    .catch((e: unknown) => e)) as ToolValidationError;
  const lines = error.message.split("\n");
  assert.is(lines[0], "invalid arguments for t:");
  assert.is(lines[1], '- /x/0: must be an integer; got "n0"');
  assert.is(lines.length, 1 + 30 + 1 + 1);
  assert.is(lines[31], "- … and 10 more");
  assert.is(lines[32], "Call t again with corrected arguments.");
  assert.is(error.issues.length, 40);
  assert.is(error.reason, "invalid_arguments");
  assert.is(error.toolName, "t");

  const long = await issues(single({ type: "number" }), "y".repeat(500));
  assert.equal(long, [`/x: must be a number; got "${"y".repeat(79)}…`]);
});

test("the validator is compiled once per tool and reused", async () => {
  const registry = single({ type: "string" });
  for (let i = 0; i < 3; i++) assert.equal(await issues(registry, 1), ["/x: must be a string; got 1"]);
  assert.equal(await issues(registry, "fine"), []);
});

test.run();
