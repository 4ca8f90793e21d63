/**
 * Gemini function declarations: the OpenAPI subset (upper-case types, nullable, string bounds as int64 strings,
 * propertyOrdering, no $ref / additionalProperties / const), recursion unrolled to a bounded depth (optional
 * properties left out, arrays emptied, nullable values nulled where it stops) and the errors for what cannot be
 * written, each with the tool and the path. The output is typed with the SDK's own types.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { GeminiType, type GeminiSchema, ToolExportError, ToolRegistry, tool } from "tooltype";
import { createProviderRegistry } from "../support/provider-tools";

type FunctionDeclaration = import("@google/genai", { with: { "resolution-mode": "import" }}).FunctionDeclaration;
type Tool = import("@google/genai", { with: { "resolution-mode": "import" }}).Tool;

type Json = Record<string, unknown>;

function schemaTool(name: string, parameters: Json) {
  return tool(
    function handwritten(args: unknown) {
      return args;
    },
    undefined,
    { v: 1, name, description: `The ${name} tool.`, parameters: parameters as never, params: [], flatten: true },
  );
}

function declarationOf(
  parameters: Json,
  options?: { recursionDepth?: number; jsonSchema?: boolean },
): FunctionDeclaration {
  const tools: Tool[] = new ToolRegistry([schemaTool("t", parameters)]).toGeminiTools(options);
  return tools[0]!.functionDeclarations![0]!;
}

function exportError(fn: () => unknown): ToolExportError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ToolExportError) return error;
    throw error;
  }
  throw new Error("expected a ToolExportError");
}

test("compiled tools in the OpenAPI subset, typed with the SDK's Tool", () => {
  const tools: Tool[] = createProviderRegistry().toGeminiTools();
  assert.is(tools.length, 1);
  const [weather, search, explode] = tools[0]!.functionDeclarations!;
  assert.equal(weather, {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: {
      type: "OBJECT",
      properties: {
        city: { type: "STRING", description: 'City name, e.g. "Paris"' },
        unit: { type: "STRING", enum: ["celsius", "fahrenheit"], description: "Temperature unit", default: "celsius" },
      },
      required: ["city"],
      propertyOrdering: ["city", "unit"],
    },
  });
  assert.equal(search!.parameters!.properties!.limit, {
    type: "INTEGER",
    minimum: 1,
    maximum: 20,
    description: "Maximum number of results",
    default: 3,
  });
  assert.equal(search!.parameters!.properties!.filters, {
    type: "OBJECT",
    properties: {
      maxPrice: { type: "NUMBER", description: "Highest price, in euros" },
      inStock: { type: "BOOLEAN", description: "Only products in stock" },
    },
    required: ["inStock"],
    propertyOrdering: ["maxPrice", "inStock"],
    description: "Optional filters",
  });
  assert.is(explode!.name, "explode");
  const typeOfRoot: GeminiType | undefined = weather!.parameters!.type;
  assert.is(typeOfRoot, GeminiType.OBJECT);
});

test("nullable, const, numeric enums, bounds, formats and tuples in words where the subset has no keyword", () => {
  const parameters = declarationOf({
    type: "object",
    properties: {
      name: { type: ["string", "null"], minLength: 1, maxLength: 40, format: "email" },
      when: { type: "string", format: "date-time" },
      level: { type: "integer", enum: [1, 2, 3] },
      version: { type: "string", const: "v2" },
      on: { type: "boolean", const: true },
      ratio: { type: "number", exclusiveMinimum: 0, multipleOf: 0.5, deprecated: true },
      tags: { type: "array", items: { type: "string" }, minItems: 1, uniqueItems: true },
      pair: {
        type: "array",
        prefixItems: [{ type: "string" }, { type: ["number", "null"] }],
        minItems: 2,
        maxItems: 2,
      },
      choice: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }], description: "Either" },
    },
    required: ["name"],
    additionalProperties: false,
  }).parameters!;
  assert.equal(parameters.properties, {
    name: { type: "STRING", nullable: true, minLength: "1", maxLength: "40", description: "Format: email." },
    when: { type: "STRING", format: "date-time" },
    level: { type: "INTEGER", description: "One of: 1, 2, 3." },
    version: { type: "STRING", enum: ["v2"] },
    on: { type: "BOOLEAN", description: "Must be true." },
    ratio: { type: "NUMBER", description: "Greater than 0. A multiple of 0.5. Deprecated." },
    tags: { type: "ARRAY", minItems: "1", items: { type: "STRING" }, description: "Items must be unique." },
    pair: {
      type: "ARRAY",
      minItems: "2",
      maxItems: "2",
      items: { anyOf: [{ type: "STRING" }, { type: "NUMBER", nullable: true }] },
      description: "A list of exactly these 2 items in order: a string; a number or null.",
    },
    choice: { anyOf: [{ type: "STRING" }, { type: "NUMBER" }], nullable: true, description: "Either" },
  });
  const json = JSON.stringify(parameters);
  for (const keyword of ["$ref", "additionalProperties", "const", "prefixItems", "exclusiveMinimum", "uniqueItems"]) {
    assert.not.ok(json.includes(`"${keyword}"`), `no ${keyword} in ${json}`);
  }
});

const TREE = {
  type: "object",
  properties: { tree: { $ref: "#/$defs/Tree", description: "The root" } },
  required: ["tree"],
  additionalProperties: false,
  $defs: {
    Tree: {
      type: "object",
      properties: {
        value: { type: "number" },
        children: { type: "array", items: { $ref: "#/$defs/Tree" } },
        parent: { $ref: "#/$defs/Tree" },
        next: { anyOf: [{ $ref: "#/$defs/Tree" }, { type: "null" }] },
      },
      required: ["value", "children", "next"],
      additionalProperties: false,
    },
  },
};

test("recursion is unrolled to the depth asked; where it stops, arrays are empty, optional parts left out, nullables null", () => {
  const tree = declarationOf(TREE, { recursionDepth: 2 }).parameters!.properties!.tree!;
  assert.is(tree.description, "The root");
  const level2 = tree.properties!.children!.items!;
  assert.equal(level2.properties!.children, {
    type: "ARRAY",
    items: { type: "STRING" },
    maxItems: "0",
    description: "Always empty here: the nesting limit is reached.",
  });
  assert.equal(level2.properties!.next, {
    type: "NULL",
    description: "Always null here: the nesting limit is reached.",
  });
  assert.is(level2.properties!.parent, undefined);
  assert.is(level2.description, '"parent" cannot be given here: the nesting limit is reached.');
  assert.equal(level2.required, ["value", "children", "next"]);
  assert.equal(tree.properties!.next!.nullable, true);
  assert.not.ok(JSON.stringify(tree).includes("$ref"));

  const depth = (schema: GeminiSchema | undefined): number =>
    schema?.properties ? 1 + depth(schema.properties.children?.items) : 0;
  assert.is(depth(declarationOf(TREE).parameters!.properties!.tree), 3, "default depth 3");
  assert.is(depth(declarationOf(TREE, { recursionDepth: 5 }).parameters!.properties!.tree), 5);
});

test("a reference's own description comes first, then the definition's (with its notes)", () => {
  const parameters = declarationOf({
    type: "object",
    properties: { where: { $ref: "#/$defs/Place", description: "Where to go" } },
    required: ["where"],
    $defs: {
      Place: { type: "object", properties: { name: { type: "string" } }, required: ["name"], description: "A place" },
    },
  }).parameters!;
  assert.is(parameters.properties!.where!.description, "Where to go. A place");
});

test("a recursion required at every level, a Record, an untyped value: clear errors with the path", () => {
  const endless = exportError(() =>
    declarationOf({
      type: "object",
      properties: { list: { $ref: "#/$defs/Cell" } },
      required: ["list"],
      $defs: {
        Cell: {
          type: "object",
          properties: { head: { type: "number" }, tail: { $ref: "#/$defs/Cell" } },
          required: ["head", "tail"],
        },
      },
    }),
  );
  assert.is(
    endless.message,
    'Tool "t" cannot be written for Gemini: /properties/list/properties/tail/properties/tail/properties/tail holds the recursive type "Cell", which is required at every level, so no depth of unrolling ends it (Gemini schemas have no $ref); make the recursive property optional or nullable, or put it in an array. Or send the full JSON Schema with toGeminiTools({ jsonSchema: true }).',
  );
  assert.is(endless.format, "gemini");

  const record = exportError(() =>
    declarationOf({
      type: "object",
      properties: { headers: { type: "object", additionalProperties: { type: "string" } } },
    }),
  );
  assert.is(
    record.message,
    "Tool \"t\" cannot be written for Gemini: /properties/headers is a Record or index signature (an object with free-form keys); Gemini's schema subset needs an object's properties listed; use an interface with named properties. Or send the full JSON Schema with toGeminiTools({ jsonSchema: true }).",
  );
  assert.is(record.path, "/properties/headers");

  const any = exportError(() => declarationOf({ type: "object", properties: { data: {} } }));
  assert.match(
    any.message,
    /^Tool "t" cannot be written for Gemini: \/properties\/data accepts any value \(unknown or any\)/,
  );
});

test("jsonSchema: the full JSON Schema as parametersJsonSchema; no parameters: none sent", () => {
  const full = declarationOf(TREE, { jsonSchema: true });
  assert.equal(full.parametersJsonSchema, TREE);
  assert.is(full.parameters, undefined);
  const none = declarationOf({ type: "object", properties: {}, additionalProperties: false });
  assert.equal(none, { name: "t", description: "The t tool." });
});

test("names Gemini refuses are export errors", () => {
  const digit = tool(
    function x() {
      return 1;
    },
    { name: "1st" },
    { v: 1, name: "x", description: "", parameters: { type: "object", properties: {} }, params: [] },
  );
  assert.throws(
    () => new ToolRegistry([digit]).toGeminiTools(),
    /Tool "1st" cannot be written for Gemini: a function name must start with a letter or an underscore/,
  );
  const dollar = schemaTool("d", { type: "object", properties: { $price: { type: "number" } } });
  assert.throws(
    () => new ToolRegistry([dollar]).toGeminiTools(),
    /the parameter name "\$price" must start with a letter or an underscore/,
  );
});

test.run();
