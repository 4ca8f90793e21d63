/**
 * Rich results: a tool that returns text, an image and a PDF (made with text(), image(), file()) is answered in each
 * provider's own format, checked against the SDK types (these assignments compile only while they fit) and on the
 * wire through the official SDKs against scripted servers: Anthropic tool_result blocks, Responses
 * function_call_output content, Gemini functionResponse parts, MCP blocks (parsed by the MCP SDK's schema), and the
 * Chat Completions fallback (labels in the tool message, a user message carrying the media).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { MessageParam, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Response, ResponseInputItem } from "openai/resources/responses/responses";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { chatAttachments, file, formatAnswer, image, text, ToolRegistry, tool, type ToolMessage } from "tooltype";
import { toMCPResult } from "../../runtime/mcp/format/answer";
import { startScriptedHttp, wire } from "../support/scripted-http";

type Content = import("@google/genai", { with: { "resolution-mode": "import" }}).Content;
type FunctionResponse = import("@google/genai", { with: { "resolution-mode": "import" }}).FunctionResponse;

// A 1×1 PNG and a tiny PDF, as base64.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PDF = Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64");

function makeRegistry() {
  /**
   * Chart the sales of a month.
   * @param month Month name
   */
  const chart = tool(function chart(month: string) {
    return [
      text(`Sales in ${month}`),
      image({ base64: PNG, mediaType: "image/png" }),
      file({ base64: PDF, mediaType: "application/pdf", filename: "report.pdf" }),
    ];
  });
  /**
   * A photo by URL, with the raw data kept in process.
   * @param id Photo id
   */
  const photo = tool(
    function photo(id: string): [ReturnType<typeof image>, { id: string }] {
      return [image({ url: `https://example.com/${id}.jpg`, mediaType: "image/jpeg" }), { id }];
    },
    { responseFormat: "content_and_artifact" },
  );
  /**
   * Data that merely looks like a part.
   */
  const lookalike = tool(function lookalike() {
    return [{ type: "image", data: "x", mediaType: "image/png" }];
  });
  return new ToolRegistry([chart, photo, lookalike]);
}

const LABELS = "Sales in May\n[image 1: image/png]\n[file 2: report.pdf]";

test("the ToolMessage keeps the parts; its text has labels; content_and_artifact and look-alike data still work", async () => {
  const registry = makeRegistry();
  const [chart, photo, lookalike] = await registry.dispatch({
    tool_calls: [
      { id: "a", name: "chart", args: { month: "May" } },
      { id: "b", name: "photo", args: { id: "p1" } },
      { id: "c", name: "lookalike", args: {} },
    ],
  });
  assert.is(chart!.content, LABELS);
  assert.equal(
    chart!.parts!.map((p) => p.type),
    ["text", "image", "file"],
  );
  assert.equal(chart!.toJSON(), { role: "tool", tool_call_id: "a", content: LABELS });
  assert.is(photo!.content, "[image 1: image/jpeg]");
  assert.equal(photo!.artifact, { id: "p1" });
  assert.is(lookalike!.parts, undefined);
  assert.is(lookalike!.content, '[{"type":"image","data":"x","mediaType":"image/png"}]');
  assert.throws(() => image({ base64: PNG, mediaType: "png" }), /mediaType must be a media type such as "image\/png"/);
  assert.equal(image({ bytes: new Uint8Array(Buffer.from(PNG, "base64")), mediaType: "image/png" }).data, PNG);
  assert.is(image({ base64: `data:image/png;base64,${PNG}`, mediaType: "image/png" }).data, PNG);
});

async function chartResults(): Promise<ToolMessage[]> {
  return makeRegistry().runCalls({
    tool_calls: [
      { id: "call_1", name: "chart", args: { month: "May" } },
      { id: "call_2", name: "photo", args: { id: "p1" } },
    ],
  });
}

