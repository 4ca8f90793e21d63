/**
 * The other tool formats (legacy functions, Responses, Anthropic, MCP), the answers dispatch writes for each input
 * format (recognised from the message's shape, typed by `DispatchResult`), `formatAnswer` / `runCalls`, and
 * `toolChoice` for every provider. Values are typed with the providers' SDK types, so this file also proves that
 * what tooltype returns fits them.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type {
  Message,
  MessageParam,
  Tool as AnthropicSdkTool,
  ToolChoice as AnthropicSdkChoice,
} from "@anthropic-ai/sdk/resources/messages";
import type { Tool as MCPSdkTool } from "@modelcontextprotocol/sdk/types.js";
import type {
  ChatCompletionCreateParams,
  ChatCompletionFunctionMessageParam,
  ChatCompletionMessage,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { FunctionTool, Response, ResponseInputItem } from "openai/resources/responses/responses";
import {
  type AnthropicToolResultMessage,
  type GeminiFunctionResponseContent,
  type OpenAIFunctionMessage,
  type ResponsesCallOutput,
  ToolExportError,
  ToolMessage,
  formatAnswer,
  hasFunctionCall,
  toolChoice,
} from "tooltype";
import { createProviderRegistry } from "../support/provider-tools";

type Content = import("@google/genai", { with: { "resolution-mode": "import" }}).Content;
type FunctionCallingConfigMode = import("@google/genai", { with: {
  "resolution-mode": "import",
}}).FunctionCallingConfigMode;
type GenerateContentResponse = import("@google/genai", { with: {
  "resolution-mode": "import",
}}).GenerateContentResponse;
type ToolConfig = import("@google/genai", { with: { "resolution-mode": "import" }}).ToolConfig;

/** Compile-time equality of two types. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T>(_value: T): void {}

test("legacy functions, Responses, Anthropic and MCP tool lists, typed with each SDK", () => {
  const registry = createProviderRegistry();
  const functions: ChatCompletionCreateParams.Function[] = registry.toOpenAIFunctions();
  assert.equal(functions[0], {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: registry.get("get_weather")!.parameters,
  });

  const responses: FunctionTool[] = registry.toResponsesTools();
  assert.equal(
    responses.map((t) => [t.type, t.name, t.strict]),
    [
      ["function", "get_weather", true],
      ["function", "search_products", true],
      ["function", "explode", true],
      ["function", "lookup", true],
    ],
  );
  assert.equal(responses[0]!.parameters, registry.toOpenAITools({ strict: true })[0]!.function.parameters);
  const loose: FunctionTool[] = registry.toResponsesTools({ strict: false });
  assert.equal(loose[0], {
    type: "function",
    name: "get_weather",
    parameters: registry.get("get_weather")!.parameters,
    strict: false,
    description: "Get the current weather in a city.",
  });

  const anthropic: AnthropicSdkTool[] = registry.toAnthropicTools();
  assert.equal(anthropic[0], {
    name: "get_weather",
    input_schema: registry.get("get_weather")!.parameters,
    description: "Get the current weather in a city.",
  });

  const mcp: MCPSdkTool[] = registry.toMCPTools();
  assert.equal(mcp[0], {
    name: "get_weather",
    inputSchema: registry.get("get_weather")!.parameters,
    description: "Get the current weather in a city.",
    outputSchema: {
      type: "object",
      properties: {
        city: { type: "string" },
        temperature: { type: "number" },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
      },
      required: ["city", "temperature", "unit"],
      additionalProperties: false,
    },
  });
  // A string result has no output schema; content_and_artifact: the schema of the content part (a string: none).
  assert.equal(
    mcp.map((t) => t.outputSchema === undefined),
    [false, false, true, true],
  );
});

test("dispatch answers in kind: the result's type and shape follow the input's", async () => {
  const registry = createProviderRegistry();

  // Chat Completions: ToolMessages (as before).
  const chat: ChatCompletionMessage = {
    role: "assistant",
    content: null,
    refusal: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }],
  };
  const chatAnswer = await registry.dispatch(chat);
  expectType<true>(true as Equal<typeof chatAnswer, ToolMessage[]>);
  assert.ok(chatAnswer[0] instanceof ToolMessage);

  // Legacy function_call: one { role: "function", name, content } message, once narrowed.
  const legacy: ChatCompletionMessage = {
    role: "assistant",
    content: null,
    refusal: null,
    function_call: { name: "get_weather", arguments: '{"city":"Oslo","unit":"fahrenheit"}' },
  };
  assert.ok(hasFunctionCall(legacy));
  if (!hasFunctionCall(legacy)) return;
  const legacyAnswer = await registry.dispatch(legacy);
  expectType<true>(true as Equal<typeof legacyAnswer, OpenAIFunctionMessage>);
  const legacyParam: ChatCompletionFunctionMessageParam = legacyAnswer;
  assert.equal(legacyParam, {
    role: "function",
    name: "get_weather",
    content: '{"city":"Oslo","temperature":70,"unit":"fahrenheit"}',
  });

  // Responses API: function_call_output items keyed by call_id.
  const response = {
    id: "resp_1",
    object: "response",
    output: [
      { type: "reasoning", id: "rs_1", summary: [] },
      {
        type: "function_call",
        id: "fc_1",
        call_id: "call_a",
        name: "get_weather",
        arguments: '{"city":"Oslo","unit":null}',
        status: "completed",
      },
      { type: "function_call", id: "fc_2", call_id: "call_b", name: "nope", arguments: "{}", status: "completed" },
    ],
  } as unknown as Response;
  const outputs = await registry.dispatch(response);
  expectType<true>(true as Equal<typeof outputs, ResponsesCallOutput[]>);
  const items: ResponseInputItem[] = outputs;
  assert.equal(items, [
    { type: "function_call_output", call_id: "call_a", output: '{"city":"Oslo","temperature":21,"unit":"celsius"}' },
    {
      type: "function_call_output",
      call_id: "call_b",
      output: 'Error: "nope" is not a valid tool. Valid tools: get_weather, search_products, explode, lookup.',
    },
  ]);
  assert.equal(await registry.dispatch(response.output), outputs, "an item list works too");

  // Anthropic: one user message of tool_result blocks, is_error on failures, nothing else in it.
  const message = {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [
      { type: "text", text: "Checking." },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
      { type: "tool_use", id: "toolu_2", name: "explode", input: { reason: "testing" } },
      { type: "tool_use", id: "toolu_3", name: "lookup", input: { id: "r1" } },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  } as unknown as Message;
  const results = await registry.dispatch(message);
  expectType<true>(true as Equal<typeof results, AnthropicToolResultMessage>);
  const param: MessageParam = results;
  assert.equal(param, {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_1", content: '{"city":"Oslo","temperature":21,"unit":"celsius"}' },
      { type: "tool_result", tool_use_id: "toolu_2", content: "Cannot do that: testing", is_error: true },
      { type: "tool_result", tool_use_id: "toolu_3", content: "Record r1 found." },
    ],
  });

  // Gemini: one user Content of functionResponse parts: { output } or { error }.
  const gemini = {
    candidates: [
      {
        content: {
          role: "model",
          parts: [
            { functionCall: { id: "fc-1", name: "get_weather", args: { city: "Oslo" } } },
            { functionCall: { name: "search_products", args: { keyword: "tent", limit: 99 } } },
          ],
        },
      },
    ],
  } as unknown as GenerateContentResponse;
  const content = await registry.dispatch(gemini);
  expectType<true>(true as Equal<typeof content, GeminiFunctionResponseContent>);
  const sdkContent: Content = content;
  assert.equal(sdkContent.role, "user");
  assert.equal(content.parts[0], {
    functionResponse: {
      name: "get_weather",
      response: { output: { city: "Oslo", temperature: 21, unit: "celsius" } },
      id: "fc-1",
    },
  });
  assert.equal(Object.keys(content.parts[1]!.functionResponse.response), ["error"]);
  assert.match(
    String(content.parts[1]!.functionResponse.response.error),
    /^Error: invalid arguments for search_products:\n- \/limit: must be <= 20/,
  );
  assert.equal(await registry.dispatch(gemini.candidates![0]!.content!), content, "a Content works too");
});

test("runCalls gives the ToolMessages (status, artifact) of any format; formatAnswer shapes them", async () => {
  const registry = createProviderRegistry();
  const message = {
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_9", name: "lookup", input: { id: "r9" } }],
  };
  const results = await registry.runCalls(message);
  assert.equal(results[0]!.artifact, { id: "r9", secret: "kept in process" });
  assert.is(results[0]!.status, "success");
  const answer = formatAnswer(message, results);
  assert.equal(answer, {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "Record r9 found." }],
  });
  assert.not.ok(JSON.stringify(answer).includes("secret"), "the artifact stays out of the answer");
});

test("a message without calls: an empty answer in kind", async () => {
  const registry = createProviderRegistry();
  assert.equal(await registry.dispatch({ role: "assistant", content: "Hi" }), []);
  assert.equal(await registry.dispatch({ role: "assistant", content: [{ type: "text", text: "Hi" }] }), {
    role: "user",
    content: [],
  });
  assert.equal(await registry.dispatch({ output: [{ type: "message" }] }), []);
  assert.equal(await registry.dispatch({ candidates: [{ content: { role: "model", parts: [{ text: "Hi" }] } }] }), {
    role: "user",
    parts: [],
  });
  const failure = await registry.dispatch(null as never).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.instance(failure, TypeError);
  assert.match(String(failure), /dispatch expects a model message with tool calls/);
});

test("toolChoice: each provider's own form; parallel calls off where the provider has a switch", () => {
  const registry = createProviderRegistry();
  const openai: { tool_choice: ChatCompletionToolChoiceOption; parallel_tool_calls?: boolean } = toolChoice(
    registry,
    "get_weather",
    "openai",
    { parallel: false },
  );
  assert.equal(openai, {
    tool_choice: { type: "function", function: { name: "get_weather" } },
    parallel_tool_calls: false,
  });
  assert.equal(toolChoice(registry, "required", "openai"), { tool_choice: "required" });
  assert.equal(toolChoice(registry, "none", "openai-functions"), { function_call: "none" });
  assert.equal(toolChoice(registry, "explode", "openai-functions"), { function_call: { name: "explode" } });
  assert.equal(toolChoice(registry, "auto", "responses", { parallel: false }), {
    tool_choice: "auto",
    parallel_tool_calls: false,
  });
  assert.equal(toolChoice(registry, "lookup", "responses"), { tool_choice: { type: "function", name: "lookup" } });

  const anthropic: { tool_choice: AnthropicSdkChoice } = toolChoice(registry, "required", "anthropic", {
    parallel: false,
  });
  assert.equal(anthropic, { tool_choice: { type: "any", disable_parallel_tool_use: true } });
  assert.equal(toolChoice(registry, "auto", "anthropic"), { tool_choice: { type: "auto" } });
  assert.equal(toolChoice(registry, "none", "anthropic", { parallel: false }), { tool_choice: { type: "none" } });
  assert.equal(toolChoice(registry, "lookup", "anthropic"), { tool_choice: { type: "tool", name: "lookup" } });

  const gemini: { toolConfig: ToolConfig } = toolChoice(registry, "get_weather", "gemini");
  const mode: FunctionCallingConfigMode | undefined = gemini.toolConfig.functionCallingConfig?.mode;
  assert.is(mode, "ANY");
  assert.equal(gemini, {
    toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
  });
  assert.equal(toolChoice(registry, "auto", "gemini"), { toolConfig: { functionCallingConfig: { mode: "AUTO" } } });
  assert.equal(toolChoice(registry, "none", "gemini"), { toolConfig: { functionCallingConfig: { mode: "NONE" } } });
  assert.equal(toolChoice(registry, "required", "gemini"), { toolConfig: { functionCallingConfig: { mode: "ANY" } } });
});

test("toolChoice errors: unknown tools, required in the legacy API, parallel where there is no switch", () => {
  const registry = createProviderRegistry();
  assert.throws(
    () => toolChoice(registry, "get_wether", "openai"),
    (error: Error) =>
      error instanceof ToolExportError &&
      error.message ===
        'toolChoice: "get_wether" is neither "auto", "none", "required" nor a registered tool. Registered tools: get_weather, search_products, explode, lookup.',
  );
  assert.throws(
    () => toolChoice(registry, "required", "openai-functions"),
    /The legacy functions API has no "required" choice/,
  );
  assert.throws(
    () => toolChoice(registry, "auto", "gemini", { parallel: false }),
    /Gemini has no switch to turn parallel function calls off/,
  );
  assert.not.throws(() => toolChoice(registry, "auto", "gemini", { parallel: true }));
});

test.run();
