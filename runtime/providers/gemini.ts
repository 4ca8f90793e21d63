/**
 * Gemini, both ways (the `gemini` provider): function declarations in Gemini's OpenAPI 3.0 subset, reading
 * `functionCall` parts from a response (or a `Content`), answering with one `user` content of `functionResponse`
 * parts, and the tool config. The agent loop's side (`client.models.generateContent` / `generateContentStream`) is
 * here too: the request (`contents`, and in `config` the tools, tool config, `responseJsonSchema` for a structured
 * answer, the abort signal), the model's Content going back into `contents` as it came (thought signatures
 * included), and `accumulateToolCalls("gemini")` for the stream chunks (each holds whole `functionCall` parts).
 *
 * The subset has no `$ref`, `additionalProperties`, `const` or tuples, and takes enums of strings only, so the
 * JSON Schema is rewritten (`GeminiWriter`):
 * - references are inlined; a recursive type is unrolled `recursionDepth` times (default 3) along each path. Where
 *   the unrolling stops, an optional property is left out, an array must be empty and a nullable value must be
 *   null, each said in the description. A recursion that is required at every level cannot stop: that is an error.
 * - `T | null` becomes `nullable: true`; a `const` becomes a one-value enum (strings) or a sentence (other values);
 *   numeric enums, exclusive bounds, `multipleOf`, `uniqueItems` and formats Gemini does not know become sentences
 *   in the description; integer bounds (`minItems`, …) become strings, as Gemini's int64 fields are.
 * - what the subset cannot hold (a `Record`, an untyped value) is a ToolExportError with the path; the full JSON
 *   Schema can be sent instead with `{ jsonSchema: true }` (`parametersJsonSchema`).
 * Dispatch still validates against the original schema, so nothing the rewrite relaxes goes unchecked.
 *
 * The SDK's `Type` and `FunctionCallingConfigMode` are TypeScript enums; TypeScript treats enums of the same name
 * and members as interchangeable, so the copies below (same names, same members) keep our types assignable to the
 * `@google/genai` types without our .d.ts files importing that optional peer. The checks at the bottom enforce it.
 */
import type {
  Content,
  FunctionDeclaration,
  GenerateContentResponse,
  GoogleGenAI,
  FunctionCallingConfigMode as SdkFunctionCallingConfigMode,
  Schema,
  Tool,
  ToolConfig,
  Type as SdkType,
} from "@google/genai" with { "resolution-mode": "import" };
import { isAnySchema, isRecord, json, pointerSegment, refName, resolveRef, showPath } from "../arguments/json-schema";
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import type { ToolContentPart } from "../tool/content";
import { ToolExportError } from "../tool/errors";
import type { JsonSchema, JsonValue } from "../tool/meta";
import {
  type LoopReply,
  type ProviderLoop,
  type ToolChoice,
  type ToolChoiceOptions,
  type ToolFormatSource,
  type ToolProvider,
  argsCall,
  isAsyncIterable,
} from "./provider";
import { FunctionCallingConfigMode, Type } from "./gemini/enums";
import { ownsGemini } from "./sniff";

export { FunctionCallingConfigMode, Type };
import { CallState, StreamAccumulator, type UpdateDraft } from "./stream";

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
  functionResponse: { id?: string; name: string; response: Record<string, unknown>; parts?: GeminiFunctionResponseMedia[] };
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

const DEFAULT_RECURSION_DEPTH = 3;

const TYPES: Record<string, Type> = {
  string: Type.STRING,
  number: Type.NUMBER,
  integer: Type.INTEGER,
  boolean: Type.BOOLEAN,
  array: Type.ARRAY,
  object: Type.OBJECT,
  null: Type.NULL,
};

/** The formats Gemini takes, by type; others become a sentence. */
const FORMATS: Partial<Record<Type, readonly string[]>> = {
  [Type.STRING]: ["enum", "date-time"],
  [Type.NUMBER]: ["float", "double"],
  [Type.INTEGER]: ["int32", "int64"],
};

