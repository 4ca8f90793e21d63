/**
 * A corpus of realistic malformed tool calls, as models send them, each with its expected outcome: every repair
 * and coercion rule of the README's "Untrusted model output" section, and the near misses that must stay errors
 * (because fixing them would mean guessing). The tools echo the arguments object they receive, so a success case
 * states exactly what the function got; an error case states what the model reads back.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type CompiledToolMeta, type JsonSchema, type RepairKind, type ToolEvent, ToolRegistry, tool } from "tooltype";

/** A tool that takes the whole arguments object (flatten) and returns it, for the schema given. */
function echo(name: string, parameters: JsonSchema) {
  const properties = (parameters.properties ?? {}) as Record<string, unknown>;
  const meta: CompiledToolMeta = {
    v: 1,
    name,
    description: "",
    parameters,
    params: Object.keys(properties),
    flatten: true,
  };
  return tool((args: unknown) => args, undefined, meta);
}

const search = echo("search", {
  type: "object",
  properties: {
    query: { type: "string" },
    limit: { type: "integer", minimum: 1, maximum: 50 },
    exact: { type: "boolean" },
    price: { type: "number" },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["query"],
  additionalProperties: false,
});

const order = echo("order", {
  type: "object",
  properties: {
    item: { $ref: "#/$defs/Item" },
    quantity: { type: "integer", minimum: 1 },
    options: { anyOf: [{ $ref: "#/$defs/Options" }, { type: "null" }] },
    coords: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2, maxItems: 2 },
    note: { type: ["string", "null"] },
  },
  required: ["item", "quantity"],
  additionalProperties: false,
  $defs: {
    Item: {
      type: "object",
      properties: { sku: { type: "string" }, size: { type: "string", enum: ["S", "M", "L"] } },
      required: ["sku", "size"],
      additionalProperties: false,
    },
    Options: {
      type: "object",
      properties: { gift: { type: "boolean" }, rush: { type: "boolean" } },
      required: ["gift"],
      additionalProperties: false,
    },
  },
});

const ping = echo("ping", { type: "object", properties: {}, additionalProperties: false });

const scores = echo("scores", {
  type: "object",
  properties: { by: { type: "object", additionalProperties: { type: "number" } } },
  required: ["by"],
  additionalProperties: false,
});

const pick = echo("pick", {
  type: "object",
  properties: { value: { anyOf: [{ type: "integer" }, { type: "array", items: { type: "integer" } }] } },
  required: ["value"],
  additionalProperties: false,
});

const postal = echo("postal", {
  type: "object",
  properties: { code: { type: "string" }, ids: { type: "array", items: { type: "integer" }, minItems: 1 } },
  required: ["code"],
  additionalProperties: false,
});

const registry = new ToolRegistry([search, order, ping, scores, pick, postal]);

type Expect =
  /** The call runs; the tool receives `args`; what was repaired and coerced (as "path rule"). */
  | { args: Record<string, unknown>; repairs?: RepairKind[]; coercions?: string[] }
  /** The call is answered with an error whose content contains each of these lines. */
  | { error: string[] };

interface Case {
  title: string;
  tool: string;
  /** The `arguments` text exactly as the model sent it. */
  text: string;
  expect: Expect;
}

const invalidJson = (detail: string) => [
  `Error: invalid JSON in the arguments for search: ${detail}`,
  "Call search again with the arguments as one JSON object.",
];

