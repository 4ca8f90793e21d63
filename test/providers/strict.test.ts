/**
 * OpenAI strict mode: the rewrite of compiled schemas (all required, optional → nullable, closed objects,
 * unsupported keywords into the description), the errors for what strict mode cannot express and for OpenAI's
 * limits (each naming the tool, the limit and the place), per-tool vs per-export strict, and dispatch's undo
 * (null for an optional parameter → the function's own default), at every level. OpenAI's own SDK helper
 * (`toStrictJsonSchema`) is used as a second opinion: it accepts every schema we call strict as it is.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { toStrictJsonSchema } from "openai/lib/transform";
import { OPENAI_LIMITS, type ToolContext, ToolExportError, ToolRegistry, tool } from "tooltype";
import { createProviderRegistry, searchProducts } from "../support/provider-tools";
import { assertAccepts } from "../support/schema";

type Schema = Record<string, unknown>;

/** A registered tool with a hand-written schema (as the transformer would emit it). */
function schemaTool(name: string, parameters: Schema, options: { strict?: boolean } = {}) {
  return tool(
    function handwritten(args: unknown) {
      return args;
    },
    options,
    { v: 1, name, description: `The ${name} tool.`, parameters: parameters as never, params: [], flatten: true },
  );
}

function strictOf(parameters: Schema, name = "t"): Schema {
  const [entry] = new ToolRegistry([schemaTool(name, parameters)]).toOpenAITools({ strict: true });
  return entry!.function.parameters as Schema;
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

test("compiled tools: every property required, optional ones nullable, defaults into the description", () => {
  const [weather, search] = createProviderRegistry().toOpenAITools({ strict: true });
  assert.equal(weather!.function.strict, true);
  assert.equal(weather!.function.parameters, {
    type: "object",
    properties: {
      city: { type: "string", description: 'City name, e.g. "Paris"' },
      unit: {
        type: ["string", "null"],
        enum: ["celsius", "fahrenheit", null],
        description: 'Temperature unit. Default: "celsius".',
      },
    },
    required: ["city", "unit"],
    additionalProperties: false,
  });
  assert.equal(search!.function.parameters, {
    type: "object",
    properties: {
      keyword: { type: "string", description: "Search keyword" },
      limit: {
        type: ["integer", "null"],
        minimum: 1,
        maximum: 20,
        description: "Maximum number of results. Default: 3.",
      },
      filters: {
        anyOf: [
          {
            type: "object",
            properties: {
              maxPrice: { type: ["number", "null"], description: "Highest price, in euros" },
              inStock: { type: "boolean", description: "Only products in stock" },
            },
            required: ["maxPrice", "inStock"],
            additionalProperties: false,
          },
          { type: "null" },
        ],
        description: "Optional filters",
      },
    },
    required: ["keyword", "limit", "filters"],
    additionalProperties: false,
  });
  for (const entry of createProviderRegistry().toOpenAITools({ strict: true })) {
    const parameters = entry.function.parameters as Schema;
    assert.not.throws(() => toStrictJsonSchema(parameters as never), `OpenAI's helper accepts ${entry.function.name}`);
    assertAccepts(parameters, [], []);
  }
});

test("the strict schema accepts what the model sends for left-out parameters: null", () => {
  const [, search] = createProviderRegistry().toOpenAITools({ strict: true });
  assertAccepts(
    search!.function.parameters as Schema,
    [
      { keyword: "tent", limit: null, filters: null },
      { keyword: "tent", limit: 5, filters: { maxPrice: null, inStock: true } },
    ],
    [
      { keyword: "tent" },
      { keyword: "tent", limit: null, filters: { inStock: true } },
      { keyword: "tent", limit: null, filters: null, x: 1 },
    ],
  );
});

test("keywords strict mode does not take become sentences; supported ones stay", () => {
  const schema = strictOf({
    type: "object",
    properties: {
      code: { type: "string", minLength: 2, maxLength: 8, pattern: "^[A-Z]+$", description: "Code" },
      site: { type: "string", format: "uri" },
      when: { type: "string", format: "date-time" },
      tags: { type: "array", items: { type: "string" }, uniqueItems: true, minItems: 1, examples: [["a"]] },
      old: { type: "number", deprecated: true, exclusiveMinimum: 0, multipleOf: 0.5 },
      yes: { type: "boolean", const: true },
      ref: { $ref: "#/$defs/Point" },
    },
    required: ["code", "site", "when", "tags", "old", "yes", "ref"],
    additionalProperties: false,
    $defs: {
      Point: { type: "object", properties: { x: { type: "number", default: 0 } }, additionalProperties: false },
    },
  });
  assert.equal(schema.properties, {
    code: { type: "string", pattern: "^[A-Z]+$", description: "Code. At least 2 characters. At most 8 characters." },
    site: { type: "string", description: "Format: uri." },
    when: { type: "string", format: "date-time" },
    tags: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: 'Items must be unique. Example: ["a"].',
    },
    old: { type: "number", exclusiveMinimum: 0, multipleOf: 0.5, description: "Deprecated." },
    yes: { type: "boolean", const: true },
    ref: { $ref: "#/$defs/Point" },
  });
  assert.equal(schema.$defs, {
    Point: {
      type: "object",
      properties: { x: { type: ["number", "null"], description: "Default: 0." } },
      required: ["x"],
      additionalProperties: false,
    },
  });
  assert.not.throws(() => toStrictJsonSchema(schema as never));
});