test("MCP: text, image and an embedded PDF resource; a URL as a resource_link (valid for the MCP SDK's schema)", async () => {
  const [chart, photo] = await chartResults();
  const result = toMCPResult(chart!, undefined);
  assert.equal(CallToolResultSchema.parse(result), result);
  assert.equal(result.content, [
    { type: "text", text: "Sales in May" },
    { type: "image", data: PNG, mimeType: "image/png" },
    { type: "resource", resource: { uri: "tooltype:report.pdf", mimeType: "application/pdf", blob: PDF } },
  ]);
  assert.equal(toMCPResult(photo!, undefined).content, [
    { type: "resource_link", uri: "https://example.com/p1.jpg", name: "image-1", mimeType: "image/jpeg" },
  ]);
});

test("Anthropic (SDK, scripted server): tool_result content blocks with the image and the PDF document", async () => {
  const registry = makeRegistry();
  const server = await startScriptedHttp([
    () => ({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-scripted",
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
      content: [
        { type: "tool_use", id: "toolu_1", name: "chart", input: { month: "May" } },
        { type: "tool_use", id: "toolu_2", name: "photo", input: { id: "p1" } },
      ],
    }),
    () => ({
      id: "msg_2",
      type: "message",
      role: "assistant",
      model: "claude-scripted",
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
      content: [{ type: "text", text: "Done." }],
    }),
  ]);
  try {
    const client = new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const messages: MessageParam[] = [{ role: "user", content: "Chart May" }];
    const request = { model: "claude-scripted", max_tokens: 100, tools: registry.toAnthropicTools() };
    const first = await client.messages.create({ ...request, messages });
    const answer = await registry.dispatch(first);
    const blocks: ToolResultBlockParam["content"] = answer.content[0]!.content;
    messages.push({ role: "assistant", content: first.content }, answer);
    await client.messages.create({ ...request, messages });
    const sent = (server.requests[1]!.body as { messages: { content: unknown }[] }).messages[2]!.content;
    assert.equal(sent, wire(answer.content));
    assert.equal(blocks, [
      { type: "text", text: "Sales in May" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "report.pdf" },
    ]);
    assert.equal(answer.content[1]!.content, [
      { type: "image", source: { type: "url", url: "https://example.com/p1.jpg" } },
    ]);
  } finally {
    await server.close();
  }
});

test("Responses (SDK, scripted server): function_call_output with input_text, input_image and input_file", async () => {
  const registry = makeRegistry();
  const response = (id: string, output: unknown[]) =>
    ({
      id,
      object: "response",
      created_at: 1,
      status: "completed",
      model: "gpt-scripted",
      output,
      parallel_tool_calls: true,
      tool_choice: "auto",
      tools: [],
    }) as unknown as Response;
  const server = await startScriptedHttp([
    () =>
      response("r1", [
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "chart",
          arguments: '{"month":"May"}',
          status: "completed",
        },
      ]),
    () =>
      response("r2", [
        {
          type: "message",
          id: "m",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Done.", annotations: [] }],
        },
      ]),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const input: ResponseInputItem[] = [{ role: "user", content: "Chart May" }];
    const first = await client.responses.create({ model: "gpt-scripted", input, tools: registry.toResponsesTools() });
    const outputs = await registry.dispatch(first);
    input.push(...(first.output as ResponseInputItem[]), ...outputs);
    await client.responses.create({ model: "gpt-scripted", input, tools: registry.toResponsesTools() });
    const sent = (server.requests[1]!.body as { input: unknown[] }).input[2];
    assert.equal(sent, {
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: "Sales in May" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
        { type: "input_file", file_data: `data:application/pdf;base64,${PDF}`, filename: "report.pdf" },
      ],
    });
  } finally {
    await server.close();
  }
});

test("Gemini (SDK, scripted server): functionResponse with the text as output and the media as inlineData parts", async () => {
  const { GoogleGenAI } = await import("@google/genai");
  const registry = makeRegistry();
  const candidate = (parts: unknown[]) => ({
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
  });
  const server = await startScriptedHttp([
    () => candidate([{ functionCall: { id: "fc_1", name: "chart", args: { month: "May" } } }]),
    () => candidate([{ text: "Done." }]),
  ]);
  try {
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.origin, timeout: 10_000 } });
    const contents: Content[] = [{ role: "user", parts: [{ text: "Chart May" }] }];
    const config = { tools: registry.toGeminiTools() };
    const first = await ai.models.generateContent({ model: "gemini-scripted", contents, config });
    const answer = await registry.dispatch(first);
    const typed: FunctionResponse = answer.parts[0]!.functionResponse;
    contents.push(first.candidates![0]!.content!, answer);
    await ai.models.generateContent({ model: "gemini-scripted", contents, config });
    const sent = (server.requests[1]!.body as { contents: { parts: unknown[] }[] }).contents[2]!.parts[0];
    assert.equal(sent, wire({ functionResponse: typed }));
    assert.equal(typed, {
      name: "chart",
      id: "fc_1",
      response: { output: LABELS },
      parts: [
        { inlineData: { mimeType: "image/png", data: PNG } },
        { inlineData: { mimeType: "application/pdf", data: PDF, displayName: "report.pdf" } },
      ],
    });
  } finally {
    await server.close();
  }
});