const corpus: Case[] = [
  // ── Repairs: the slips whose intent is unambiguous ─────────────────────────────────────────────────────────
  {
    title: "trailing comma in an object",
    tool: "search",
    text: '{"query": "desk lamp", "limit": 5,}',
    expect: { args: { query: "desk lamp", limit: 5 }, repairs: ["trailing_comma"] },
  },
  {
    title: "trailing comma in an array",
    tool: "search",
    text: '{"query": "lamp", "tags": ["led", "usb",]}',
    expect: { args: { query: "lamp", tags: ["led", "usb"] }, repairs: ["trailing_comma"] },
  },
  {
    title: "single-quoted keys and strings",
    tool: "search",
    text: "{'query': 'desk lamp', 'limit': 3}",
    expect: { args: { query: "desk lamp", limit: 3 }, repairs: ["single_quotes"] },
  },
  {
    title: "single quotes with an escaped quote and a double quote inside",
    tool: "search",
    text: "{'query': 'it\\'s a \"smart\" lamp'}",
    expect: { args: { query: 'it\'s a "smart" lamp' }, repairs: ["single_quotes"] },
  },
  {
    title: "unquoted keys",
    tool: "search",
    text: '{query: "lamp", limit: 2, exact: true}',
    expect: { args: { query: "lamp", limit: 2, exact: true }, repairs: ["unquoted_key"] },
  },
  {
    title: "line and block comments",
    tool: "search",
    text: '{\n  // what to look for\n  "query": "lamp", /* at most */ "limit": 4\n}',
    expect: { args: { query: "lamp", limit: 4 }, repairs: ["comment"] },
  },
  {
    title: "markdown fence with a language tag",
    tool: "search",
    text: '```json\n{"query": "lamp"}\n```',
    expect: { args: { query: "lamp" }, repairs: ["code_fence"] },
  },
  {
    title: "markdown fence without a tag, with blank lines around",
    tool: "search",
    text: '\n```\n{"query": "lamp"}\n```\n',
    expect: { args: { query: "lamp" }, repairs: ["code_fence"] },
  },
  {
    title: "several slips at once inside a fence",
    tool: "search",
    text: "```json\n{query: 'lamp', tags: ['a',], // done\n}\n```",
    expect: {
      args: { query: "lamp", tags: ["a"] },
      repairs: ["code_fence", "comment", "single_quotes", "trailing_comma", "unquoted_key"],
    },
  },
  {
    title: "Python constants outside strings (True, False, None)",
    tool: "order",
    text: '{"item": {"sku": "True", "size": "S"}, "quantity": 1, "options": {"gift": True, "rush": False}, "note": None}',
    expect: {
      args: { item: { sku: "True", size: "S" }, quantity: 1, options: { gift: true, rush: false }, note: null },
      repairs: ["python_literal"],
    },
  },
  {
    title: "a Python dict: single quotes and constants",
    tool: "search",
    text: "{'query': 'None of these', 'exact': True}",
    expect: { args: { query: "None of these", exact: true }, repairs: ["python_literal", "single_quotes"] },
  },
  { title: "empty text for a tool without parameters", tool: "ping", text: "", expect: { args: {} } },
  { title: "blank text for a tool without parameters", tool: "ping", text: " \n ", expect: { args: {} } },
  {
    title: "strict JSON needs no repair",
    tool: "search",
    text: '{"query":"lamp"}',
    expect: { args: { query: "lamp" }, repairs: [], coercions: [] },
  },

  // ── Not repaired: fixing these means guessing ──────────────────────────────────────────────────────────────
  {
    title: "text cut short (missing closing brace)",
    tool: "search",
    text: '{"query": "lamp"',
    expect: { error: invalidJson("Expected ',' or '}' after property value in JSON at position 16") },
  },
  {
    title: "text cut short inside a string",
    tool: "search",
    text: '{"query": "desk la',
    expect: { error: invalidJson("Unterminated string in JSON at position 18") },
  },
  {
    title: "text cut short, with a repairable slip before the cut",
    tool: "search",
    text: "{query: 'lamp', limit: 5",
    expect: { error: invalidJson("Unexpected end of the arguments (the JSON is incomplete) at line 1 column 25") },
  },
  {
    title: "unquoted string value",
    tool: "search",
    text: '{"query": lamp}',
    expect: { error: invalidJson(`Unexpected token 'l', "{"query": lamp}" is not valid JSON`) },
  },
  {
    title: "unquoted value next to an unquoted key",
    tool: "search",
    text: "{query: lamp}",
    expect: {
      error: invalidJson("Unexpected unquoted text lamp at position 8 (text values must be in double quotes)"),
    },
  },
  {
    title: "other Python words stay errors",
    tool: "search",
    text: '{"query": "lamp", "exact": Yes}',
    expect: { error: ["Error: invalid JSON in the arguments for search: Unexpected token 'Y'"] },
  },
  {
    title: "missing comma between properties",
    tool: "search",
    text: '{"query": "lamp" "limit": 2}',
    expect: { error: ["Error: invalid JSON in the arguments for search: Expected ',' or '}' after property value"] },
  },
  {
    title: "prose before the JSON",
    tool: "search",
    text: 'Sure! Here are the arguments: {"query": "lamp"}',
    expect: { error: ["Error: invalid JSON in the arguments for search: Unexpected token 'S'"] },
  },
  {
    title: "two JSON objects",
    tool: "search",
    text: '{"query": "lamp"}{"query": "desk"}',
    expect: {
      error: [
        "Error: invalid JSON in the arguments for search: Unexpected non-whitespace character after JSON at position 17",
      ],
    },
  },
  {
    title: "a JSONP-style wrapper",
    tool: "search",
    text: 'search({"query": "lamp"})',
    expect: { error: ["Error: invalid JSON in the arguments for search: Unexpected token 's'"] },
  },
  {
    title: "NaN",
    tool: "search",
    text: '{"query": "lamp", "price": NaN}',
    expect: { error: ["Error: invalid JSON in the arguments for search: Unexpected token 'N'"] },
  },
  {
    title: "string concatenation",
    tool: "search",
    text: '{"query": "desk" + " lamp"}',
    expect: { error: ["Error: invalid JSON in the arguments for search: Expected ',' or '}' after property value"] },
  },
  {
    title: "a raw line break inside a string",
    tool: "search",
    text: '{"query": "desk\nlamp"}',
    expect: { error: ["Error: invalid JSON in the arguments for search: Bad control character in string literal"] },
  },
  {
    title: "curly quotes",
    tool: "search",
    text: "{“query”: “lamp”}",
    expect: { error: ["Error: invalid JSON in the arguments for search: Expected property name or '}'"] },
  },
  {
    title: "a string with braces inside, and a trailing comma",
    tool: "search",
    text: '{"query": "x {y", "tags": ["{", "}"],}',
    expect: { args: { query: "x {y", tags: ["{", "}"] }, repairs: ["trailing_comma"] },
  },
  {
    title: "an unquoted NaN next to a slip",
    tool: "search",
    text: "{query: 'lamp', price: NaN}",
    expect: {
      error: invalidJson("Unexpected unquoted text NaN at position 23 (text values must be in double quotes)"),
    },
  },
  {
    title: "a hex number next to a slip",
    tool: "search",
    text: "{query: 'lamp', limit: 0x10}",
    expect: { error: invalidJson('Unexpected character "x" in a number at position 24') },
  },
  {
    title: "a leading decimal point next to a slip",
    tool: "search",
    text: "{query: 'lamp', price: .5}",
    expect: { error: invalidJson('Unexpected character "." at position 23') },
  },
  {
    title: "a comma with no value before it",
    tool: "search",
    text: "{query: 'lamp', , }",
    expect: { error: invalidJson("Unexpected character ',' at line 1 column 17") },
  },
  {
    title: "an extra closing brace",
    tool: "search",
    text: "{'query': 'lamp'}}",
    expect: { error: invalidJson("Unexpected character '}' at line 1 column 18") },
  },
  {
    title: "plain prose",
    tool: "search",
    text: "lamps under 50 dollars",
    expect: {
      error: [
        "Error: invalid JSON in the arguments for search: Unexpected token 'l'",
        "Arguments received: lamps under 50 dollars",
      ],
    },
  },
  {
    title: "an empty fence",
    tool: "search",
    text: "```json\n```",
    expect: { error: ["Error: invalid JSON in the arguments for search: Unexpected end of JSON input"] },
  },
  {
    title: "a JSON array instead of an object",
    tool: "search",
    text: '["lamp"]',
    expect: { error: ['Error: the arguments for search must be a JSON object, got an array: ["lamp"]'] },
  },
  {
    title: "empty text for a tool with a required parameter",
    tool: "search",
    text: "",
    expect: {
      error: [
        "Error: invalid arguments for search:",
        '- (root): missing required property "query"',
        "Call search again with corrected arguments.",
      ],
    },
  },

  // ── Coercions: the schema says what was meant ──────────────────────────────────────────────────────────────
  {
    title: "numeric string where an integer is expected",
    tool: "search",
    text: '{"query": "lamp", "limit": "5"}',
    expect: { args: { query: "lamp", limit: 5 }, coercions: ["/limit number"] },
  },
  {
    title: "integral numeric string with a fraction part",
    tool: "search",
    text: '{"query": "lamp", "limit": "5.0"}',
    expect: { args: { query: "lamp", limit: 5 }, coercions: ["/limit number"] },
  },
  {
    title: "numeric string with an exponent",
    tool: "search",
    text: '{"query": "lamp", "limit": "1e1"}',
    expect: { args: { query: "lamp", limit: 10 }, coercions: ["/limit number"] },
  },
  {
    title: "numeric string where a number is expected",
    tool: "search",
    text: '{"query": "lamp", "price": "-19.99"}',
    expect: { args: { query: "lamp", price: -19.99 }, coercions: ["/price number"] },
  },
  {
    title: '"true" and "false" where a boolean is expected',
    tool: "order",
    text: '{"item": {"sku": "A1", "size": "M"}, "quantity": 1, "options": {"gift": "true", "rush": "false"}}',
    expect: {
      args: { item: { sku: "A1", size: "M" }, quantity: 1, options: { gift: true, rush: false } },
      coercions: ["/options/gift boolean", "/options/rush boolean"],
    },
  },
  {
    title: "a JSON string where an object is expected (double-stringified, through $ref)",
    tool: "order",
    text: '{"item": "{\\"sku\\": \\"A1\\", \\"size\\": \\"L\\"}", "quantity": "2"}',
    expect: { args: { item: { sku: "A1", size: "L" }, quantity: 2 }, coercions: ["/item json", "/quantity number"] },
  },
  {
    title: "a JSON string where an array is expected",
    tool: "search",
    text: '{"query": "lamp", "tags": "[\\"led\\", \\"usb\\"]"}',
    expect: { args: { query: "lamp", tags: ["led", "usb"] }, coercions: ["/tags json"] },
  },
  {
    title: "the whole arguments object double-stringified",
    tool: "search",
    text: '"{\\"query\\": \\"lamp\\", \\"limit\\": 2}"',
    expect: { args: { query: "lamp", limit: 2 }, coercions: [" json"] },
  },
  {
    title: "a lone value where an array is expected",
    tool: "search",
    text: '{"query": "lamp", "tags": "led"}',
    expect: { args: { query: "lamp", tags: ["led"] }, coercions: ["/tags array"] },
  },
  {
    title: "a lone numeric string where an array of integers is expected",
    tool: "postal",
    text: '{"code": "10115", "ids": "7"}',
    expect: { args: { code: "10115", ids: [7] }, coercions: ["/ids array", "/ids/0 number"] },
  },
  {
    title: "numeric strings inside a tuple",
    tool: "order",
    text: '{"item": {"sku": "A1", "size": "S"}, "quantity": 1, "coords": ["52.5", "13.4"]}',
    expect: {
      args: { item: { sku: "A1", size: "S" }, quantity: 1, coords: [52.5, 13.4] },
      coercions: ["/coords/0 number", "/coords/1 number"],
    },
  },
  {
    title: "numeric strings in a map (additionalProperties)",
    tool: "scores",
    text: '{"by": {"alice": "3", "bob": 4}}',
    expect: { args: { by: { alice: 3, bob: 4 } }, coercions: ["/by/alice number"] },
  },
  {
    title: "a key named constructor in a map is an ordinary own key",
    tool: "scores",
    text: '{"by": {"constructor": "1"}}',
    expect: { args: { by: { constructor: 1 } }, coercions: ["/by/constructor number"] },
  },
  {
    title: "a union picks the first alternative the converted value satisfies",
    tool: "pick",
    text: '{"value": "3"}',
    expect: { args: { value: 3 }, coercions: ["/value number"] },
  },
  {
    title: "inside a union, the alternative of the value's type is used",
    tool: "pick",
    text: '{"value": ["1", 2]}',
    expect: { args: { value: [1, 2] }, coercions: ["/value/0 number"] },
  },
  {
    title: "a nullable type array takes a numeric string… only where a number is allowed",
    tool: "order",
    text: '{"item": {"sku": "A1", "size": "S"}, "quantity": 1, "note": "5"}',
    expect: { args: { item: { sku: "A1", size: "S" }, quantity: 1, note: "5" }, coercions: [] },
  },
  {
    title: "repair and coercion together",
    tool: "search",
    text: "{query: 'lamp', limit: '7', exact: 'false',}",
    expect: {
      args: { query: "lamp", limit: 7, exact: false },
      repairs: ["single_quotes", "trailing_comma", "unquoted_key"],
      coercions: ["/limit number", "/exact boolean"],
    },
  },

  // ── Not coerced: beyond the rules ──────────────────────────────────────────────────────────────────────────
  {
    title: "a fractional string where an integer is expected",
    tool: "search",
    text: '{"query": "lamp", "limit": "5.5"}',
    expect: { error: ['- /limit: must be an integer; got "5.5"'] },
  },
  {
    title: "hexadecimal",
    tool: "search",
    text: '{"query": "lamp", "limit": "0x10"}',
    expect: { error: ['- /limit: must be an integer; got "0x10"'] },
  },
  {
    title: "a leading zero (a code, not a number)",
    tool: "search",
    text: '{"query": "lamp", "limit": "05"}',
    expect: { error: ['- /limit: must be an integer; got "05"'] },
  },
  {
    title: "blanks around a number",
    tool: "search",
    text: '{"query": "lamp", "limit": " 5"}',
    expect: { error: ['- /limit: must be an integer; got " 5"'] },
  },
  {
    title: "a number word",
    tool: "search",
    text: '{"query": "lamp", "limit": "five"}',
    expect: { error: ['- /limit: must be an integer; got "five"'] },
  },
  {
    title: '"NaN" and "Infinity"',
    tool: "search",
    text: '{"query": "lamp", "price": "Infinity"}',
    expect: { error: ['- /price: must be a number; got "Infinity"'] },
  },
  {
    title: "a coerced number is still checked against its range",
    tool: "search",
    text: '{"query": "lamp", "limit": "99"}',
    expect: { error: ["- /limit: must be <= 50; got 99"] },
  },
  {
    title: "other spellings of booleans",
    tool: "search",
    text: '{"query": "lamp", "exact": "yes"}',
    expect: { error: ['- /exact: must be a boolean; got "yes"'] },
  },
  {
    title: "capitalised booleans",
    tool: "search",
    text: '{"query": "lamp", "exact": "True"}',
    expect: { error: ['- /exact: must be a boolean; got "True"'] },
  },
  {
    title: "a number where a boolean is expected",
    tool: "search",
    text: '{"query": "lamp", "exact": 1}',
    expect: { error: ["- /exact: must be a boolean; got 1"] },
  },
  {
    title: "nothing becomes a string",
    tool: "postal",
    text: '{"code": 10115}',
    expect: { error: ["- /code: must be a string; got 10115"] },
  },
  {
    title: '"null" is not null',
    tool: "order",
    text: '{"item": {"sku": "A1", "size": "S"}, "quantity": 1, "options": "null"}',
    expect: { error: ['- /options: must be an object with properties gift, rush or null; got "null"'] },
  },
  {
    title: "a lone value that does not fit the item type",
    tool: "search",
    text: '{"query": "lamp", "tags": 5}',
    expect: { error: ["- /tags: must be an array; got 5"] },
  },
  {
    title: "a lone value where a tuple of two is expected",
    tool: "order",
    text: '{"item": {"sku": "A1", "size": "S"}, "quantity": 1, "coords": 52.5}',
    expect: { error: ["- /coords: must be an array; got 52.5"] },
  },
  {
    title: "a string holding broken JSON where an object is expected",
    tool: "order",
    text: '{"item": "{sku: A1}", "quantity": 1}',
    expect: { error: ['- /item: must be an object; got "{sku: A1}"'] },
  },
  {
    title: "a string holding an array where an object is expected",
    tool: "order",
    text: '{"item": "[1]", "quantity": 1}',
    expect: { error: ['- /item: must be an object; got "[1]"'] },
  },
  {
    title: "double-stringified arguments holding an array",
    tool: "search",
    text: '"[\\"lamp\\"]"',
    expect: { error: ['Error: the arguments for search must be a JSON object, got a string: "[\\"lamp\\"]"'] },
  },
  {
    title: "an enum value in the wrong case",
    tool: "order",
    text: '{"item": {"sku": "A1", "size": "m"}, "quantity": 1}',
    expect: { error: ['- /item/size: must be one of "S", "M", "L"; got "m"'] },
  },
  {
    title: "coercion does not hide the other errors",
    tool: "search",
    text: '{"query": 3, "limit": "2", "sort": "asc"}',
    expect: {
      error: [
        "- /query: must be a string; got 3",
        '- (root): unexpected property "sort"; allowed properties: query, limit, exact, price, tags',
      ],
    },
  },

  // ── Hostile keys ───────────────────────────────────────────────────────────────────────────────────────────
  {
    title: "__proto__ keys are dropped",
    tool: "search",
    text: '{"query": "lamp", "__proto__": {"admin": true}}',
    expect: { args: { query: "lamp" } },
  },
  {
    title: "constructor.prototype is an unexpected property, never a path to a prototype",
    tool: "search",
    text: '{"query": "lamp", "constructor": {"prototype": {"polluted": true}}}',
    expect: { error: ['- (root): unexpected property "constructor"'] },
  },
];

