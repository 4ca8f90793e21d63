/**
 * Anthropic strict tool use (`strict: true`) and eager input streaming on the export: the rewrite of compiled
 * schemas into Anthropic's strict subset (closed objects, optional properties kept optional, unsupported keywords
 * into the description), the errors for what the subset cannot express (each naming the tool and the place), the
 * request-wide limits, per-tool vs per-export options; and the request the official SDK sends with them (the
 * definitions reach the wire as written). The SDK's own helper (`transformJSONSchema`) is a second opinion: it
 * leaves our strict schemas' structure as it is.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import { ToolExportError, ToolRegistry, tool } from "tooltype";
import { anthropicReply } from "../support/provider-replies";
import { createProviderRegistry } from "../support/provider-tools";
import { startScriptedHttp } from "../support/scripted-http";

type Schema = Record<string, unknown>;

/** A registered tool with a hand-written schema (as the transformer would emit it). */
function schemaTool(
  name: string,
  parameters: Schema,
  options: { strict?: boolean; eagerInputStreaming?: boolean } = {},
) {
  return tool(
    function handwritten(args: unknown) {
      return args;
    },
    options,
    { v: 1, name, description: `The ${name} tool.`, parameters: parameters as never, params: [], flatten: true },
  );
}

function strictOf(parameters: Schema, name = "t"): Schema {
  const [entry] = new ToolRegistry([schemaTool(name, parameters)]).toAnthropicTools({ strict: true });
  return entry!.input_schema as Schema;
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

test("compiled tools: closed objects, optional properties stay optional, bounds and defaults as Anthropic takes them", () => {
  const [weather, search] = createProviderRegistry().toAnthropicTools({ strict: true });
  assert.is(weather!.strict, true);
  assert.equal(weather!.input_schema, {
    type: "object",
    properties: {
      city: { type: "string", description: 'City name, e.g. "Paris"' },
      unit: { type: "string", enum: ["celsius", "fahrenheit"], description: "Temperature unit", default: "celsius" },
    },
    required: ["city"],
    additionalProperties: false,
  });
  const limit = (search!.input_schema.properties as Record<string, Schema>).limit!;
  assert.equal(limit, {
    type: "integer",
    description: "Maximum number of results. Minimum: 1. Maximum: 20.",
    default: 3,
  });
  const filters = (search!.input_schema.properties as Record<string, Schema>).filters!;
  assert.is(filters.additionalProperties, false);
  assert.equal(search!.input_schema.required, ["keyword"]);
  // The SDK's helper keeps what we wrote (it would only move keywords we already moved, and close open objects).
  for (const entry of [weather!, search!]) {
    const again = transformJSONSchema(entry.input_schema as Schema) as Schema;
    assert.equal(Object.keys(again.properties as Schema), Object.keys(entry.input_schema.properties as Schema));
    assert.equal(again.required, entry.input_schema.required);
  }
});

test("keywords outside the subset become sentences; supported ones (formats, patterns, minItems 0/1) stay", () => {
  const schema = strictOf({
    type: "object",
    properties: {
      when: { type: "string", format: "date-time" },
      site: { type: "string", format: "uri" },
      code: { type: "string", format: "iso-4217", minLength: 3, maxLength: 3 },
      zip: { type: "string", pattern: "^[0-9]{5}$" },
      word: { type: "string", pattern: "\\bword\\b" },
      tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5, uniqueItems: true },
      pair: { type: "array", items: { type: "number", exclusiveMinimum: 0, multipleOf: 0.5 }, minItems: 2 },
    },
    required: ["when"],
  });
  assert.equal(schema.properties, {
    when: { type: "string", format: "date-time" },
    site: { type: "string", format: "uri" },
    code: { type: "string", description: "Format: iso-4217. At least 3 characters. At most 3 characters." },
    zip: { type: "string", pattern: "^[0-9]{5}$" },
    word: { type: "string", description: "Pattern: /\\bword\\b/." },
    tags: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: "At most 5 items. Items must be unique.",
    },
    pair: {
      type: "array",
      items: { type: "number", description: "Greater than 0. A multiple of 0.5." },
      description: "At least 2 items.",
    },
  });
  assert.equal(schema.required, ["when"]);
});

test("oneOf becomes anyOf, references and definitions stay, nested objects are closed", () => {
  const schema = strictOf({
    type: "object",
    properties: {
      shape: { oneOf: [{ $ref: "#/$defs/Circle" }, { type: "object", properties: { side: { type: "number" } } }] },
    },
    required: ["shape"],
    $defs: { Circle: { type: "object", properties: { r: { type: "number" } }, required: ["r"] } },
  });
  assert.equal(schema, {
    type: "object",
    properties: {
      shape: {
        anyOf: [
          { $ref: "#/$defs/Circle" },
          { type: "object", properties: { side: { type: "number" } }, additionalProperties: false },
        ],
      },
    },
    required: ["shape"],
    $defs: {
      Circle: { type: "object", properties: { r: { type: "number" } }, required: ["r"], additionalProperties: false },
    },
    additionalProperties: false,
  });
});

