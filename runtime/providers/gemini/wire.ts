/**
 * Gemini on the wire: tooltype's own copies of the `@google/genai` types it reads and writes (function declarations
 * in Gemini's OpenAPI subset, `functionCall` and `functionResponse` parts, the tool config, the loop's request,
 * response and Content). The SDK's `Type` and `FunctionCallingConfigMode` are TypeScript enums; TypeScript treats
 * enums of the same name and members as interchangeable, so the copies (enums.ts) keep our types assignable to the
 * SDK's without our .d.ts files importing that optional peer. The checks at the bottom enforce it.
 */
import type { LoopTypes } from "../provider";
import type { FunctionCallingConfigMode, Type } from "./enums";

type Content = import("@google/genai", { with: { "resolution-mode": "import" }}).Content;
type FunctionDeclaration = import("@google/genai", { with: { "resolution-mode": "import" }}).FunctionDeclaration;
type GenerateContentResponse = import("@google/genai", { with: {
  "resolution-mode": "import",
}}).GenerateContentResponse;
type GoogleGenAI = import("@google/genai", { with: { "resolution-mode": "import" }}).GoogleGenAI;
type SdkFunctionCallingConfigMode = import("@google/genai", { with: {
  "resolution-mode": "import",
}}).FunctionCallingConfigMode;
type Schema = import("@google/genai", { with: { "resolution-mode": "import" }}).Schema;
type Tool = import("@google/genai", { with: { "resolution-mode": "import" }}).Tool;
type ToolConfig = import("@google/genai", { with: { "resolution-mode": "import" }}).ToolConfig;
type SdkType = import("@google/genai", { with: { "resolution-mode": "import" }}).Type;

/** A schema in Gemini's OpenAPI subset (the SDK's `Schema`). Integer bounds are strings (int64 in JSON). */
export interface GeminiSchema {
  anyOf?: GeminiSchema[];
  default?: unknown;
  description?: string;
  enum?: string[];
  example?: unknown;
  format?: string;
  items?: GeminiSchema;
  maxItems?: string;
  maxLength?: string;
  maxProperties?: string;
  maximum?: number;
  minItems?: string;
  minLength?: string;
  minProperties?: string;
  minimum?: number;
  nullable?: boolean;
  pattern?: string;
  properties?: Record<string, GeminiSchema>;
  propertyOrdering?: string[];
  required?: string[];
  title?: string;
  type?: Type;
}

/** One function declaration (the SDK's `FunctionDeclaration`, whose fields are all optional). */
export interface GeminiFunctionDeclaration {
  name?: string;
  description?: string;
  /** The OpenAPI-subset schema; left out for a tool without parameters (Gemini rejects an empty OBJECT). */
  parameters?: GeminiSchema;
  /** The full JSON Schema instead, with `{ jsonSchema: true }`. */
  parametersJsonSchema?: unknown;
}

/** One entry of `config.tools` (the SDK's `Tool`). */
export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
}

/**
 * What dispatch reads: a `GenerateContentResponse` (its first candidate) or a model `Content`. Parts of any kind
 * may be there; those with `functionCall: { id?, name, args }` are the calls.
 */
export type GeminiInput =
  | { candidates?: readonly { content?: { role?: string; parts?: readonly object[] } }[] }
  | { role?: string; parts?: readonly object[] };

/** One `functionResponse` part. `response` is `{ output }` on success and `{ error }` on failure, as Gemini asks. */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string;
    name: string;
    response: Record<string, unknown>;
    parts?: GeminiFunctionResponseMedia[];
  };
}

/** An image or file inside a `functionResponse` (Gemini 3 and later read them). */
export type GeminiFunctionResponseMedia =
  | { inlineData: { mimeType: string; data: string; displayName?: string } }
  | { fileData: { mimeType: string; fileUri: string; displayName?: string } };

/** The answer to a model turn's function calls: one `user` content of `functionResponse` parts, in call order. */
export interface GeminiFunctionResponseContent {
  role: "user";
  parts: GeminiFunctionResponsePart[];
}

/** `toolConfig` of a request: spread into `config` of `models.generateContent`. */
export interface GeminiToolConfigParams {
  toolConfig: {
    functionCallingConfig: { mode: FunctionCallingConfigMode; allowedFunctionNames?: string[] };
  };
}

