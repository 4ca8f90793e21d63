/**
 * The runtime's types against the openai SDK's: what a user writes in an OpenAI tool loop must type-check without
 * casts. Most of this file is checked by the compiler; the test body only keeps it honest at run time.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { type AIMessage, type DispatchInput, type OpenAIFunctionTool, ToolRegistry, tool } from "tooltype";

/** A tool of this test. */
const echo = tool(function echo(text: string) {
  return text;
});

test("an OpenAI tool loop type-checks: ChatCompletionMessage in, ToolMessages and tools into the next request", async () => {
  const registry = new ToolRegistry([echo]);
  const reply: ChatCompletionMessage = {
    role: "assistant",
    content: null,
    refusal: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "echo", arguments: '{"text":"hi"}' } }],
  };
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Say hi" }];
  messages.push(reply, ...(await registry.dispatch(reply)));
  const request: ChatCompletionCreateParamsNonStreaming = {
    model: "gpt-test",
    messages,
    tools: registry.toOpenAITools(),
  };
  const sdkTools: ChatCompletionFunctionTool[] = registry.toOpenAITools();
  const ours: OpenAIFunctionTool[] = sdkTools;
  assert.is(ours.length, 1);
  assert.equal(JSON.parse(JSON.stringify(request.messages))[2], {
    role: "tool",
    tool_call_id: "call_1",
    content: "hi",
  });
});

test("LangChain-style messages type-check, ids optional", async () => {
  const message: AIMessage = { content: "", tool_calls: [{ name: "echo", args: { text: "x" } }] };
  const input: DispatchInput = message;
  const [answer] = await new ToolRegistry([echo]).dispatch(input);
  assert.is(answer!.content, "x");
});

test.run();