test("what the subset cannot express is an error naming the tool and the path", () => {
  const suffix = " Or export this tool without strict (@tool({ strict: false }) / tool(fn, { strict: false })).";
  const cases: [Schema, string, string][] = [
    [
      {
        type: "object",
        properties: { node: { $ref: "#/$defs/Node" } },
        $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } },
      },
      "/$defs/Node",
      "/$defs/Node is recursive (it contains itself); strict tool use takes no recursive schemas.",
    ],
    [
      { type: "object", properties: { meta: { type: "object", additionalProperties: { type: "string" } } } },
      "/properties/meta",
      "/properties/meta is a Record or index signature (an object with free-form keys); strict tool use needs every object to list its properties; use an interface with named properties.",
    ],
    [
      { type: "object", properties: { pair: { type: "array", prefixItems: [{ type: "string" }] } } },
      "/properties/pair",
      "/properties/pair is a tuple; strict tool use has no tuples; use an array of one item type or an object with named properties.",
    ],
    [
      { type: "object", properties: { anything: {} } },
      "/properties/anything",
      "/properties/anything accepts any value (unknown or any); strict tool use needs a type at every level; give it a concrete type.",
    ],
    [
      { type: "object", properties: { pick: { enum: [{ a: 1 }, "b"] } } },
      "/properties/pick",
      '/properties/pick has objects or arrays in "enum"; strict tool use takes plain values there only.',
    ],
    [
      { type: "object", properties: { x: { type: "string", not: { const: "" } } } },
      "/properties/x",
      '/properties/x uses "not"; strict tool use does not support it.',
    ],
    [
      { type: "object", properties: { x: { allOf: [{ $ref: "#/$defs/A" }] } }, $defs: { A: { type: "string" } } },
      "/properties/x/allOf/0",
      "/properties/x/allOf/0 is a reference inside allOf; strict tool use does not support it.",
    ],
    [
      { anyOf: [{ type: "object", properties: {} }] },
      "",
      "(root) is not one object; a tool's input must be an object with named properties.",
    ],
  ];
  for (const [parameters, path, problem] of cases) {
    const error = exportError(() => strictOf(parameters, "bad"));
    assert.is(error.message, `Tool "bad" cannot use Anthropic strict tool use: ${problem}${suffix}`);
    assert.is(error.toolName, "bad");
    assert.is(error.path, path);
    assert.is(error.format, "anthropic-strict");
  }
});

test("strict and eager input streaming per tool or per export; the tool's own option wins", () => {
  const open = { type: "object", properties: { m: { type: "object", additionalProperties: { type: "string" } } } };
  const loose = schemaTool("loose", open, { strict: false, eagerInputStreaming: false });
  const exact = schemaTool("exact", { type: "object", properties: { a: { type: "string" } } }, { strict: true });
  const plain = schemaTool("plain", { type: "object", properties: { a: { type: "string" } } });
  const registry = new ToolRegistry([loose, exact, plain]);

  const byDefault = registry.toAnthropicTools();
  assert.equal(
    byDefault.map((t) => [t.strict, t.eager_input_streaming]),
    [
      [undefined, false],
      [true, undefined],
      [undefined, undefined],
    ],
  );
  assert.equal(byDefault[0]!.input_schema, open);
  assert.equal(byDefault[1]!.input_schema, {
    type: "object",
    properties: { a: { type: "string" } },
    additionalProperties: false,
  });
  assert.equal(byDefault[2]!.input_schema, { type: "object", properties: { a: { type: "string" } } });

  const all = registry.toAnthropicTools({ strict: true, eagerInputStreaming: true });
  assert.equal(
    all.map((t) => [t.strict, t.eager_input_streaming]),
    [
      [undefined, false],
      [true, true],
      [true, true],
    ],
  );
  assert.equal(all[0]!.input_schema, open);
});

test("Anthropic's request limits on strict tools: 20 tools, 24 optional and 16 union-typed properties", () => {
  const many = (count: number, parameters: Schema) =>
    new ToolRegistry(Array.from({ length: count }, (_, i) => schemaTool(`t${i}`, parameters)));
  const one = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
  assert.is(many(20, one).toAnthropicTools({ strict: true }).length, 20);
  assert.match(
    exportError(() => many(21, one).toAnthropicTools({ strict: true })).message,
    "Anthropic strict tool use allows at most 20 strict tools in one request; this export has 21.",
  );
  // Not strict: no limit; checkLimits: false: sent as they are.
  assert.is(many(21, one).toAnthropicTools().length, 21);
  assert.is(many(21, one).toAnthropicTools({ strict: true, checkLimits: false }).length, 21);

  const optional = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } };
  assert.is(many(12, optional).toAnthropicTools({ strict: true }).length, 12);
  assert.match(
    exportError(() => many(13, optional).toAnthropicTools({ strict: true })).message,
    "at most 24 optional properties across its strict tools in one request; these have 26",
  );
  const unions = {
    type: "object",
    properties: { a: { type: ["string", "null"] }, b: { anyOf: [{ type: "string" }, { type: "number" }] } },
    required: ["a", "b"],
  };
  assert.match(
    exportError(() => many(9, unions).toAnthropicTools({ strict: true })).message,
    "at most 16 properties of a union type (anyOf, a list of types) across its strict tools in one request; these have 18",
  );
});

test("through the SDK: strict and eager_input_streaming reach the wire, and the call runs", async () => {
  const server = await startScriptedHttp([
    () => anthropicReply("msg_1", [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }]),
  ]);
  try {
    const client = new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const registry = createProviderRegistry();
    const tools = registry.toAnthropicTools({ strict: true, eagerInputStreaming: true });
    const message = await client.messages.create({
      model: "claude-scripted",
      max_tokens: 256,
      messages: [{ role: "user", content: "Weather in Oslo?" }],
      tools,
    });
    const sent = (server.requests[0]!.body as { tools: Schema[] }).tools;
    assert.equal(sent, JSON.parse(JSON.stringify(tools)));
    assert.equal(
      sent.map((t) => [t.name, t.strict, t.eager_input_streaming]),
      registry.list().map((t) => [t.name, true, true]),
    );
    const answered = (await registry.dispatch(message as never)) as unknown as {
      content: { type: string; is_error?: boolean }[];
    };
    const [answer] = answered.content;
    assert.is(answer!.type, "tool_result");
    assert.is(answer!.is_error, undefined);
  } finally {
    await server.close();
  }
});

test.run();
