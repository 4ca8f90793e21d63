/**
 * The agent loop on Gemini (`client.models.generateContent` / `generateContentStream`): the request (`contents`,
 * and in `config` the tools, tool config, `responseJsonSchema` for a structured answer, the abort signal), the
 * model's Content going back into `contents` as it came (thought signatures included).
 */
import { type LoopReply, type ProviderLoop, argsCall, isAsyncIterable } from "../provider";
import { toGeminiFunctionResponses } from "./answer";
import { geminiToolChoice } from "./choice";
import { GeminiAccumulator } from "./stream";
import { toGeminiFunctionDeclaration } from "./tools";
import type {
  GeminiContent,
  GeminiFunctionCall,
  GeminiLoopParams,
  GeminiModelsClient,
  GeminiPart,
  GeminiRequest,
  GeminiResponse,
} from "./wire";

/** Config fields the loop writes. */
const OWNED_CONFIG = ["tools", "toolConfig", "abortSignal"];

/** The agent loop on Gemini (`client.models`). */
export const loop: ProviderLoop<
  GeminiModelsClient,
  GeminiLoopParams,
  GeminiContent,
  GeminiContent,
  GeminiFunctionCall,
  GeminiResponse
> = {
  isClient: (client) =>
    typeof (client as { models?: { generateContent?: unknown } }).models?.generateContent === "function",
  narrowsTools: true,
  owned: [],
  conversation: (params) =>
    typeof params.contents === "string" ? [{ role: "user", parts: [{ text: params.contents }] }] : [...params.contents],
  request(params, step) {
    const config: Record<string, unknown> = { ...(params.config as Record<string, unknown> | undefined) };
    for (const field of OWNED_CONFIG) {
      if (field in config)
        throw new TypeError(
          `runTools: params.config.${field} is set by the loop; use the options (toolChoice, signal) instead.`,
        );
    }
    const declarations = [...step.tools, ...step.loopTools];
    if (declarations.length > 0) {
      // The loop's own tools take free-form values that the OpenAPI subset cannot hold: their JSON Schema goes as is.
      const functionDeclarations = [
        ...step.tools.map((tool) => toGeminiFunctionDeclaration(tool)),
        ...step.loopTools.map((tool) => toGeminiFunctionDeclaration(tool, { jsonSchema: true })),
      ];
      config.tools = [{ functionDeclarations }];
      // With allowedTools, the step's active tools go out as allowedFunctionNames, the declarations unchanged.
      if (step.toolChoice !== undefined || step.allowed !== undefined) {
        const allowed = step.allowed === undefined ? {} : { allowed: step.allowed };
        config.toolConfig = geminiToolChoice(step.toolChoice ?? "auto", allowed).toolConfig;
      }
    }
    if (step.output) {
      if ("responseJsonSchema" in config || "responseSchema" in config) {
        throw new TypeError(
          "runTools: params.config.responseJsonSchema is set by the loop; use the responseFormat option instead.",
        );
      }
      config.responseMimeType = "application/json";
      config.responseJsonSchema = step.output.schema;
    }
    const body: Record<string, unknown> = { ...params, contents: [...step.items] };
    if (Object.keys(config).length > 0) body.config = config;
    return body;
  },
  send(client, request, signal, stream) {
    // The SDK takes its signal in `config`; the recorded request stays free of it.
    const config = { ...(request.config as Record<string, unknown> | undefined), abortSignal: signal };
    const params = { ...request, config } as unknown as GeminiRequest;
    return stream ? client.models.generateContentStream(params) : client.models.generateContent(params);
  },
  reply(response) {
    if (isAsyncIterable(response))
      throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
    const candidate = (response as GeminiResponse | undefined)?.candidates?.[0];
    if (!Array.isArray((response as GeminiResponse | undefined)?.candidates)) {
      throw new TypeError("runTools: the response has no candidates; is the client a Gemini (@google/genai) client?");
    }
    return { role: "model", parts: [], ...candidate?.content };
  },
  split(chunk) {
    const candidate = chunk.candidates?.[0];
    const parts = candidate?.content?.parts ?? [];
    if (!candidate || parts.length <= 1) return [chunk];
    return parts.map((part, i) => ({
      candidates: [
        {
          ...candidate,
          content: { ...candidate.content, parts: [part] },
          ...(i === parts.length - 1 ? {} : { finishReason: undefined }),
        },
      ],
    }));
  },
  accumulate: () => new GeminiAccumulator(),
  read(reply): LoopReply<GeminiContent, GeminiContent, GeminiFunctionCall> {
    const parts = reply.parts ?? [];
    const calls = parts
      .filter(
        (part): part is GeminiPart & { functionCall: GeminiFunctionCall } =>
          typeof part.functionCall === "object" && part.functionCall !== null,
      )
      .map((part) => ({ call: part.functionCall, read: loop.readCall(part.functionCall) }));
    const texts = parts
      .filter((part) => typeof part.text === "string" && part.thought !== true)
      .map((part) => part.text as string);
    return { message: reply, items: [reply], calls, text: texts.length > 0 ? texts.join("") : null, refusal: null };
  },
  readCall: (call) => argsCall(call as Record<string, unknown>, call.args),
  answer: (_reply, results) => [toGeminiFunctionResponses(results)],
  userTurn: (text) => ({ role: "user", parts: [{ text }] }),
};