test("optional references, unions and constants are made nullable around them", () => {
  const schema = strictOf({
    type: "object",
    properties: {
      next: { $ref: "#/$defs/Node", description: "Next node" },
      either: { anyOf: [{ type: "string" }, { type: "number" }] },
      fixed: { type: "string", const: "v1" },
      maybe: { type: ["string", "null"] },
    },
    additionalProperties: false,
    $defs: {
      Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } }, additionalProperties: false },
    },
  });
  assert.equal(schema.properties, {
    next: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }], description: "Next node" },
    either: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
    fixed: { type: ["string", "null"], enum: ["v1", null] },
    maybe: { type: ["string", "null"] },
  });
  assert.equal((schema.$defs as Schema).Node, {
    type: "object",
    properties: { next: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] } },
    required: ["next"],
    additionalProperties: false,
  });
  assert.not.throws(() => toStrictJsonSchema(schema as never));
});

test("what strict mode cannot express is an error naming the tool and the path", () => {
  const cases: [Schema, string, string][] = [
    [
      {
        type: "object",
        properties: {
          pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 2, maxItems: 2 },
        },
      },
      "/properties/pair",
      'Tool "bad" cannot use OpenAI strict mode: /properties/pair is a tuple; strict mode has no tuples; use an array of one item type or an object with named properties. Or export this tool without strict mode (@tool({ strict: false }) / tool(fn, { strict: false })).',
    ],
    [
      { type: "object", properties: { meta: { type: "object", additionalProperties: { type: "string" } } } },
      "/properties/meta",
      'Tool "bad" cannot use OpenAI strict mode: /properties/meta is a Record or index signature (an object with free-form keys); strict mode needs every object to list its properties; use an interface with named properties. Or export this tool without strict mode (@tool({ strict: false }) / tool(fn, { strict: false })).',
    ],
    [
      { type: "object", properties: { anything: { description: "Whatever" } } },
      "/properties/anything",
      'Tool "bad" cannot use OpenAI strict mode: /properties/anything accepts any value (unknown or any); strict mode needs a type at every level; give it a concrete type. Or export this tool without strict mode (@tool({ strict: false }) / tool(fn, { strict: false })).',
    ],
    [
      {
        anyOf: [
          { type: "object", properties: {} },
          { type: "object", properties: {} },
        ],
      },
      "",
      'Tool "bad" cannot use OpenAI strict mode: (root) is a union (anyOf); strict mode needs the root to be one object. Or export this tool without strict mode (@tool({ strict: false }) / tool(fn, { strict: false })).',
    ],
    [
      {
        type: "object",
        properties: {},
        $defs: { A: { type: "object", properties: { x: { allOf: [{ type: "string" }] } } } },
      },
      "/$defs/A/properties/x",
      'Tool "bad" cannot use OpenAI strict mode: /$defs/A/properties/x uses "allOf"; strict mode does not support it. Or export this tool without strict mode (@tool({ strict: false }) / tool(fn, { strict: false })).',
    ],
  ];
  for (const [parameters, path, message] of cases) {
    const error = exportError(() => strictOf(parameters, "bad"));
    assert.is(error.message, message);
    assert.is(error.toolName, "bad");
    assert.is(error.path, path);
    assert.is(error.format, "openai-strict");
  }
});