/** `toGeminiTools` options. */
export interface GeminiToolsOptions {
  /** How many times a recursive type is unrolled along one path (default 3, at least 1). */
  recursionDepth?: number;
  /** Send the original JSON Schema as `parametersJsonSchema` instead of the OpenAPI subset. */
  jsonSchema?: boolean;
}

/** A part of a Content as the loop types it (others, such as thoughts and their signatures, pass through as they are). */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  /** The signature of the model's thinking, which must go back with the part it came on. */
  thoughtSignature?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
}

/**
 * A `functionCall`: the model's call of one function (`id` only where the API gives one). With streamed arguments
 * (Gemini 3), a call comes in parts: its name with `willContinue: true`, then parts of `partialArgs`, then a part
 * without `willContinue`; the stream accumulator assembles them into one call with `args`.
 */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
  partialArgs?: GeminiPartialArg[];
  willContinue?: boolean;
}

/** One piece of a streamed call's arguments: a value at a JSON Path; a string continues while `willContinue`. */
export interface GeminiPartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: "NULL_VALUE";
  willContinue?: boolean;
}

/** A turn of the conversation (the SDK's `Content`). */
export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

/** A response (or one chunk of a streamed one) as the loop reads it (the SDK's `GenerateContentResponse`). */
export interface GeminiResponse {
  candidates?: { content?: GeminiContent; finishReason?: string }[];
}

/** The request the loop sends (`config` also carries whatever the caller put there). */
export interface GeminiRequest {
  model: string;
  contents: GeminiContent[];
  config?: {
    tools?: GeminiTool[];
    toolConfig?: GeminiToolConfigParams["toolConfig"];
    responseMimeType?: string;
    responseJsonSchema?: unknown;
    abortSignal?: AbortSignal;
  };
}

/** A Gemini client as far as the loop uses it: `new GoogleGenAI()` is one. */
export interface GeminiModelsClient {
  models: {
    /** Send one request. */
    generateContent(params: GeminiRequest): PromiseLike<GeminiResponse>;
    /** Send one request and read the reply as a stream of partial responses. */
    generateContentStream(params: GeminiRequest): PromiseLike<AsyncIterable<GeminiResponse>>;
  };
}

/** What `runTools` sends to Gemini besides the tools: the model, the contents and the config (other fields pass through). */
export interface GeminiLoopParams {
  model: string;
  contents: string | readonly GeminiContent[];
  config?: object;
}

/** Gemini: the model's Content, its `functionCall`s, and Contents. */
export interface GeminiLoopTypes extends LoopTypes {
  readonly reply: GeminiContent;
  readonly call: GeminiFunctionCall;
  readonly item: GeminiContent;
}

/** Gemini: the model, the `contents` (a string or Contents) and the `config` (its `tools` and `toolConfig` are the loop's). */
export interface GeminiRunParams {
  model: string;
  contents: string | readonly GeminiContent[];
  config?: object & { tools?: never; toolConfig?: never; abortSignal?: never };
}

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameType: MutuallyAssignable<Type, SdkType> = true;
const sameMode: MutuallyAssignable<FunctionCallingConfigMode, SdkFunctionCallingConfigMode> = true;
const sameSchema: MutuallyAssignable<GeminiSchema, Schema> = true;
const sameDeclaration: MutuallyAssignable<GeminiFunctionDeclaration, FunctionDeclaration> = true;
const sameTool: MutuallyAssignable<GeminiTool, Tool> = true;
const fitsAnswer: [GeminiFunctionResponseContent] extends [Content] ? true : false = true;
const fitsConfig: [GeminiToolConfigParams["toolConfig"]] extends [ToolConfig] ? true : false = true;
const fitsClient: [GoogleGenAI] extends [GeminiModelsClient] ? true : false = true;
const fitsResponse: [GenerateContentResponse] extends [GeminiResponse] ? true : false = true;
const fitsContent: [GeminiContent] extends [Content] ? true : false = true;
void [
  sameType,
  sameMode,
  sameSchema,
  sameDeclaration,
  sameTool,
  fitsAnswer,
  fitsConfig,
  fitsClient,
  fitsResponse,
  fitsContent,
];
