/**
 * End to end: the weather example's tools, compiled by the transformer, driven by the real `openai` SDK client
 * against the scripted server. Checks what reaches the wire (the tools exactly as `toOpenAITools()` gives them, tool
 * messages as exactly `{ role, tool_call_id, content }` in call order), the compiled schemas, error calls still
 * getting one tool message each, and the example program's offline run.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as path from "node:path";
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionToolMessageParam } from "openai/resources/chat/completions";
import type { ToolMessage, ToolRegistry } from "tooltype";
import { startScriptedServer, type Script, type ScriptedServer } from "../scripted-openai/server";
import { QUESTION, weatherScript } from "../../examples/weather/scripted-model";
import { CATALOG, createRegistry } from "../../examples/weather/tools";
import { HANG_MS } from "../support/hang";

const model = "scripted-e2e";

interface FunctionTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
}

function openAITool(registry: ToolRegistry, name: string): FunctionTool {
  const tools = registry.toOpenAITools() as unknown as FunctionTool[];
  const found = tools.find((t) => t.type === "function" && t.function.name === name);
  if (!found) throw new Error(`no OpenAI tool named ${name} in ${JSON.stringify(tools)}`);
  return found;
}

function toolMessagesOf(messages: ChatCompletionMessageParam[]): ChatCompletionToolMessageParam[] {
  return messages.filter((m): m is ChatCompletionToolMessageParam => m.role === "tool");
}

/** The wire form of a value: what the SDK sends and the server parses. */
function wire<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** The example's loop: call the model, dispatch its tool calls, append the ToolMessages, until it answers in text. */
async function converse(
  script: Script,
  question: string,
  maxSteps = 5,
): Promise<{ server: ScriptedServer; registry: ToolRegistry; answer: string | null; dispatched: ToolMessage[][] }> {
  const registry = createRegistry();
  const server = await startScriptedServer(script);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: question }];
    const dispatched: ToolMessage[][] = [];
    for (let step = 0; step < maxSteps; step++) {
      const completion = await client.chat.completions.create({ model, messages, tools: registry.toOpenAITools() });
      const reply = completion.choices[0].message;
      messages.push(reply);
      if (!reply.tool_calls?.length) return { server, registry, answer: reply.content, dispatched };
      const results = await registry.dispatch(reply);
      dispatched.push(results);
      messages.push(...results);
    }
    throw new Error(`no final answer after ${maxSteps} steps`);
  } finally {
    await server.close();
  }
}

test("get_weather's compiled schema: the JSDoc description, one required string parameter", () => {
  const weather = openAITool(createRegistry(), "get_weather");
  assert.is(weather.function.description, "Get the current weather in a city.");
  // Byte for byte, key order included: the schema text is part of the prompt, so it should be stable.
  assert.is(
    JSON.stringify(weather.function.parameters),
    '{"type":"object","properties":{"location":{"type":"string","description":"City name, e.g. \\"Beijing\\""}},"required":["location"],"additionalProperties":false}',
  );
});

test("search_products' compiled schema: Int with a default is an optional integer carrying the default", () => {
  const search = openAITool(createRegistry(), "search_products");
  assert.is(search.function.description, "Search products from the catalog.");
  const parameters = search.function.parameters as {
    type: string;
    properties: Record<string, unknown>;
    required?: string[];
    additionalProperties: unknown;
  };
  assert.is(parameters.type, "object");
  assert.is(parameters.additionalProperties, false);
  assert.equal(parameters.properties.keyword, { type: "string", description: "Search keyword" });
  assert.equal(parameters.properties.limit, { type: "integer", description: "Maximum number of results", default: 10 });
  assert.equal(parameters.required, ["keyword"]);
});