const events = new Map<string, ToolEvent>();
const observed = new ToolRegistry([search, order, ping, scores, pick, postal], {
  onToolStart: (event) => void events.set(event.call.id, event),
});

for (const [index, entry] of corpus.entries()) {
  test(`${entry.tool}: ${entry.title}`, async () => {
    const id = `case_${index}`;
    const [message] = await observed.dispatch({
      role: "assistant",
      tool_calls: [{ id, type: "function", function: { name: entry.tool, arguments: entry.text } }],
    });
    assert.is(message!.tool_call_id, id);
    if ("error" in entry.expect) {
      assert.is(message!.status, "error", message!.content);
      for (const line of entry.expect.error) {
        assert.ok(message!.content.includes(line), `expected the line\n  ${line}\nin\n  ${message!.content}`);
      }
      return;
    }
    assert.is(message!.status, "success", message!.content);
    assert.equal(JSON.parse(message!.content), entry.expect.args);
    const event = events.get(id)!;
    if (entry.expect.repairs) assert.equal([...event.repairs].sort(), [...entry.expect.repairs].sort());
    if (entry.expect.coercions) {
      assert.equal(
        event.coercions.map((c) => `${c.path} ${c.rule}`),
        entry.expect.coercions,
      );
    }
  });
}

test("the corpus is answered the same way through one dispatch of all its calls, in order", async () => {
  // The corpus is longer than the default cap on calls per reply (64), which is lifted here.
  const messages = await registry.dispatch(
    {
      role: "assistant",
      tool_calls: corpus.map((entry, i) => ({
        id: `all_${i}`,
        type: "function",
        function: { name: entry.tool, arguments: entry.text },
      })),
    },
    { maxCallsPerMessage: Infinity },
  );
  assert.equal(
    messages.map((m) => [m.tool_call_id, m.status]),
    corpus.map((entry, i) => [`all_${i}`, "error" in entry.expect ? "error" : "success"]),
  );
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(({} as Record<string, unknown>).admin, undefined);
});

test.run();
