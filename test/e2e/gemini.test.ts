/**
 * Round trip through the official @google/genai client and a scripted generateContent endpoint on 127.0.0.1: the
 * function declarations and tool config on the wire, the model's functionCall parts dispatched, and the next
 * request carrying one user Content of functionResponse parts ({ output } or { error }) as Gemini documents it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { toolChoice } from "tooltype";
import { createProviderRegistry } from "../support/provider-tools";
import { startScriptedHttp, wire } from "../support/scripted-http";

type Content = import("@google/genai", { with: { "resolution-mode": "import" }}).Content;
type GenerateContentConfig = import("@google/genai", { with: { "resolution-mode": "import" }}).GenerateContentConfig;

function candidate(parts: unknown[]): unknown {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    modelVersion: "gemini-scripted",
  };
}

test("Gemini: declarations out, functionCall parts in, functionResponse parts back", async () => {
  // @google/genai is an ES module; a dynamic import loads it from this CommonJS test.
  const { GoogleGenAI } = await import("@google/genai");
  const registry = createProviderRegistry();
  const server = await startScriptedHttp([
    () =>
      candidate([
        { functionCall: { id: "fc_1", name: "get_weather", args: { city: "Rome" } } },
        { functionCall: { id: "fc_2", name: "search_products", args: { keyword: "umbrella", limit: 0 } } },
      ]),
    () => candidate([{ text: "21°C in Rome." }]),
  ]);
  try {
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.origin, timeout: 10_000 } });
    const config: GenerateContentConfig = {
      tools: registry.toGeminiTools(),
      ...toolChoice(registry, "required", "gemini"),
    };
    const contents: Content[] = [{ role: "user", parts: [{ text: "Weather in Rome, and an umbrella?" }] }];

    const first = await ai.models.generateContent({ model: "gemini-scripted", contents, config });
    assert.is(first.functionCalls?.length, 2);
    const answer = await registry.dispatch(first);
    contents.push(first.candidates![0]!.content!, answer);
    const second = await ai.models.generateContent({ model: "gemini-scripted", contents, config });
    assert.is(second.text, "21°C in Rome.");

    const [sent1, sent2] = server.requests;
    assert.is(sent1!.path, "/v1beta/models/gemini-scripted:generateContent");
    const body1 = sent1!.body as { tools: unknown; toolConfig: unknown };
    assert.equal(body1.tools, wire(registry.toGeminiTools()));
    assert.equal(body1.toolConfig, { functionCallingConfig: { mode: "ANY" } });

    const body2 = sent2!.body as {
      contents: {
        role: string;
        parts: { functionResponse?: { id?: string; name: string; response: Record<string, unknown> } }[];
      }[];
    };
    assert.is(body2.contents.length, 3);
    const reply = body2.contents[2]!;
    assert.is(reply.role, "user");
    assert.equal(reply.parts[0], {
      functionResponse: {
        id: "fc_1",
        name: "get_weather",
        response: { output: { city: "Rome", temperature: 21, unit: "celsius" } },
      },
    });
    const failed = reply.parts[1]!.functionResponse!;
    assert.equal([failed.id, failed.name, Object.keys(failed.response)], ["fc_2", "search_products", ["error"]]);
    assert.match(String(failed.response.error), /- \/limit: must be >= 1; got 0/);
  } finally {
    await server.close();
  }
});

test.run();