/** A parameter name Gemini accepts. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function toGeminiFunctionDeclaration(tool: ToolFormatSource, options: GeminiToolsOptions = {}): GeminiFunctionDeclaration {
  if (!/^[A-Za-z_]/.test(tool.name)) {
    throw new ToolExportError(
      `Tool "${tool.name}" cannot be written for Gemini: a function name must start with a letter or an underscore. Rename it with the { name } option of @tool / tool().`,
      { format: "gemini", toolName: tool.name },
    );
  }
  const declaration: FunctionDeclaration = { name: tool.name };
  if (tool.description !== "") declaration.description = tool.description;
  const properties = isRecord(tool.parameters.properties) ? Object.keys(tool.parameters.properties) : [];
  if (options.jsonSchema) {
    if (properties.length > 0) declaration.parametersJsonSchema = tool.parameters;
    return declaration;
  }
  for (const name of properties) {
    if (!PARAMETER_NAME.test(name)) {
      throw new ToolExportError(
        `Tool "${tool.name}" cannot be written for Gemini: the parameter name "${name}" must start with a letter or an underscore and hold only letters, digits and underscores (at most 64). Rename the parameter.`,
        { format: "gemini", toolName: tool.name, path: `/properties/${pointerSegment(name)}` },
      );
    }
  }
  if (properties.length > 0) {
    const depth = Math.max(1, Math.floor(options.recursionDepth ?? DEFAULT_RECURSION_DEPTH));
    declaration.parameters = new GeminiWriter(tool.name, tool.parameters, depth).root();
  }
  return declaration;
}

/** `[{ functionDeclarations }]`, ready for `config.tools`. */
export function toGeminiTools(tools: Iterable<ToolFormatSource>, options: GeminiToolsOptions = {}): GeminiTool[] {
  const functionDeclarations = Array.from(tools, (tool) => toGeminiFunctionDeclaration(tool, options));
  const entry: Tool = { functionDeclarations };
  return [entry];
}

/**
 * One `user` content of `functionResponse` parts. On success `response` is `{ output }`: the parsed value when the
 * content is a JSON object or array (what the tool returned), else the text. On failure it is `{ error: text }`.
 */
export function toGeminiFunctionResponses(results: readonly ToolMessage[]): GeminiFunctionResponseContent {
  const parts = results.map((result): GeminiFunctionResponsePart => {
    const response = result.status === "error" ? { error: result.content } : { output: result.parts ? result.content : structured(result.content) };
    const functionResponse: GeminiFunctionResponsePart["functionResponse"] = { name: result.name, response };
    const media = result.parts ? geminiMedia(result.parts) : [];
    if (media.length > 0) functionResponse.parts = media;
    if (result.tool_call_id !== "") functionResponse.id = result.tool_call_id;
    return { functionResponse };
  });
  return { role: "user", parts };
}

/**
 * The images and files of a result as `functionResponse.parts`: inline data as `inlineData`, a URL as `fileData`
 * (a Files API or Cloud Storage URI; its media type is required there, so a URL without one is left to the
 * label in `output`). Text parts are in `output` already.
 */
export function geminiMedia(parts: readonly ToolContentPart[]): GeminiFunctionResponseMedia[] {
  const media: GeminiFunctionResponseMedia[] = [];
  for (const part of parts) {
    if (part.type === "text") continue;
    const name = part.type === "file" && part.filename !== undefined ? { displayName: part.filename } : {};
    if (part.data !== undefined) media.push({ inlineData: { mimeType: part.mediaType, data: part.data, ...name } });
    else if (part.mediaType !== undefined) media.push({ fileData: { mimeType: part.mediaType, fileUri: part.url, ...name } });
  }
  return media;
}

function structured(content: string): unknown {
  const first = content.trimStart()[0];
  if (first !== "{" && first !== "[") return content;
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}

/** `auto` → AUTO, `required` → ANY, `none` → NONE, a name → ANY with `allowedFunctionNames: [name]`. */
export function geminiToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): GeminiToolConfigParams {
  if (options.parallel === false) {
    throw new ToolExportError(
      "Gemini has no switch to turn parallel function calls off; leave out { parallel: false } for Gemini (and answer every call of a turn, which dispatch does).",
      { format: "gemini" },
    );
  }
  const functionCallingConfig: GeminiToolConfigParams["toolConfig"]["functionCallingConfig"] =
    choice === "auto"
      ? { mode: FunctionCallingConfigMode.AUTO }
      : choice === "none"
        ? { mode: FunctionCallingConfigMode.NONE }
        : choice === "required"
          ? { mode: FunctionCallingConfigMode.ANY }
          : { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice] };
  return { toolConfig: { functionCallingConfig } };
}