test("the weather conversation: tools on the wire, tool messages in call order, the final answer", async () => {
  const { server, registry, answer, dispatched } = await converse(weatherScript, QUESTION);
  const umbrellas = CATALOG.filter((p) => p.tags.includes("umbrella")).slice(0, 3);

  assert.is(server.requests.length, 2);
  // Every request carries the tools exactly as the registry exports them.
  for (const request of server.requests) {
    assert.equal(request.tools, wire(registry.toOpenAITools()));
  }

  // The first turn: two parallel calls, dispatched to one ToolMessage each, in call order.
  assert.is(dispatched.length, 1);
  const [results] = dispatched;
  assert.equal(
    results.map((m) => [m.tool_call_id, m.name, m.status]),
    [
      ["call_1", "get_weather", "success"],
      ["call_2", "search_products", "success"],
    ],
  );

  // The second request: the assistant's calls, then exactly {role, tool_call_id, content} per call, in order.
  const second = server.requests[1].messages;
  assert.equal(
    second.map((m) => m.role),
    ["user", "assistant", "tool", "tool"],
  );
  const assistant = second[1];
  assert.equal(assistant.role === "assistant" ? assistant.tool_calls?.map((c) => c.id) : undefined, [
    "call_1",
    "call_2",
  ]);
  const toolMessages = toolMessagesOf(second.slice(2));
  for (const message of toolMessages) {
    assert.equal(Object.keys(message).sort(), ["content", "role", "tool_call_id"]);
  }
  assert.equal(toolMessages[0], {
    role: "tool",
    tool_call_id: "call_1",
    content: "Beijing: light rain, 18°C, humidity 82%",
  });
  assert.is(toolMessages[1].tool_call_id, "call_2");
  assert.equal(JSON.parse(toolMessages[1].content as string), umbrellas);

  const list = umbrellas.map((p) => `${p.name} ($${p.price.toFixed(2)})`).join(", ");
  assert.is(answer, `Weather in Beijing: light rain, 18°C, humidity 82%. Umbrellas you could take: ${list}.`);
});

test("call order is kept, and failing calls still get one tool message each with only the three wire keys", async () => {
  const script: Script = [
    {
      tool_calls: [
        { id: "call_search", name: "search_products", arguments: { keyword: "sunscreen" } },
        { id: "call_unknown", name: "get_time", arguments: { zone: "UTC" } },
        { id: "call_bad_json", name: "get_weather", arguments: '{"location": "Par' },
        { id: "call_weather", name: "get_weather", arguments: { location: "Paris" } },
      ],
    },
    (request) => ({ content: `received ${request.messages.filter((m) => m.role === "tool").length} tool results` }),
  ];
  const { server, answer, dispatched } = await converse(script, "Sunscreen, the time, and the weather in Paris?");

  assert.equal(
    dispatched[0].map((m) => [m.tool_call_id, m.status]),
    [
      ["call_search", "success"],
      ["call_unknown", "error"],
      ["call_bad_json", "error"],
      ["call_weather", "success"],
    ],
  );
  const toolMessages = toolMessagesOf(server.requests[1].messages);
  assert.equal(
    toolMessages.map((m) => m.tool_call_id),
    ["call_search", "call_unknown", "call_bad_json", "call_weather"],
  );
  for (const message of toolMessages) {
    assert.equal(Object.keys(message).sort(), ["content", "role", "tool_call_id"]);
    assert.type(message.content, "string");
  }
  assert.match(toolMessages[1].content as string, /get_time/);
  assert.equal(
    JSON.parse(toolMessages[0].content as string),
    CATALOG.filter((p) => p.id === "p-302"),
  );
  assert.is(toolMessages[3].content, "Paris: sunny, 24°C, humidity 40%");
  assert.is(answer, "received 4 tool results");
});

test("the example program runs offline against the scripted model and prints tools, calls and the answer", async () => {
  const main = path.join(__dirname, "../../examples/weather/main.js");
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = execFile(process.execPath, [main], { env, timeout: HANG_MS }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
      child.stdin?.end();
    },
  );
  assert.is(code, 0, `example failed:\n${stderr}\n${stdout}`);
  assert.match(stdout, "Tools sent to the model:");
  assert.match(stdout, '"name": "get_weather"');
  assert.match(stdout, '"name": "search_products"');
  assert.match(stdout, `User: ${QUESTION}`);
  assert.match(stdout, 'get_weather({"location":"Beijing"})');
  assert.match(stdout, 'search_products({"keyword":"umbrella","limit":3})');
  assert.match(stdout, "success: Beijing: light rain, 18°C, humidity 82%");
  assert.match(
    stdout,
    "Assistant: Weather in Beijing: light rain, 18°C, humidity 82%. Umbrellas you could take: Compact Travel Umbrella",
  );
});

test.run();