test("strict per tool or per export; the tool's own option wins; without strict nothing is rewritten", () => {
  const loose = schemaTool(
    "loose",
    { type: "object", properties: { m: { type: "object", additionalProperties: { type: "string" } } } },
    { strict: false },
  );
  const exact = schemaTool("exact", { type: "object", properties: { a: { type: "string" } } }, { strict: true });
  const plain = schemaTool("plain", { type: "object", properties: { a: { type: "string" } } });
  const registry = new ToolRegistry([loose, exact, plain]);

  const byDefault = registry.toOpenAITools();
  assert.equal(
    byDefault.map((t) => t.function.strict),
    [false, true, undefined],
  );
  assert.equal(byDefault[2]!.function.parameters, { type: "object", properties: { a: { type: "string" } } });
  assert.equal(byDefault[1]!.function.parameters, {
    type: "object",
    properties: { a: { type: ["string", "null"] } },
    required: ["a"],
    additionalProperties: false,
  });

  const all = registry.toOpenAITools({ strict: true });
  assert.equal(
    all.map((t) => t.function.strict),
    [false, true, true],
  );
  assert.equal(all[0]!.function.parameters, registry.get("loose")!.parameters);
});

test("OpenAI's limits: nesting depth, properties, enum values and sizes, string length, tool count", () => {
  let deep: Schema = { type: "string" };
  for (let i = 0; i < 10; i++)
    deep = {
      type: "object",
      properties: { [`level${10 - i}`]: deep },
      required: [`level${10 - i}`],
      additionalProperties: false,
    };
  const depthError = exportError(() =>
    strictOf({ type: "object", properties: { root: deep }, required: ["root"], additionalProperties: false }, "deep"),
  );
  assert.is(
    depthError.message,
    'Tool "deep" exceeds an OpenAI strict-mode limit: objects may nest at most 10 levels deep; /properties/root/properties/level1/properties/level2/properties/level3/properties/level4/properties/level5/properties/level6/properties/level7/properties/level8/properties/level9 is at level 11.',
  );
  assert.is(
    depthError.path,
    "/properties/root/properties/level1/properties/level2/properties/level3/properties/level4/properties/level5/properties/level6/properties/level7/properties/level8/properties/level9",
  );
  // Ten levels are fine.
  assert.not.throws(() =>
    strictOf({
      type: "object",
      properties: deep.properties as Schema,
      required: ["level1"],
      additionalProperties: false,
    }),
  );

  const wide: Schema = {};
  for (let i = 0; i <= OPENAI_LIMITS.properties; i++) wide[`p${i}`] = { type: "string" };
  assert.is(
    exportError(() => strictOf({ type: "object", properties: wide }, "wide")).message,
    'Tool "wide" exceeds an OpenAI strict-mode limit: at most 5,000 object properties in total; this schema has 5,001.',
  );

  const values = Array.from({ length: 600 }, (_, i) => `value_${i}`);
  assert.is(
    exportError(() =>
      strictOf(
        { type: "object", properties: { a: { type: "string", enum: values }, b: { type: "string", enum: values } } },
        "enums",
      ),
    ).message,
    'Tool "enums" exceeds an OpenAI strict-mode limit: at most 1,000 enum values in total; this schema has 1,200.',
  );

  const long = Array.from({ length: 300 }, (_, i) => `${"x".repeat(60)}${i}`);
  const bigEnum = exportError(() =>
    strictOf({ type: "object", properties: { choice: { type: "string", enum: long } } }, "big"),
  );
  assert.is(
    bigEnum.message,
    'Tool "big" exceeds an OpenAI strict-mode limit: a string enum of more than 250 values may total at most 15,000 characters; /properties/choice/enum has 300 values totalling 18,790 characters.',
  );
  assert.is(bigEnum.path, "/properties/choice/enum");

  const names: Schema = {};
  for (let i = 0; i < 100; i++) names[`${"n".repeat(1300)}${i}`] = { type: "string" };
  assert.match(
    exportError(() => strictOf({ type: "object", properties: names }, "names")).message,
    /^Tool "names" exceeds an OpenAI strict-mode limit: at most 120,000 characters in total across property names, definition names, enum and const values; this schema has 130,190\.$/,
  );

  const many = Array.from({ length: 129 }, (_, i) => schemaTool(`tool_${i}`, { type: "object", properties: {} }));
  const countError = exportError(() => new ToolRegistry(many).toOpenAITools());
  assert.is(
    countError.message,
    "OpenAI accepts at most 128 tools in one request; this registry exports 129. Register fewer tools in the registry you export (OpenAI advises fewer than about 20 per turn).",
  );
  assert.is(countError.toolName, undefined);
  assert.throws(() => new ToolRegistry(many).toResponsesTools(), /at most 128 tools/);
  assert.throws(() => new ToolRegistry(many).toOpenAIFunctions(), /at most 128 tools/);
});

