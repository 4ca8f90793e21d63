/**
 * Example arguments (`@example` JSON blocks) in each export: Anthropic's `input_examples` with the description as
 * written; appended to the description for OpenAI (Chat Completions, functions, Responses), Gemini and MCP; the
 * AI SDK adapter's `inputExamples`. The exports are typed with the SDKs' own request types, so the compiler checks
 * that what tooltype writes is what they accept. Anthropic's loop sends `input_examples` (and the tool search tool
 * with deferred tools) to the generally available Messages endpoint with no beta header, through the official SDK.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Tool as AnthropicSdkTool } from "@anthropic-ai/sdk/resources/messages";
import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { FunctionTool } from "openai/resources/responses/responses";
import Anthropic from "@anthropic-ai/sdk";
import { ToolRegistry, tool } from "tooltype";
import { runTools } from "tooltype/loop";
import { toAISDKTools } from "tooltype/ai";
import { anthropicReply } from "../support/provider-replies";
import { startScriptedHttp } from "../support/scripted-http";

/**
 * Current weather for a city.
 * @example {"city": "Paris"}
 * @example {"city": "Oslo", "unit": "fahrenheit"}
 */
const weather = tool(function weather(city: string, unit: "celsius" | "fahrenheit" = "celsius") {
  return `${city}: 21 ${unit}`;
});

/**
 * Echo a text.
 * @example echo("hi")
 */
const echo = tool(function echo(text: string) {
  return text;
});

const APPENDED =
  'Current weather for a city.\n\nExample arguments:\n{"city":"Paris"}\n{"city":"Oslo","unit":"fahrenheit"}';

test("Anthropic: input_examples, and the description as written", () => {
  const registry = new ToolRegistry([weather, echo]);
  const tools: AnthropicSdkTool[] = registry.toAnthropicTools();
  assert.equal(tools[0]!.input_examples, [{ city: "Paris" }, { city: "Oslo", unit: "fahrenheit" }]);
  assert.is(tools[0]!.description, "Current weather for a city.");
  assert.is("input_examples" in tools[1]!, false);
  assert.is(tools[1]!.description, 'Echo a text.\n\nExample:\necho("hi")');
});

test("Anthropic loop: input_examples and the tool search tool go to POST /v1/messages with no anthropic-beta header, as without them", async () => {
  /**
   * Forecast for a city.
   * @deferred
   */
  const forecast = tool(function forecast(city: string) {
    return `${city}: rain`;
  });
  const server = await startScriptedHttp([
    () => anthropicReply("m1", [{ type: "text", text: "Hi." }]),
    () => anthropicReply("m2", [{ type: "text", text: "Hi." }]),
  ]);
  try {
    const sent: { url: string; beta: string | null }[] = [];
    const client = new Anthropic({
      baseURL: server.origin,
      apiKey: "test",
      maxRetries: 0,
      timeout: 10_000,
      fetch: (url: string | URL | Request, init?: RequestInit) => {
        sent.push({ url: String(url), beta: new Headers(init?.headers).get("anthropic-beta") });
        return fetch(url, init);
      },
    });
    const params = { model: "claude-scripted", max_tokens: 100, messages: [{ role: "user" as const, content: "Hi" }] };
    await runTools(client, params, new ToolRegistry([weather, forecast]));
    await runTools(client, params, new ToolRegistry([echo]));
    const [withExamples, without] = server.requests.map(
      (request) => request.body as { tools: Record<string, unknown>[] },
    );
    assert.equal(
      withExamples!.tools.map((entry) => [entry.name, "input_examples" in entry, entry.defer_loading ?? false]),
      [
        ["weather", true, false],
        ["forecast", false, true],
        ["tool_search_tool_bm25", false, false],
      ],
    );
    assert.equal(
      without!.tools.map((entry) => [entry.name, "input_examples" in entry]),
      [["echo", false]],
    );
    assert.equal(
      server.requests.map((request) => [request.method, request.path]),
      [
        ["POST", "/v1/messages"],
        ["POST", "/v1/messages"],
      ],
      "not the beta endpoint (?beta=true)",
    );
    assert.equal(
      sent.map((request) => request.beta),
      [null, null],
    );
  } finally {
    await server.close();
  }
});

test("OpenAI, Responses, Gemini and MCP: the examples appended to the description; a tool without them unchanged", () => {
  const registry = new ToolRegistry([weather, echo]);
  const chat: ChatCompletionFunctionTool[] = registry.toOpenAITools();
  const responses: FunctionTool[] = registry.toResponsesTools();
  const descriptions = [
    chat.map((t) => t.function.description),
    registry.toOpenAIFunctions().map((t) => t.description),
    responses.map((t) => t.description),
    registry.toGeminiTools()[0]!.functionDeclarations!.map((t) => t.description),
    registry.toMCPTools().map((t) => t.description),
  ];
  for (const [first, second] of descriptions) {
    assert.is(first, APPENDED);
    assert.is(second, 'Echo a text.\n\nExample:\necho("hi")');
  }
});

test("the AI SDK adapter passes inputExamples and the description as written", () => {
  const tools = toAISDKTools(new ToolRegistry([weather, echo]));
  assert.equal(tools.weather!.inputExamples, [
    { input: { city: "Paris" } },
    { input: { city: "Oslo", unit: "fahrenheit" } },
  ]);
  assert.is(tools.weather!.description, "Current weather for a city.");
  assert.is(tools.echo!.inputExamples, undefined);
});

test("tool.fromSchema takes examples too", () => {
  const lookup = tool.fromSchema(
    {
      name: "lookup",
      description: "Look up an id.",
      parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      examples: [{ id: "r7" }],
    },
    (args) => String(args.id),
  );
  const registry = new ToolRegistry([lookup]);
  assert.equal(registry.toAnthropicTools()[0]!.input_examples, [{ id: "r7" }]);
  assert.is(registry.toOpenAITools()[0]!.function.description, 'Look up an id.\n\nExample arguments:\n{"id":"r7"}');
});

test.run();
