/**
 * Round trips through the official `openai` client against scripted endpoints on 127.0.0.1, for the OpenAI formats
 * other than plain Chat Completions tools (covered by openai.test.ts):
 * - the Responses API: strict flat function tools out, function_call items in, function_call_output items back;
 * - Chat Completions in strict mode: the rewritten schema out, the model's nulls for left-out parameters in, the
 *   functions' own defaults applied;
 * - the legacy functions API: `functions` and `function_call` out, a `function_call` reply in, a
 *   `{ role: "function", name, content }` message back.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Response, ResponseInputItem } from "openai/resources/responses/responses";
import { hasFunctionCall, toolChoice } from "tooltype";
import { startScriptedServer } from "../scripted-openai/server";
import { responsesReply } from "../support/provider-replies";
import { createProviderRegistry } from "../support/provider-tools";
import { startScriptedHttp, wire } from "../support/scripted-http";

/** A scripted Responses API reply, typed as the SDK's `Response`. */
function response(id: string, output: unknown[]): Response {
  return responsesReply(id, output) as unknown as Response;
}

test("Responses API: strict function tools out, function_call items in, function_call_output items back", async () => {
  const registry = createProviderRegistry();
  const server = await startScriptedHttp([
    () =>
      response("resp_1", [
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "get_weather",
          arguments: '{"city":"Lima","unit":null}',
          status: "completed",
        },
        {
          type: "function_call",
          id: "fc_2",
          call_id: "call_2",
          name: "get_wether",
          arguments: "{}",
          status: "completed",
        },
      ]),
    () =>
      response("resp_2", [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "21°C in Lima.", annotations: [] }],
        },
      ]),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const input: ResponseInputItem[] = [{ role: "user", content: "Weather in Lima?" }];
    const request = {
      model: "gpt-scripted",
      tools: registry.toResponsesTools(),
      ...toolChoice(registry, "auto", "responses", { parallel: false }),
    };

    const first = await client.responses.create({ ...request, input });
    const outputs = await registry.dispatch(first);
    input.push(...(first.output as ResponseInputItem[]), ...outputs);
    const second = await client.responses.create({ ...request, input });
    assert.is(second.output_text, "21°C in Lima.");

    const [sent1, sent2] = server.requests;
    assert.is(sent1!.path, "/v1/responses");
    const body1 = sent1!.body as {
      tools: { strict: boolean; parameters: { required: string[] } }[];
      tool_choice: unknown;
      parallel_tool_calls: unknown;
    };
    assert.equal(body1.tools, wire(registry.toResponsesTools()));
    assert.equal(
      body1.tools.map((t) => t.strict),
      [true, true, true, true],
    );
    assert.equal(body1.tools[0]!.parameters.required, ["city", "unit"]);
    assert.equal([body1.tool_choice, body1.parallel_tool_calls], ["auto", false]);

    const body2 = sent2!.body as { input: unknown[] };
    assert.equal(body2.input.slice(3), [
      { type: "function_call_output", call_id: "call_1", output: '{"city":"Lima","temperature":21,"unit":"celsius"}' },
      {
        type: "function_call_output",
        call_id: "call_2",
        output: 'Error: "get_wether" is not a valid tool. Valid tools: get_weather, search_products, explode, lookup.',
      },
    ]);
  } finally {
    await server.close();
  }
});

test("Chat Completions, strict: rewritten schemas out; the model's nulls for left-out parameters mean 'use the default'", async () => {
  const registry = createProviderRegistry();
  const server = await startScriptedServer([
    {
      tool_calls: [
        {
          name: "search_products",
          arguments: '{"keyword":"tent","limit":null,"filters":{"maxPrice":null,"inStock":true}}',
        },
        { name: "get_weather", arguments: { city: "Oslo", unit: null } },
      ],
    },
    { content: "Done." },
  ]);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const tools = registry.toOpenAITools({ strict: true });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Tent, and the weather in Oslo?" }];
    const first = await client.chat.completions.create({
      model: "gpt-scripted",
      messages,
      tools,
      ...toolChoice(registry, "required", "openai", { parallel: false }),
    });
    const reply = first.choices[0]!.message;
    const results = await registry.dispatch(reply);
    messages.push(reply, ...results);
    await client.chat.completions.create({ model: "gpt-scripted", messages, tools });

    const sent = server.requests[0]!;
    assert.equal(wire(sent.tools), wire(tools));
    assert.equal([sent.tool_choice, sent.parallel_tool_calls], ["required", false]);
    assert.equal(JSON.parse(results[0]!.content), {
      keyword: "tent",
      limit: 3,
      filters: { inStock: true },
      maxPriceGiven: false,
    });
    assert.equal(JSON.parse(results[1]!.content), { city: "Oslo", temperature: 21, unit: "celsius" });
    assert.equal(wire(server.requests[1]!.messages.slice(2)), wire(results.map((m) => m.toJSON())));
  } finally {
    await server.close();
  }
});

test("legacy functions API: functions and function_call out, a function_call reply in, a function message back", async () => {
  const registry = createProviderRegistry();
  const completion = (message: Record<string, unknown>, finish: string): ChatCompletion =>
    ({
      id: "chatcmpl-legacy",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "gpt-scripted",
      choices: [
        { index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason: finish, logprobs: null },
      ],
    }) as unknown as ChatCompletion;
  const server = await startScriptedHttp([
    () =>
      completion(
        { content: null, function_call: { name: "get_weather", arguments: '{"city":"Quito"}' } },
        "function_call",
      ),
    () => completion({ content: "21°C in Quito." }, "stop"),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Quito?" }];
    const request = {
      model: "gpt-scripted",
      functions: registry.toOpenAIFunctions(),
      ...toolChoice(registry, "get_weather", "openai-functions"),
    };
    const first = await client.chat.completions.create({ ...request, messages });
    const reply = first.choices[0]!.message;
    assert.ok(hasFunctionCall(reply), "a legacy reply");
    if (!hasFunctionCall(reply)) return;
    const answer = await registry.dispatch(reply);
    messages.push(reply, answer);
    const second = await client.chat.completions.create({ ...request, messages });
    assert.is(second.choices[0]!.message.content, "21°C in Quito.");

    const body1 = server.requests[0]!.body as { functions: unknown; function_call: unknown };
    assert.equal(body1.functions, wire(registry.toOpenAIFunctions()));
    assert.equal(body1.function_call, { name: "get_weather" });
    const body2 = server.requests[1]!.body as { messages: unknown[] };
    assert.equal(body2.messages[2], {
      role: "function",
      name: "get_weather",
      content: '{"city":"Quito","temperature":21,"unit":"celsius"}',
    });
  } finally {
    await server.close();
  }
});

test.run();
