/**
 * The generated validator code itself: what a user finds in the build output (docs/performance.md shows it whole), its
 * size
 * against the targets, and the keywords it covers beyond the type corpus (patterns, formats, unions, `$defs`,
 * unknown keywords left to ajv).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import Ajv2020 from "ajv/dist/2020";
import { type JsonSchema, ToolRegistry, ToolValidationError, tool } from "tooltype";
import { instantiateValidator } from "../../../runtime/validation/compiled-validator";
import { kitErrors } from "../../../runtime/validation/kit-explain";
import { generateValidator } from "../../../transformer/validator/generate";
import { compileFixture } from "../../support/compile";

const PERFORMANCE_GUIDE = fs.readFileSync(path.resolve(__dirname, "../../../../docs/performance.md"), "utf8");

const fixture = compileFixture(`
import { tool, ToolRegistry, type Pattern, type Format, type MinLength } from "tooltype";
/**
 * Search the catalog.
 * @param query Text to look for
 * @param limit Highest price
 * @param exact Whether the text must match exactly
 */
export const searchCatalog = tool(function search_catalog(query: string, limit: number, exact: boolean) { return query + limit + exact; });
type Shape = { kind: "circle"; r: number } | { kind: "square"; side: number };
interface Tree { label: string & MinLength<1>; kids?: Tree[] }
/**
 * Everything at once.
 * @param code A code
 * @param mail An address
 * @param shape A shape
 * @param tree A tree
 * @param tags Tags by name
 */
export const mixed = tool(function mixed(code: string & Pattern<"^[A-Z]{2}-[0-9]+$">, mail: string & Format<"email">, shape: Shape, tree: Tree, tags: Record<string, number>) { return "ok"; });
/**
 * Type lists.
 * @param id An id
 * @param note A note
 */