/** `functionCall` parts of the first candidate's content, or of the Content itself. */
export function readGeminiCalls(message: GeminiInput): NormalizedCall[] {
  const record = message as Record<string, unknown>;
  let parts: unknown = record.parts;
  if (Array.isArray(record.candidates)) {
    const candidate: unknown = record.candidates[0];
    const content = typeof candidate === "object" && candidate !== null ? (candidate as { content?: unknown }).content : undefined;
    parts = typeof content === "object" && content !== null ? (content as { parts?: unknown }).parts : undefined;
  }
  const calls: NormalizedCall[] = [];
  if (!Array.isArray(parts)) return calls;
  for (const part of parts) {
    if (typeof part !== "object" || part === null) continue;
    const call: unknown = (part as { functionCall?: unknown }).functionCall;
    if (typeof call !== "object" || call === null) continue;
    const fields = call as Record<string, unknown>;
    calls.push(argsCall(fields, fields.args));
  }
  return calls;
}

/** A part of a Content as the loop types it (others, such as thoughts and their signatures, pass through as they are). */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: GeminiFunctionCall;
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
}

/** A `functionCall`: the model's call of one function (`id` only where the API gives one). */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
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

/** Config fields the loop writes. */
const OWNED_CONFIG = ["tools", "toolConfig", "abortSignal"];

/** The agent loop on Gemini (`client.models`). */
const geminiLoop: ProviderLoop<GeminiModelsClient, GeminiLoopParams, GeminiContent, GeminiContent, GeminiFunctionCall, GeminiResponse> = {
  isClient: (client) => typeof (client as { models?: { generateContent?: unknown } }).models?.generateContent === "function",
  owned: [],
  conversation: (params) => (typeof params.contents === "string" ? [{ role: "user", parts: [{ text: params.contents }] }] : [...params.contents]),
  request(params, step) {
    const config: Record<string, unknown> = { ...(params.config as Record<string, unknown> | undefined) };
    for (const field of OWNED_CONFIG) {
      if (field in config) throw new TypeError(`runTools: params.config.${field} is set by the loop; use the options (toolChoice, signal) instead.`);
    }
    const declarations = [...step.tools, ...step.loopTools];
    if (declarations.length > 0) {
      // The loop's own tools take free-form values that the OpenAPI subset cannot hold: their JSON Schema goes as is.
      const functionDeclarations = [
        ...step.tools.map((tool) => toGeminiFunctionDeclaration(tool)),
        ...step.loopTools.map((tool) => toGeminiFunctionDeclaration(tool, { jsonSchema: true })),
      ];
      config.tools = [{ functionDeclarations }];
      if (step.toolChoice !== undefined) config.toolConfig = geminiToolChoice(step.toolChoice).toolConfig;
    }
    if (step.output) {
      if ("responseJsonSchema" in config || "responseSchema" in config) {
        throw new TypeError("runTools: params.config.responseJsonSchema is set by the loop; use the responseFormat option instead.");
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
    if (isAsyncIterable(response)) throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
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
      candidates: [{ ...candidate, content: { ...candidate.content, parts: [part] }, ...(i === parts.length - 1 ? {} : { finishReason: undefined }) }],
    }));
  },
  accumulate: () => new GeminiAccumulator(),
  read(reply): LoopReply<GeminiContent, GeminiContent, GeminiFunctionCall> {
    const parts = reply.parts ?? [];
    const calls = parts
      .filter((part): part is GeminiPart & { functionCall: GeminiFunctionCall } => typeof part.functionCall === "object" && part.functionCall !== null)
      .map((part) => ({ call: part.functionCall, read: geminiLoop.readCall(part.functionCall) }));
    const texts = parts.filter((part) => typeof part.text === "string" && part.thought !== true).map((part) => part.text as string);
    return { message: reply, items: [reply], calls, text: texts.length > 0 ? texts.join("") : null, refusal: null };
  },
  readCall: (call) => argsCall(call as Record<string, unknown>, call.args),
  answer: (_reply, results) => [toGeminiFunctionResponses(results)],
  userTurn: (text) => ({ role: "user", parts: [{ text }] }),
};

/**
 * Gemini stream chunks in, complete `functionCall` parts out: each chunk is a response whose first candidate holds
 * some parts; a call arrives whole in one part, so it is complete as soon as it is read. `done()` is the model's
 * Content, its parts in the order they came.
 */