test("Chat Completions (SDK, scripted server): labels in the tool messages, then one user message carrying the media", async () => {
  const registry = makeRegistry();
  const completion = (message: Record<string, unknown>, finish: string) =>
    ({
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "gpt-scripted",
      choices: [
        { index: 0, message: { role: "assistant", refusal: null, ...message }, finish_reason: finish, logprobs: null },
      ],
    }) as unknown as ChatCompletion;
  const server = await startScriptedHttp([
    () =>
      completion(
        {
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "chart", arguments: '{"month":"May"}' } },
            { id: "call_2", type: "function", function: { name: "photo", arguments: '{"id":"p1"}' } },
          ],
        },
        "tool_calls",
      ),
    () => completion({ content: "Done." }, "stop"),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Chart May, and photo p1" }];
    const first = await client.chat.completions.create({
      model: "gpt-scripted",
      messages,
      tools: registry.toOpenAITools(),
    });
    const reply = first.choices[0]!.message;
    const results = await registry.dispatch(reply);
    const attachments = chatAttachments(results);
    assert.ok(attachments);
    messages.push(reply, ...results, attachments!);
    await client.chat.completions.create({ model: "gpt-scripted", messages, tools: registry.toOpenAITools() });
    const sent = (server.requests[1]!.body as { messages: unknown[] }).messages.slice(2);
    assert.equal(sent, [
      { role: "tool", tool_call_id: "call_1", content: LABELS },
      { role: "tool", tool_call_id: "call_2", content: "[image 1: image/jpeg]" },
      {
        role: "user",
        content: [
          { type: "text", text: "The images and files returned by the tool calls above, by their labels:" },
          { type: "text", text: "[image 1: image/png] of the chart call call_1" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: "text", text: "[file 2: report.pdf] of the chart call call_1" },
          { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}`, filename: "report.pdf" } },
          { type: "text", text: "[image 1: image/jpeg] of the photo call call_2" },
          { type: "image_url", image_url: { url: "https://example.com/p1.jpg" } },
        ],
      },
    ]);
    assert.is(chatAttachments(results.slice(0, 0)), undefined);
  } finally {
    await server.close();
  }
});

test("formatAnswer: the legacy functions API reads the labels (text only); Anthropic labels what it cannot take", async () => {
  const [chart] = await chartResults();
  assert.equal(
    formatAnswer({ role: "assistant", content: null, function_call: { name: "chart", arguments: "{}" } }, [chart!]),
    { role: "function", name: "chart", content: LABELS },
  );
  /** A tool of this test. */
  const csv = tool(function csv() {
    return [
      file({ base64: "YSxi", mediaType: "text/csv", filename: "a.csv" }),
      file({ base64: "aGk=", mediaType: "text/plain" }),
      image({ base64: PNG, mediaType: "image/bmp" }),
    ];
  });
  const answer = await new ToolRegistry([csv]).dispatch({
    role: "assistant",
    content: [{ type: "tool_use", id: "t", name: "csv", input: {} }],
  });
  assert.equal(answer.content[0]!.content, [
    { type: "text", text: "[file 1: a.csv] (not sent: Anthropic reads PDF and plain-text documents)" },
    { type: "document", source: { type: "text", media_type: "text/plain", data: "hi" } },
    { type: "text", text: "[image 3: image/bmp] (not sent: Anthropic reads JPEG, PNG, GIF and WebP images)" },
  ]);
});

test.run();