export const lists = tool(function lists(id: string | number, note: string | number | null) { return "ok"; });
export const registry = new ToolRegistry([searchCatalog, mixed, lists]);
`);
const registry = fixture.load<{ registry: ToolRegistry }>().registry;

test("docs/performance.md shows the validator the transformer emits for its three-primitive example, whole", () => {
  const block = /<!-- readme:validator-example -->\n```js\n([\s\S]*?)```/.exec(PERFORMANCE_GUIDE);
  assert.ok(block, "docs/performance.md has the marked validator example");
  const emitted = String(registry.get("search_catalog")!.meta.validator);
  assert.is(`${emitted}\n`, block![1]);
  assert.ok(emitted.length < 1024, `${emitted.length} bytes (target: under 1 KB)`);
});

async function issues(args: Record<string, unknown>): Promise<string[]> {
  try {
    await registry.invoke("mixed", args);
    return [];
  } catch (error) {
    if (!(error instanceof ToolValidationError)) throw error;
    return [...error.issues];
  }
}

const good = {
  code: "AB-12",
  mail: "a@example.com",
  shape: { kind: "circle", r: 1 },
  tree: { label: "x", kids: [{ label: "y" }] },
  tags: { a: 1 },
};

test("patterns, formats, discriminated unions, recursive $defs and maps: messages name the place and the rule", async () => {
  assert.equal(await issues(good), []);
  assert.equal(await issues({ ...good, code: "ab-12" }), [
    '/code: must match the pattern /^[A-Z]{2}-[0-9]+$/; got "ab-12"',
  ]);
  assert.equal(await issues({ ...good, mail: "nope" }), [
    '/mail: must be a string in the email format, such as "name@example.com"; got "nope"',
  ]);
  assert.equal(await issues({ ...good, shape: { kind: "square", side: "2" } }), [
    '/shape/side: must be a number; got "2"',
  ]);
  assert.equal(await issues({ ...good, shape: { kind: "oval" } }), [
    '/shape: must be an object with kind: "circle" or an object with kind: "square"; got {"kind":"oval"}',
  ]);
  assert.equal(await issues({ ...good, tree: { label: "x", kids: [{ label: "" }] } }), [
    '/tree/kids/0/label: must be at least 1 character long; got "" (0 characters)',
  ]);
  assert.equal(await issues({ ...good, tags: { a: "1", "b/c": 2, d: null } }), [
    '/tags/a: must be a number; got "1"',
    "/tags/d: must be a number; got null",
  ]);
});

test("a type list is written in words, as ajv's own path writes it for a schema written by hand", async () => {
  const parameters = registry.get("lists")!.parameters as { properties: Record<string, JsonSchema> };
  assert.equal(
    [parameters.properties.id!.type, parameters.properties.note!.type],
    [
      ["string", "number"],
      ["string", "number", "null"],
    ],
  );
  const expected = [
    "/id: must be a string or a number; got true",
    "/note: must be a string, a number or null; got false",
  ];
  const thrown = await registry.invoke("lists", { id: true, note: false }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.instance(thrown, ToolValidationError);
  assert.equal([...(thrown as ToolValidationError).issues], expected);
  // The generated validator's errors carry ajv's params: the type list itself.
  assert.equal(
    (thrown as ToolValidationError).errors.map((error) => error.params),
    [{ type: ["string", "number"] }, { type: ["string", "number", "null"] }],
  );
  const handWritten = new ToolRegistry([
    tool((id: unknown, note: unknown) => String(id) + String(note), undefined, {
      v: 1,
      name: "h",
      description: "d",
      parameters: registry.get("lists")!.parameters,
      params: ["id", "note"],
    }),
  ]);
  const byAjv = await handWritten.invoke("h", { id: true, note: false }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.equal([...(byAjv as ToolValidationError).issues], expected);
});

test("errors carry schema paths from the root: written out inside $defs, derived from the value's place elsewhere", async () => {
  const validate = instantiateValidator(registry.get("mixed")!.meta.validator!, registry.get("mixed")!.parameters);
  const value = { ...good, tree: { label: "x", kids: [{ label: 5 }] } };
  assert.is(validate(value), false);
  const error = kitErrors(validate, value)[0]!;
  assert.is(error.instancePath, "/tree/kids/0/label");
  assert.is(error.schemaPath, "#/$defs/Tree/properties/label/type");
  // Through the public error: a map value's check and each missing required property, as ajv names them.
  try {
    await registry.invoke("mixed", { code: "AB-1", tags: { "a/b": "x" } });
    assert.unreachable("invalid");
  } catch (thrown) {
    assert.instance(thrown, ToolValidationError);
    const errors = (thrown as ToolValidationError).errors.map((e) => [
      e.keyword,
      e.instancePath,
      e.schemaPath,
      JSON.stringify(e.params),
    ]);
    assert.equal(errors, [
      ["required", "", "#/required", '{"missingProperty":"mail"}'],
      ["required", "", "#/required", '{"missingProperty":"shape"}'],
      ["required", "", "#/required", '{"missingProperty":"tree"}'],
      ["type", "/tags/a~1b", "#/properties/tags/additionalProperties/type", '{"type":"number"}'],
    ]);
  }
});

test("code compiled for another kit version fails with the message to rebuild", () => {
  const old = new Function(
    "require",
    'var k = require("tooltype/validator@1"); return k.v(function (d, p, r) { return 0; });',
  ) as (require: (id: string) => unknown) => unknown;
  assert.throws(
    () => instantiateValidator(old, registry.get("search_catalog")!.parameters),
    (error: Error) =>
      error.message ===
      'A precompiled tooltype validator needs "tooltype/validator@1", which this tooltype runtime does not provide: the code was compiled by a different tooltype version. Rebuild the project with the tooltype it runs with.',
  );
});

test("an invalid value's errors come from the schema: the emitted code carries no paths, params or messages", () => {
  const code = String(registry.get("mixed")!.meta.validator);
  assert.not.match(code, /properties\/|anyOf\/|"type"|"format"|additionalProperty/);
  const validate = instantiateValidator(registry.get("mixed")!.meta.validator!, registry.get("mixed")!.parameters);
  const value = { ...good, shape: { kind: "circle", r: "1" }, mail: 5 };
  assert.is(validate(value), false);
  assert.equal(
    kitErrors(validate, value).map((error) => [
      error.keyword,
      error.instancePath,
      error.schemaPath,
      error.branches?.map((branch) => branch.map((inner) => inner.schemaPath)),
    ]),
    [
      ["type", "/mail", "", undefined],
      [
        "anyOf",
        "/shape",
        "",
        [
          ["#/properties/shape/anyOf/0/properties/r/type"],
          [
            "#/properties/shape/anyOf/1/required",
            "#/properties/shape/anyOf/1/additionalProperties",
            "#/properties/shape/anyOf/1/properties/kind/const",
          ],
        ],
      ],
    ],
  );
});

test("a wrong 100,000-item array collects a bounded number of errors", () => {
  const validate = instantiateValidator(
    registry.get("search_catalog")!.meta.validator!,
    registry.get("search_catalog")!.parameters,
  );
  const wide: Record<string, unknown> = { query: 1, limit: "x", exact: "y" };
  for (let i = 0; i < 100_000; i++) wide[`extra${i}`] = i;
  assert.is(validate(wide), false);
  assert.is(kitErrors(validate, wide).length, 40);
});

test("a required property is tested for presence unless its own checks refuse undefined: same answers as ajv", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      typed: { type: "string" },
      listed: { enum: ["x", "y"] },
      union: { anyOf: [{ type: "number" }, { type: "null" }] },
      loose: { anyOf: [{ type: "number" }, { description: "anything" }] },
      any: { description: "no constraint" },
      tree: { $ref: "#/$defs/Tree" },
    },
    required: ["typed", "listed", "union", "loose", "any", "tree", "elsewhere"],
    $defs: { Tree: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/Tree" } } } } },
  };
  const code = generateValidator(schema, { linear: () => true })!;
  // Checked for presence: the names whose checks let undefined through, and the one with no checks at all.
  for (const name of ["loose", "any", "elsewhere"]) assert.match(code, new RegExp(`d\\.${name} === undefined`));
  for (const name of ["typed", "listed", "union", "tree"])
    assert.not.match(code, new RegExp(`d\\.${name} === undefined`));
  // Generated code is run here as the transformer's output would be (the runtime itself never evaluates text).
  const validate = instantiateValidator(new Function("require", `return (${code})(require);`) as never, schema);
  const oracle = new Ajv2020({ strict: false });
  const full = { typed: "a", listed: "x", union: null, loose: "s", any: [1], tree: { kids: [{}] }, elsewhere: 0 };
  const values: unknown[] = [full, { ...full, extra: 1 }, { ...full, tree: { kids: [1] } }];
  for (const name of Object.keys(full)) {
    const { [name as keyof typeof full]: _dropped, ...rest } = full;
    values.push(rest, { ...rest, [name]: undefined });
  }
  for (const value of values)
    assert.is(validate(value), oracle.validate(schema, value), JSON.stringify(value) ?? String(value));
});

test("keywords the generator does not implement leave the schema to ajv (no validator emitted)", () => {
  const schema: JsonSchema = { type: "object", properties: { a: { type: "string" } }, dependentRequired: { a: ["b"] } };
  assert.is(generateValidator(schema, { linear: () => true }), undefined);
  const handWritten = new ToolRegistry([
    tool((a: unknown) => String(a), undefined, {
      v: 1,
      name: "h",
      description: "d",
      parameters: schema,
      params: ["a"],
    }),
  ]);
  return handWritten.invoke("h", { a: "x" }).then(
    () => assert.unreachable("b is required when a is present"),
    (error: unknown) => assert.match(String(error), /missing property "b", required when "a" is present/),
  );
});

test("the code is ES5: no let, const, arrow functions, classes or template literals", () => {
  for (const name of ["search_catalog", "mixed"]) {
    const code = String(registry.get(name)!.meta.validator);
    assert.not.match(code, /\b(let|const|class)\s|=>|`/);
  }
});

test.run();