class GeminiAccumulator extends StreamAccumulator<GeminiResponse, GeminiFunctionCall, GeminiContent> {
  readonly #parts: GeminiPart[] = [];
  readonly #calls: CallState[] = [];
  readonly #complete: GeminiFunctionCall[] = [];

  constructor() {
    super("gemini");
  }

  protected read(chunk: GeminiResponse, update: UpdateDraft<GeminiFunctionCall>): void {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      this.#parts.push(part);
      if (typeof part.text === "string" && part.thought !== true && part.text !== "") {
        this.text += part.text;
        update.text += part.text;
      }
      const call = part.functionCall;
      if (typeof call === "object" && call !== null) {
        const state = new CallState(this.#calls.length);
        state.id = typeof call.id === "string" ? call.id : "";
        state.name = typeof call.name === "string" ? call.name : "";
        state.arguments = JSON.stringify(call.args ?? {});
        state.complete = true;
        this.#calls.push(state);
        this.#complete.push(call);
        update.deltas.push({ call: state, argumentsDelta: state.arguments });
        update.completed.push(call);
      }
    }
    if (typeof candidate?.finishReason === "string") {
      this.finish = candidate.finishReason;
      update.finishReason = candidate.finishReason;
    }
  }

  get refusal(): null {
    return null;
  }

