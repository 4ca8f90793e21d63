/**
 * A tooltype tool's arguments as a Standard Schema in the libraries that take one, with no tooltype adapter: the AI
 * SDK's `tool({ inputSchema: standardSchema(fn) })` in `generateText` (a scripted mock model), and the MCP SDK v2's
 * `registerTool(name, { inputSchema: standardSchema(fn) }, …)` listed and called by the SDK v2 client. What the
 * model or client sees is the tool's JSON Schema; what the handler receives is validated and coerced by tooltype.
 * Also a `structuredOutput<T>()` as the AI SDK's `Output.object({ schema })`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { standardSchema, tool } from "tooltype";
import { structuredOutput } from "tooltype/loop";

/**
 * Weather forecast for a city.
 * @param city The city
 * @param days How many days ahead
 */
const forecast = tool(function forecast(city: string, days: number = 1, unit: "celsius" | "fahrenheit" = "celsius") {
  return `${city}: ${days} day(s) in ${unit}`;
});

type ForecastArgs = { city: string; days?: number; unit?: "celsius" | "fahrenheit" };

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

test("the AI SDK's generateText: the schema reaches the model, the tool gets coerced arguments, a wrong call is a tool error with tooltype's words", async () => {
  const { generateText, stepCountIs, tool: aiTool } = await import("ai");
  const { MockLanguageModelV4 } = await import("ai/test");
  const received: ForecastArgs[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: [
      {
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "forecast", input: '{"city": "Oslo", "days": "3"}' },
          { type: "tool-call", toolCallId: "c2", toolName: "forecast", input: '{"city": "Oslo", "unit": "kelvin"}' },
        ],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: USAGE,
        warnings: [],
      },
      {
        content: [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: undefined },
        usage: USAGE,
        warnings: [],
      },
    ],
  });
  const result = await generateText({
    model,
    prompt: "weather?",
    stopWhen: stepCountIs(3),
    tools: {
      forecast: aiTool({
        description: "Weather forecast for a city.",
        inputSchema: standardSchema<ForecastArgs>(forecast),
        execute: (args) => {
          received.push(args);
          return forecast(args.city, args.days, args.unit);
        },
      }),
    },
  });
  assert.is(result.text, "done");
  const sent = model.doGenerateCalls[0]!.tools![0] as unknown as { type: string; inputSchema: Record<string, unknown> };
  const expected = standardSchema(forecast)["~standard"].jsonSchema.input({ target: "draft-2020-12" });
  assert.equal(sent.inputSchema.properties, expected.properties);
  assert.equal(sent.inputSchema.required, ["city"]);
  assert.equal(received, [{ city: "Oslo", days: 3 }]);
  const failed = result.steps[0]!.content.find((part) => part.type === "tool-error") as
    | { error: unknown; toolCallId: string }
    | undefined;
  assert.is(failed?.toolCallId, "c2");
  // The AI SDK's error text carries the issues as tooltype wrote them, message and path.
  assert.match(
    String(failed?.error),
    '[{"message":"must be one of \\"celsius\\", \\"fahrenheit\\"; got \\"kelvin\\"","path":["unit"]}]',
  );
});

/** A short summary. */
interface Summary {
  title: string;
  words: number;
}

test("the AI SDK's Output.object takes a structuredOutput<T>() as its schema: sent as the response format, the answer coerced", async () => {
  const { generateText, Output } = await import("ai");
  const { MockLanguageModelV4 } = await import("ai/test");
  const model = new MockLanguageModelV4({
    doGenerate: {
      content: [{ type: "text", text: '{"title": "Trip", "words": "120"}' }],
      finishReason: { unified: "stop", raw: undefined },
      usage: USAGE,
      warnings: [],
    },
  });
  const summary = structuredOutput<Summary>();
  const result = await generateText({ model, prompt: "sum up", output: Output.object({ schema: summary }) });
  assert.equal(result.output, { title: "Trip", words: 120 });
  const format = model.doGenerateCalls[0]!.responseFormat as { type: string; schema?: { properties?: unknown } };
  assert.is(format.type, "json");
  assert.equal(format.schema?.properties, summary.schema.properties);
});

test("the MCP SDK v2's registerTool: tools/list shows the schema, tools/call runs with coerced arguments, a wrong call is an isError result", async () => {
  const { McpServer, InMemoryTransport } = await import("@modelcontextprotocol/server");
  const { Client } = await import("@modelcontextprotocol/client");
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  const received: ForecastArgs[] = [];
  server.registerTool(
    "forecast",
    { description: "Weather forecast for a city.", inputSchema: standardSchema<ForecastArgs>(forecast) },
    (args) => {
      received.push(args);
      return { content: [{ type: "text", text: forecast(args.city, args.days, args.unit) }] };
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    const listed = await client.listTools();
    const expected = standardSchema(forecast)["~standard"].jsonSchema.input({ target: "draft-2020-12" });
    assert.equal(listed.tools[0]!.inputSchema.properties, expected.properties);
    const answer = await client.callTool({ name: "forecast", arguments: { city: "Oslo", days: "3" } });
    assert.equal(answer.content, [{ type: "text", text: "Oslo: 3 day(s) in celsius" }]);
    assert.equal(received, [{ city: "Oslo", days: 3 }]);
    const wrong = await client.callTool({ name: "forecast", arguments: { city: "Oslo", unit: "kelvin" } });
    assert.is(wrong.isError, true);
    assert.match(JSON.stringify(wrong.content), /must be one of \\"celsius\\", \\"fahrenheit\\"; got \\"kelvin\\"/);
  } finally {
    await client.close();
    await server.close();
  }
});

test.run();
