/**
 * runTools and rich results: a tool's image reaches the next Chat Completions request as the documented fallback,
 * the tool message with the label followed by one user message carrying the image.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { image, ToolRegistry, tool } from "tooltype";
import { runTools } from "tooltype/loop";

test("runTools sends the labels in the tool message, then the image in a user message", async () => {
  /**
   * Take a screenshot.
   */
  const screenshot = tool(function screenshot() {
    return image({ url: "https://example.com/shot.png" });
  });
  const requests: { messages: unknown[] }[] = [];
  const replies = [
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "screenshot", arguments: "{}" } }],
    },
    { role: "assistant", content: "A login page." },
  ];
  const client = {
    chat: {
      completions: {
        create: async (body: { messages: unknown[] }) => {
          requests.push(JSON.parse(JSON.stringify(body)) as { messages: unknown[] });
          return { choices: [{ index: 0, message: replies[requests.length - 1], finish_reason: "stop" }] };
        },
      },
    },
  };
  const result = await runTools(
    client as never,
    { model: "m", messages: [{ role: "user", content: "What is on screen?" }] },
    new ToolRegistry([screenshot]),
  );
  assert.is(result.content, "A login page.");
  assert.equal(requests[1]!.messages.slice(2), [
    { role: "tool", tool_call_id: "call_1", content: "[image 1: https://example.com/shot.png]" },
    {
      role: "user",
      content: [
        { type: "text", text: "The images and files returned by the tool calls above, by their labels:" },
        { type: "text", text: "[image 1: https://example.com/shot.png] of the screenshot call call_1" },
        { type: "image_url", image_url: { url: "https://example.com/shot.png" } },
      ],
    },
  ]);
});

test.run();