  get calls(): GeminiFunctionCall[] {
    return [...this.#complete];
  }

  get partial(): CallState[] {
    return [...this.#calls];
  }

  protected reply(): GeminiContent {
    return { role: "model", parts: [...this.#parts] };
  }
}


/** Gemini: a `GenerateContentResponse` (`candidates`, `functionCalls`, `usageMetadata`) or a `Content` (`parts`). */
export const gemini: ToolProvider<GeminiInput, GeminiFunctionResponseContent, GeminiTool[], GeminiToolsOptions, GeminiToolConfigParams> = {
  name: "gemini",
  owns: ownsGemini,
  readCalls: readGeminiCalls,
  answer: (_message, results) => toGeminiFunctionResponses(results),
  exportTools: toGeminiTools,
  toolChoice: geminiToolChoice,
  loop: geminiLoop as ProviderLoop,
};

/** Where an unrolled recursion stopped: the enclosing optional property, array or nullable value decides what then. */
const CUT = Symbol("recursion cut");
type Written = GeminiSchema | typeof CUT;

class GeminiWriter {
  /** The last recursion cut, for the error when nothing can absorb it. */
  #cut: { path: string; ref: string } | undefined;

  constructor(
    private readonly tool: string,
    private readonly original: JsonSchema,
    private readonly depth: number,
  ) {}

  root(): GeminiSchema {
    const written = this.write(this.original, "", []);
    if (written === CUT) {
      const cut = this.#cut!;
      this.fail(
        cut.path,
        `holds the recursive type "${refName(cut.ref)}", which is required at every level, so no depth of unrolling ends it (Gemini schemas have no $ref)`,
        "make the recursive property optional or nullable, or put it in an array",
      );
    }
    return written;
  }

  private write(schema: JsonValue | undefined, path: string, expanding: readonly string[]): Written {
    if (isAnySchema(schema)) {
      this.fail(path, "accepts any value (unknown or any)", "Gemini needs a type at every level; give it a concrete type");
    }
    if (!isRecord(schema)) this.fail(path, "is not a schema Gemini can express", "give it a concrete type");

    const ref = schema.$ref;
    if (typeof ref === "string") {
      if (expanding.filter((r) => r === ref).length >= this.depth) {
        this.#cut = { path, ref };
        return CUT;
      }
      const target = resolveRef(this.original, ref);
      if (target === undefined) this.fail(path, `refers to ${ref}, which does not resolve`, "rebuild with the tooltype transformer");
      const inner = this.write(target, path, [...expanding, ref]);
      if (inner === CUT) return CUT;
      // The description at the reference and the definition's own (with its notes) both reach the model.
      const site: JsonSchema = { ...schema };
      if (typeof schema.description === "string" && inner.description !== undefined && inner.description !== schema.description) {
        site.description = joinSentences([schema.description, inner.description]);
      }
      return this.annotate({ ...inner }, site, []);
    }

    const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (branches) return this.union(schema, branches, path, expanding);

    const declared = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === "string") : [];
    const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const ?? null] : undefined;
    const nullable = declared.includes("null") || (values?.includes(null) ?? false);
    let types = declared.filter((t) => t !== "null");
    if (types.length === 0 && values) types = [...new Set(values.filter((v) => v !== null).map(jsonType))];
    if (types.length === 0) return nullable ? { type: Type.NULL } : this.fail(path, "has no type", "give it a concrete type");
    if (types.length > 1) {
      // Several types at once (a mixed enum, `string | number`): one branch per type.
      const anyOf = types.map((type) => {
        const branch: JsonSchema = { ...schema, type };
        if (values) branch.enum = values.filter((v) => v !== null && typesMatch(jsonType(v), type));
        delete branch.const;
        return this.write(branch, path, expanding);
      });
      if (anyOf.includes(CUT)) return CUT;
      const out: GeminiSchema = { anyOf: anyOf as GeminiSchema[] };
      if (nullable) out.nullable = true;
      return this.annotate(out, schema, []);
    }
    return this.typed(schema, types[0]!, values?.filter((v) => v !== null), nullable, path, expanding);
  }

  /** `anyOf` / `oneOf`: a `{type: "null"}` branch becomes `nullable`; branches cut by recursion are left out. */
  private union(schema: JsonSchema, branches: JsonValue[], path: string, expanding: readonly string[]): Written {
    const isNull = (b: JsonValue): boolean => isRecord(b) && b.type === "null" && Object.keys(b).every((k) => k === "type" || k === "description");
    const nullable = branches.some(isNull);
    const notes: string[] = [];
    const written: GeminiSchema[] = [];
    branches.forEach((branch, i) => {
      if (isNull(branch)) return;
      const out = this.write(branch, `${path}/anyOf/${i}`, expanding);
      if (out !== CUT) written.push(out);
    });
    if (written.length === 0) {
      if (!nullable) return CUT;
      return this.annotate({ type: Type.NULL }, schema, ["Always null here: the nesting limit is reached."]);
    }
    if (written.length < branches.filter((b) => !isNull(b)).length) notes.push("Some alternatives are left out here: the nesting limit is reached.");
    const out: GeminiSchema = written.length === 1 ? { ...written[0]! } : { anyOf: written };
    if (nullable) out.nullable = true;
    return this.annotate(out, schema, notes);
  }

  private typed(
    schema: JsonSchema,
    type: string,
    values: JsonValue[] | undefined,
    nullable: boolean,
    path: string,
    expanding: readonly string[],
  ): Written {
    const geminiType = TYPES[type];
    if (!geminiType) this.fail(path, `has the type ${json(type)}`, "use a JSON Schema type");
    const out: GeminiSchema = { type: geminiType };
    const notes: string[] = [];
    if (nullable) out.nullable = true;

    if (values && values.length > 0) {
      if (geminiType === Type.STRING) out.enum = values.map(String);
      else notes.push(values.length === 1 ? `Must be ${json(values[0])}.` : `One of: ${values.map(json).join(", ")}.`);
    }
    if (typeof schema.format === "string") {
      if (FORMATS[geminiType]?.includes(schema.format)) out.format = schema.format;
      else notes.push(`Format: ${schema.format}.`);
    }
    if (typeof schema.pattern === "string") out.pattern = schema.pattern;
    if (typeof schema.minimum === "number") out.minimum = schema.minimum;
    if (typeof schema.maximum === "number") out.maximum = schema.maximum;
    if (typeof schema.exclusiveMinimum === "number") notes.push(`Greater than ${schema.exclusiveMinimum}.`);
    if (typeof schema.exclusiveMaximum === "number") notes.push(`Less than ${schema.exclusiveMaximum}.`);
    if (typeof schema.multipleOf === "number") notes.push(`A multiple of ${schema.multipleOf}.`);
    for (const keyword of ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"] as const) {
      const bound = schema[keyword];
      if (typeof bound === "number") out[keyword] = String(bound);
    }
    if (schema.uniqueItems === true) notes.push("Items must be unique.");

    if (geminiType === Type.ARRAY) {
      const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : undefined;
      if (tuple) {
        // No tuples in the subset: items of any listed type, the count fixed, the order said in words.
        const members = tuple.map((item, i) => this.write(item, `${path}/prefixItems/${i}`, expanding));
        if (members.includes(CUT)) return CUT;
        const unique = dedupe(members as GeminiSchema[]);
        out.items = unique.length === 1 ? unique[0]! : { anyOf: unique };
        notes.push(`A list of exactly these ${tuple.length} items in order: ${tuple.map(describeItem).join(", ")}.`);
      } else if (schema.items !== undefined) {
        const items = this.write(schema.items, `${path}/items`, expanding);
        if (items === CUT) {
          // Stop the recursion with an empty list; the placeholder item type is never used.
          out.items = { type: Type.STRING };
          out.maxItems = "0";
          notes.push("Always empty here: the nesting limit is reached.");
        } else {
          out.items = items;
        }
      } else {
        this.fail(path, "is an array without an item type", "give its items a type");
      }
    }

    if (geminiType === Type.OBJECT) {
      const source = isRecord(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      const properties: Record<string, GeminiSchema> = {};
      const left: string[] = [];
      for (const [name, child] of Object.entries(source)) {
        const written = this.write(child, `${path}/properties/${pointerSegment(name)}`, expanding);
        if (written !== CUT) properties[name] = written;
        else if (required.has(name)) return CUT;
        else left.push(name);
      }
      const additional = schema.additionalProperties;
      if (additional !== undefined && additional !== false) {
        this.fail(
          path,
          "is a Record or index signature (an object with free-form keys)",
          "Gemini's schema subset needs an object's properties listed; use an interface with named properties",
        );
      }
      const names = Object.keys(properties);
      if (names.length === 0) {
        this.fail(path, "is an object without properties", "Gemini rejects an OBJECT without properties; give it named properties");
      }
      out.properties = properties;
      const kept = names.filter((name) => required.has(name));
      if (kept.length > 0) out.required = kept;
      out.propertyOrdering = names;
      if (left.length > 0) notes.push(`${left.map((n) => `"${n}"`).join(", ")} cannot be given here: the nesting limit is reached.`);
    }
    return this.annotate(out, schema, notes);
  }

  /** Description (with the notes), title, default and example; `deprecated` becomes a sentence. */
  private annotate(out: GeminiSchema, schema: JsonSchema, notes: string[]): GeminiSchema {
    if (typeof schema.title === "string") out.title = schema.title;
    if (schema.deprecated !== undefined && schema.deprecated !== false) {
      notes.push(typeof schema.deprecated === "string" && schema.deprecated !== "" ? `Deprecated: ${schema.deprecated}` : "Deprecated.");
    }
    const base = typeof schema.description === "string" ? schema.description : out.description;
    const text = [base, ...notes].filter((t): t is string => typeof t === "string" && t !== "");
    if (text.length > 0) out.description = joinSentences(text);
    if (schema.default !== undefined) out.default = schema.default;
    if (Array.isArray(schema.examples) && schema.examples.length > 0) out.example = schema.examples[0];
    return out;
  }

  private fail(path: string, problem: string, fix: string): never {
    throw new ToolExportError(
      `Tool "${this.tool}" cannot be written for Gemini: ${showPath(path)} ${problem}; ${fix}. Or send the full JSON Schema with toGeminiTools({ jsonSchema: true }).`,
      { format: "gemini", toolName: this.tool, path },
    );
  }
}

function jsonType(value: JsonValue): string {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return "string";
  return value === null ? "null" : Array.isArray(value) ? "array" : "object";
}

function typesMatch(valueType: string, schemaType: string): boolean {
  return valueType === schemaType || (valueType === "integer" && schemaType === "number");
}

function describeItem(schema: JsonValue): string {
  if (!isRecord(schema)) return "a value";
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  return typeof schema.type === "string" ? schema.type : Array.isArray(schema.type) ? schema.type.join(" or ") : "a value";
}

function dedupe(schemas: GeminiSchema[]): GeminiSchema[] {
  const seen = new Set<string>();
  return schemas.filter((schema) => {
    const key = JSON.stringify(schema);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function joinSentences(parts: string[]): string {
  return parts.reduce((text, part) => (text === "" ? part : /[.!?:)]$/.test(text.trimEnd()) ? `${text.trimEnd()} ${part}` : `${text.trimEnd()}. ${part}`), "");
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
void [sameType, sameMode, sameSchema, sameDeclaration, sameTool, fitsAnswer, fitsConfig, fitsClient, fitsResponse, fitsContent];