test("recursion is allowed in strict mode and counted once for depth", () => {
  const schema = strictOf({
    type: "object",
    properties: { tree: { $ref: "#/$defs/Tree" } },
    required: ["tree"],
    additionalProperties: false,
    $defs: {
      Tree: {
        type: "object",
        properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/Tree" } } },
        required: ["value", "children"],
        additionalProperties: false,
      },
    },
  });
  assert.equal(schema.required, ["tree"]);
  assertAccepts(schema, [{ tree: { value: 1, children: [{ value: 2, children: [] }] } }], [{ tree: { value: 1 } }]);
});

test("dispatch: null for an optional parameter becomes undefined, so the function's defaults apply (all levels)", async () => {
  const registry = createProviderRegistry();
  const [weather, search] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris","unit":null}' } },
      {
        id: "b",
        type: "function",
        function: {
          name: "search_products",
          arguments: '{"keyword":"tent","limit":null,"filters":{"maxPrice":null,"inStock":true}}',
        },
      },
    ],
  });
  assert.equal(JSON.parse(weather!.content), { city: "Paris", temperature: 21, unit: "celsius" });
  assert.equal(JSON.parse(search!.content), {
    keyword: "tent",
    limit: 3,
    filters: { inStock: true },
    maxPriceGiven: false,
  });

  // A null where the parameter is required is still an error.
  const [required] = await registry.dispatch({ tool_calls: [{ id: "c", name: "get_weather", args: { city: null } }] });
  assert.is(required!.status, "error");
  assert.match(required!.content, /\/city: must be a string; got null/);
});

test("dispatch keeps nulls the original schema accepts, follows references and unions, and recurses into arrays", async () => {
  const seen: unknown[] = [];
  const nodeTool = tool(
    function walk(args: unknown, _context?: ToolContext) {
      seen.push(args);
      return "ok";
    },
    undefined,
    {
      v: 1,
      name: "walk",
      description: "",
      flatten: true,
      params: ["node", "note", "list", "either"],
      parameters: {
        type: "object",
        properties: {
          node: { $ref: "#/$defs/Node" },
          note: { type: ["string", "null"] },
          list: { type: "array", items: { $ref: "#/$defs/Node" } },
          either: {
            anyOf: [
              { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
              {
                type: "object",
                properties: { a: { type: ["string", "null"] }, b: { type: "number" } },
                required: ["b"],
                additionalProperties: false,
              },
            ],
          },
        },
        additionalProperties: false,
        $defs: {
          Node: {
            type: "object",
            properties: { label: { type: "string" }, next: { $ref: "#/$defs/Node" } },
            required: ["label"],
            additionalProperties: false,
          },
        },
      },
    },
  );
  const registry = new ToolRegistry([nodeTool]);
  const [answer] = await registry.dispatch({
    tool_calls: [
      {
        id: "w",
        name: "walk",
        args: {
          node: { label: "a", next: { label: "b", next: null } },
          note: null,
          list: [{ label: "c", next: null }],
          either: { a: null, b: 1 },
        },
      },
    ],
  });
  assert.is(answer!.status, "success", answer!.content);
  assert.equal(seen[0], {
    node: { label: "a", next: { label: "b" } },
    note: null,
    list: [{ label: "c" }],
    either: { a: null, b: 1 },
  });
});

test("registered tools keep their original schema; the strict form is computed per export and cached", () => {
  const registry = new ToolRegistry([searchProducts]);
  const first = registry.toOpenAITools({ strict: true })[0]!.function.parameters;
  const second = registry.toOpenAITools({ strict: true })[0]!.function.parameters;
  assert.is(first, second);
  assert.equal((registry.get("search_products")!.parameters as Schema).required, ["keyword"]);
});

test.run();
