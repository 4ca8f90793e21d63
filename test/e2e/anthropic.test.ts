/**
 * Round trip through the official Anthropic SDK client and a scripted Messages endpoint on 127.0.0.1: the tools and
 * tool_choice on the wire, the model's tool_use blocks dispatched, and the next request carrying exactly one user
 * message of tool_result blocks (is_error on failures) as Anthropic documents it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import type { Message, MessageParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import { toolChoice } from "tooltype";
import { createProviderRegistry } from "../support/provider-tools";
import { startScriptedHttp, wire } from "../support/scripted-http";

function assistant(content: unknown[], stop_reason: string): Message {
  return {
    id: `msg_${stop_reason}`,
    type: "message",
    role: "assistant",
    model: "claude-scripted",
    content,
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  } as unknown as Message;
}

test("Anthropic: tools out, tool_use in, one user message of tool_result blocks back", async () => {
  const registry = createProviderRegistry();
  const server = await startScriptedHttp([
    () =>
      assistant(
        [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris", unit: "fahrenheit" } },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Paris", unit: "kelvin" } },
          { type: "tool_use", id: "toolu_3", name: "explode", input: { reason: "no" } },
        ],
        "tool_use",
      ),
    () => assistant([{ type: "text", text: "70°F in Paris." }], "end_turn"),
  ]);
  try {
    const client = new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const tools: Tool[] = registry.toAnthropicTools();
    const messages: MessageParam[] = [{ role: "user", content: "Weather in Paris, in Fahrenheit?" }];
    const request = {
      model: "claude-scripted",
      max_tokens: 512,
      tools,
      ...toolChoice(registry, "auto", "anthropic", { parallel: false }),
    };

    const first = await client.messages.create({ ...request, messages });
    assert.is(first.stop_reason, "tool_use");
    const results = await registry.dispatch(first);
    messages.push({ role: first.role, content: first.content }, results);
    const second = await client.messages.create({ ...request, messages });
    assert.equal(second.content, [{ type: "text", text: "70°F in Paris." }]);

    const [sent1, sent2] = server.requests;
    assert.is(sent1!.path, "/v1/messages");
    const body1 = sent1!.body as { tools: unknown; tool_choice: unknown };
    assert.equal(body1.tools, wire(tools));
    assert.equal(body1.tool_choice, { type: "auto", disable_parallel_tool_use: true });

    const body2 = sent2!.body as { messages: unknown[] };
    assert.is(body2.messages.length, 3);
    const answer = body2.messages[2] as { role: string; content: Record<string, unknown>[] };
    assert.is(answer.role, "user");
    assert.equal(answer.content[0], {
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: '{"city":"Paris","temperature":70,"unit":"fahrenheit"}',
    });
    assert.equal(
      answer.content.map((block) => [block.type, block.tool_use_id, block.is_error]),
      [
        ["tool_result", "toolu_1", undefined],
        ["tool_result", "toolu_2", true],
        ["tool_result", "toolu_3", true],
      ],
    );
    assert.match(
      String(answer.content[1]!.content),
      /^Error: invalid arguments for get_weather:\n- \/unit: must be one of "celsius", "fahrenheit"; got "kelvin"/,
    );
    assert.is(answer.content[2]!.content, "Cannot do that: no");
  } finally {
    await server.close();
  }
});

test.run();
