/**
 * `tooltype/ai` with a tool that streams (`async function*`): its `execute` is an async iterable, so the AI SDK
 * reports each value the tool yields as a preliminary tool result (a ToolMessage whose artifact is the value) and
 * keeps the call's ToolMessage, the generator's returned value, as the output the model reads. Driven by
 * `streamText` with `@ai-sdk/openai` against the scripted server.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolMessage, ToolRegistry, tool } from "tooltype";
import { toAISDKTools } from "tooltype/ai";
import { startScriptedServer, toolResults, type ToolResult } from "../scripted-openai/server";

/**
 * Search the catalogue page by page.
 * @param query What to look for
 */
const search = tool(async function* search(query: string): AsyncGenerator<{ page: number }, { hits: string[] }> {
  yield { page: 1 };
  yield { page: 2 };
  return { hits: [`${query}-1`, `${query}-2`] };
});

/**
 * Say hello.
 * @param name Who
 */
const hello = tool(function hello(name: string) {
  return `hello ${name}`;
});

test("streamText: each yield is a preliminary result, the returned value the output the model reads", async () => {
  const { streamText, stepCountIs } = await import("ai");
  const { createOpenAI } = await import("@ai-sdk/openai");
  let seen: ToolResult[] = [];
  const server = await startScriptedServer([
    {
      tool_calls: [
        { name: "search", arguments: { query: "lamp" } },
        { name: "hello", arguments: { name: "Ada" } },
      ],
    },
    (request) => {
      seen = toolResults(request);
      return { content: "found" };
    },
  ]);
  try {
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: "test" });
    const result = streamText({
      model: openai.chat("scripted"),
      tools: toAISDKTools(new ToolRegistry([search, hello])),
      prompt: "find lamps",
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    const parts: { toolName: string; preliminary: boolean; output: ToolMessage }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result")
        parts.push({
          toolName: part.toolName,
          preliminary: part.preliminary === true,
          output: part.output as ToolMessage,
        });
    }
    assert.is(await result.text, "found");
    const ofSearch = parts.filter((p) => p.toolName === "search");
    assert.ok(ofSearch.every((p) => p.output instanceof ToolMessage));
    assert.equal(
      ofSearch.map((p) => [p.preliminary, p.output.content, p.output.artifact]),
      [
        [true, '{"page":1}', { page: 1 }],
        [true, '{"page":2}', { page: 2 }],
        // The AI SDK reports every value of the iterable as preliminary, the last one also as the output.
        [true, '{"hits":["lamp-1","lamp-2"]}', undefined],
        [false, '{"hits":["lamp-1","lamp-2"]}', undefined],
      ],
    );
    // A tool that does not stream has no preliminary results.
    assert.equal(
      parts.filter((p) => p.toolName === "hello").map((p) => [p.preliminary, p.output.content]),
      [[false, "hello Ada"]],
    );
    assert.equal(
      seen.map((r) => r.content),
      ['{"hits":["lamp-1","lamp-2"]}', "hello Ada"],
    );
  } finally {
    await server.close();
  }
});

test.run();
