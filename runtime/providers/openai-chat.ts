/**
 * OpenAI Chat Completions, both ways, as two providers: `openAIChat` (also LangChain-style `AIMessage`s) and
 * `openAIFunctions` (the legacy functions API). Owns the `tools` of a request (optionally rewritten for strict mode,
 * see strict.ts), the legacy `functions` list, reading `tool_calls` (JSON-string arguments, parsed later per call so
 * that a malformed call only fails itself; LangChain's parsed `args` and `invalid_tool_calls` too), answering with
 * the ToolMessages themselves (or one `function` message for a legacy `function_call`), and `tool_choice`. The
 * loop's client shapes and the stream accumulator are in openai-chat/.
 *
 * The public types are tooltype's own copies of the SDK's, and this file checks at build time that they stay
 * assignable (tool definitions: mutually): a change on OpenAI's side breaks tooltype's build, not a request. The
 * copies keep `openai` an optional peer in earnest: our .d.ts files never import it, so a project that talks to
 * another provider type-checks without the SDK installed (and without `skipLibCheck`).
 */
import type {
  ChatCompletionCreateParams,
  ChatCompletionFunctionCallOption,
  ChatCompletionFunctionMessageParam,
  ChatCompletionFunctionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import type { ToolCall } from "../tool/call";
import { ToolExportError } from "../tool/errors";
import type { JsonSchema } from "../tool/meta";
import {
  type OutputFormatSource,
  type ProviderLoop,
  type ToolChoice,
  type ToolChoiceOptions,
  type ToolFormatSource,
  type ToolProvider,
  isAsyncIterable,
  isChoiceMode,
} from "./provider";
import { checkToolCount, toStrictSchema } from "./strict";
import type {
  ChatAssistantMessage,
  ChatCompletionRequest,
  ChatCompletionResult,
  ChatCompletionStreamChunk,
  ChatCompletionsClient,
  ChatMessageParam,
  ChatToolCall,
  JsonSchemaResponseFormat,
  OpenAICustomToolCall,
  OpenAIFunctionTool,
  OpenAIToolChoice,
} from "./openai-chat/client";
import { accumulateChatToolCalls } from "./openai-chat/stream";
import { chatAttachments } from "./openai-chat/attachments";

export type { JsonSchemaResponseFormat, OpenAICustomToolCall, OpenAIFunctionTool, OpenAIToolChoice } from "./openai-chat/client";

/** A tool call whose arguments could not be parsed (LangChain `InvalidToolCall`). */
export interface InvalidToolCall {
  name?: string;
  args?: string;
  id?: string;
  error?: string;
  type?: "invalid_tool_call";
}

/** An OpenAI Chat Completions tool call: `arguments` is JSON text and may be malformed. */
export interface OpenAIToolCall {
  id: string;
  type?: "function" | string;
  function: { name: string; arguments: string };
}

/** A tool call as LangChain messages carry it: like {@link ToolCall}, but the id may be missing. */
export type ToolCallInput = Omit<ToolCall, "id"> & { id?: string };

/** A LangChain-style AI message. */
export interface AIMessage {
  content?: unknown;
  tool_calls?: ToolCallInput[];
  invalid_tool_calls?: InvalidToolCall[];
}

/** An OpenAI `ChatCompletionMessage` (or any message carrying OpenAI-shaped `tool_calls`). */
export interface OpenAIAssistantMessage {
  role?: string;
  content?: unknown;
  tool_calls?: (OpenAIToolCall | OpenAICustomToolCall)[] | null;
}

/** A Chat Completions or LangChain message: what `dispatch` answers with `ToolMessage[]`. */
export type DispatchInput = AIMessage | OpenAIAssistantMessage;

/** An assistant message of the legacy functions API: one `function_call`, answered with one `function` message. */
export interface OpenAIFunctionCallMessage {
  role?: string;
  content?: unknown;
  function_call: { name: string; arguments: string };
}

/** True for a legacy functions-API reply (a `function_call` and no `tool_calls`); narrows it for `dispatch`. */
export function hasFunctionCall<M extends object>(message: M): message is M & OpenAIFunctionCallMessage {
  const record = message as { function_call?: unknown; tool_calls?: unknown };
  const fn = record.function_call;
  return typeof fn === "object" && fn !== null && !(Array.isArray(record.tool_calls) && record.tool_calls.length > 0);
}

/** One entry of the legacy `functions` list (the SDK's `ChatCompletionCreateParams.Function`). */
export interface OpenAIFunctionDefinition {
  name: string;
  description?: string;
  parameters?: { [key: string]: unknown };
}

/** The answer to a legacy `function_call` (the SDK's `ChatCompletionFunctionMessageParam`). */
export interface OpenAIFunctionMessage {
  role: "function";
  name: string;
  content: string;
}

/** Request fields for the tool choice: spread them into `chat.completions.create({ ... })`. */
export interface OpenAIToolChoiceParams {
  tool_choice: OpenAIToolChoice;
  /** `false` when `{ parallel: false }` was asked for (strict tools and parallel calls do not mix, says OpenAI). */
  parallel_tool_calls?: boolean;
}

/** Request fields for the legacy `functions` API: `function_call`. */
export interface OpenAIFunctionChoiceParams {
  function_call: "none" | "auto" | { name: string };
}

/** `toOpenAITools` options. */
export interface OpenAIToolsOptions {
  /**
   * Strict mode (Structured Outputs) for every tool that does not set its own `strict` option: the schema is rewritten
   * into OpenAI's strict subset (see the README) and `strict: true` is sent. A tool's own option wins.
   */
  strict?: boolean;
  /**
   * Check the limits of one request, such as OpenAI's 128 tools (default `true`). Turn it off to export a large
   * registry once and send a subset per request; each tool's own schema is checked either way.
   */
  checkLimits?: boolean;
}

/** `{ type: "function", function: { name, description, parameters } }`, plus `strict` when the tool or the export sets it. */
export function toOpenAITool(tool: ToolFormatSource, options: OpenAIToolsOptions = {}): OpenAIFunctionTool {
  const strict = tool.options.strict ?? options.strict;
  const fn: ChatCompletionFunctionTool["function"] = { name: tool.name };
  // An empty description is left out rather than sent as "" (the model reads nothing either way).
  if (tool.description !== "") fn.description = tool.description;
  fn.parameters = strict === true ? toStrictSchema(tool.parameters, tool.name) : tool.parameters;
  if (typeof strict === "boolean") fn.strict = strict;
  const entry: ChatCompletionFunctionTool = { type: "function", function: fn };
  return entry;
}

export function toOpenAITools(tools: Iterable<ToolFormatSource>, options: OpenAIToolsOptions = {}): OpenAIFunctionTool[] {
  const list = Array.from(tools);
  if (options.checkLimits !== false) checkToolCount(list.length, "openai");
  return list.map((tool) => toOpenAITool(tool, options));
}

/** The legacy `functions` list: `{ name, description, parameters }` (no strict mode in that API). */
export function toOpenAIFunctions(tools: Iterable<ToolFormatSource>): OpenAIFunctionDefinition[] {
  const list = Array.from(tools);
  checkToolCount(list.length, "openai-functions");
  return list.map((tool) => {
    const fn: ChatCompletionCreateParams.Function = { name: tool.name };
    if (tool.description !== "") fn.description = tool.description;
    fn.parameters = tool.parameters;
    return fn;
  });
}

/** The answer to a legacy `function_call`: `{ role: "function", name, content }` (errors included, as text). */
export function toOpenAIFunctionMessage(results: readonly ToolMessage[]): OpenAIFunctionMessage {
  const result = results[0];
  const answer: ChatCompletionFunctionMessageParam & OpenAIFunctionMessage = {
    role: "function",
    name: result?.name ?? "",
    content: result?.content ?? "",
  };
  return answer;
}

/** `tool_choice` (and `parallel_tool_calls`) for Chat Completions. */
export function openAIToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): OpenAIToolChoiceParams {
  const tool_choice: ChatCompletionToolChoiceOption & OpenAIToolChoice =
    isChoiceMode(choice) ? choice : { type: "function", function: { name: choice } };
  const params: OpenAIToolChoiceParams = { tool_choice };
  if (options.parallel !== undefined) params.parallel_tool_calls = options.parallel;
  return params;
}

/** `function_call` for the legacy `functions` API, which has no "required". */
export function openAIFunctionChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): OpenAIFunctionChoiceParams {
  if (options.parallel !== undefined) {
    throw new ToolExportError(
      "The legacy functions API calls one function per turn and has no parallel_tool_calls switch; leave out the parallel option.",
      { format: "openai-functions" },
    );
  }
  if (choice === "required") {
    throw new ToolExportError(
      'The legacy functions API has no "required" choice: name the function the model must call (toolChoice(registry, "<name>", "openai-functions")), or use tools with tool_choice "required".',
      { format: "openai-functions" },
    );
  }
  const function_call: ChatCompletionFunctionCallOption | "none" | "auto" = isChoiceMode(choice) ? (choice as "auto" | "none") : { name: choice };
  return { function_call };
}

/** Chat Completions / LangChain: `tool_calls`, then `invalid_tool_calls` (answered after the valid ones). */
export function readChatCalls(message: DispatchInput): NormalizedCall[] {
  const toolCalls: unknown = message.tool_calls;
  const count = Array.isArray(toolCalls) ? toolCalls.length : 0;
  // Sized once: this runs for every dispatched message.
  const calls: NormalizedCall[] = new Array<NormalizedCall>(count);
  for (let i = 0; i < count; i++) calls[i] = readToolCall((toolCalls as unknown[])[i]);
  const invalid: unknown = "invalid_tool_calls" in message ? message.invalid_tool_calls : undefined;
  if (Array.isArray(invalid)) {
    for (const call of invalid) calls.push(readInvalidCall(call));
  }
  return calls;
}

/**
 * One entry of `tool_calls`, in either shape (OpenAI `function.arguments` text, LangChain parsed `args`), detected
 * per call so that a hand-built mixture still works; also `registry.invoke(call)`'s reading of one call.
 */
export function readToolCall(call: unknown): NormalizedCall {
  if (typeof call !== "object" || call === null) {
    return { kind: "invalid", id: "", name: "", error: "the tool call is not an object" };
  }
  const record = call as Record<string, unknown>;
  const id = typeof record.id === "string" ? record.id : "";
  const fn = record.function;
  if (typeof fn === "object" && fn !== null) {
    const { name, arguments: args } = fn as Partial<OpenAIToolCall["function"]>;
    const toolName = typeof name === "string" ? name : "";
    // Some gateways hand over already-parsed arguments; accept them rather than fail the call.
    if (typeof args === "string") return { kind: "text", id, name: toolName, text: args };
    if (args === undefined || args === null) return { kind: "text", id, name: toolName, text: "" };
    return { kind: "args", id, name: toolName, args };
  }
  if (record.type === "custom") {
    const custom = record.custom as { name?: unknown } | undefined;
    return {
      kind: "invalid",
      id,
      name: typeof custom?.name === "string" ? custom.name : "",
      error: "custom (free-text) tool calls are not supported; only function tools are registered",
    };
  }
  if ("args" in record) {
    const name = typeof record.name === "string" ? record.name : "";
    return { kind: "args", id, name, args: (record as Partial<ToolCall>).args };
  }
  return {
    kind: "invalid",
    id,
    name: typeof record.name === "string" ? record.name : "",
    error: "the tool call has neither `args` nor `function.arguments`",
  };
}

function readInvalidCall(call: unknown): NormalizedCall {
  const record = (typeof call === "object" && call !== null ? call : {}) as InvalidToolCall;
  return {
    kind: "invalid",
    id: typeof record.id === "string" ? record.id : "",
    name: typeof record.name === "string" ? record.name : "",
    ...(typeof record.args === "string" ? { text: record.args } : {}),
    ...(typeof record.error === "string" && record.error !== "" ? { error: record.error } : {}),
  };
}

/** OpenAI's `response_format` for a structured answer: the schema rewritten into the strict subset when `strict`. */
export function toResponseFormat(output: OutputFormatSource): JsonSchemaResponseFormat {
  const schema = output.strict ? toStrictSchema(output.schema, output.name) : output.schema;
  const json_schema: JsonSchemaResponseFormat["json_schema"] = { name: output.name, schema, strict: output.strict };
  if (output.description) json_schema.description = output.description;
  return { type: "json_schema", json_schema };
}

/** What `runTools` sends to Chat Completions besides the tools: the model and the conversation (other fields pass through). */
export interface ChatLoopParams {
  model: string;
  messages: readonly ChatMessageParam[];
}

/** The agent loop on Chat Completions (`client.chat.completions.create`). */
const chatLoop: ProviderLoop<ChatCompletionsClient, ChatLoopParams, unknown, ChatAssistantMessage, ChatToolCall, ChatCompletionStreamChunk> = {
  isClient: (client) => typeof (client as { chat?: { completions?: { create?: unknown } } }).chat?.completions?.create === "function",
  owned: [
    { field: "tools", use: "the registry's tools (and prepareStep's activeTools)" },
    { field: "tool_choice", use: "the toolChoice option" },
    { field: "parallel_tool_calls", use: "the parallelToolCalls option" },
    { field: "response_format", use: "the responseFormat option" },
    { field: "stream", use: "the stream option" },
    { field: "functions", use: "the registry's tools" },
    { field: "function_call", use: "the toolChoice option" },
  ],
  conversation: (params) => [...params.messages],
  request(params, step) {
    const body: Record<string, unknown> = { ...params, messages: [...step.items] };
    const tools = [...toOpenAITools(step.tools, step.strict === undefined ? {} : { strict: step.strict }), ...step.loopTools.map((tool) => toOpenAITool(tool))];
    // An empty `tools` list (and a tool choice without tools) is refused by OpenAI: leave them out.
    if (tools.length > 0) {
      body.tools = tools;
      if (step.toolChoice !== undefined) body.tool_choice = openAIToolChoice(step.toolChoice).tool_choice;
      if (step.parallelToolCalls !== undefined) body.parallel_tool_calls = step.parallelToolCalls;
    }
    if (step.output) body.response_format = toResponseFormat(step.output);
    if (step.stream) body.stream = true;
    return body;
  },
  send: (client, request, signal) => client.chat.completions.create(request as unknown as ChatCompletionRequest, { signal }),
  reply(response) {
    if (isAsyncIterable(response)) throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
    const message = (response as ChatCompletionResult | undefined)?.choices?.[0]?.message;
    if (typeof message !== "object" || message === null) {
      throw new TypeError("runTools: the completion has no choices[0].message; is the client an OpenAI-compatible Chat Completions client?");
    }
    return message;
  },
  split: oneFragmentEach,
  accumulate: accumulateChatToolCalls,
  read(reply) {
    // Some gateways send `tool_calls: []` with a final answer; OpenAI refuses an empty list when it is sent back.
    let message = reply;
    if (Array.isArray(reply.tool_calls) && reply.tool_calls.length === 0) {
      const { tool_calls: _, ...rest } = reply;
      message = rest;
    }
    const calls = (message.tool_calls ?? []).map((call) => ({ call, read: readToolCall(call) }));
    return { message, items: [message], calls, text: message.content, refusal: typeof message.refusal === "string" && message.refusal !== "" ? message.refusal : null };
  },
  readCall: readToolCall,
  // Chat answers are the ToolMessages themselves, then the images and files of results, which a tool message cannot carry.
  answer: (_reply, results) => {
    const attachments = chatAttachments(results);
    return attachments ? [...results, attachments] : [...results];
  },
  userTurn: (text) => ({ role: "user", content: text }),
};

/** A chunk split so that each part carries at most one tool call fragment; the text goes first, the finish last. */
function oneFragmentEach(chunk: ChatCompletionStreamChunk): ChatCompletionStreamChunk[] {
  const choice = chunk.choices?.find((c) => c.index === 0);
  const fragments = choice?.delta?.tool_calls ?? [];
  if (!choice || fragments.length <= 1) return [chunk];
  const { tool_calls: _, ...rest } = choice.delta;
  return fragments.map((fragment, i) => ({
    choices: [{ index: 0, delta: i === 0 ? { ...rest, tool_calls: [fragment] } : { tool_calls: [fragment] }, finish_reason: i === fragments.length - 1 ? choice.finish_reason : null }],
  }));
}

/**
 * Chat Completions and LangChain messages: a message with `tool_calls` or `invalid_tool_calls`. Also the provider of
 * last resort: a message no provider owns is read as a chat message (with no calls).
 */
export const openAIChat: ToolProvider<DispatchInput, ToolMessage[], OpenAIFunctionTool[], OpenAIToolsOptions, OpenAIToolChoiceParams> = {
  name: "openai",
  owns: (message) => "tool_calls" in message || "invalid_tool_calls" in message,
  readCalls: readChatCalls,
  // Chat answers are the ToolMessages themselves.
  answer: (_message, results) => [...results],
  exportTools: toOpenAITools,
  toolChoice: openAIToolChoice,
  loop: chatLoop as ProviderLoop,
};

/** The legacy functions API: a `function_call` (and no `tool_calls`), answered with one `function` message. */
export const openAIFunctions: ToolProvider<OpenAIFunctionCallMessage, OpenAIFunctionMessage, OpenAIFunctionDefinition[], undefined, OpenAIFunctionChoiceParams> = {
  name: "openai-functions",
  owns: hasFunctionCall,
  readCalls: (message) => [readToolCall({ id: "", function: message.function_call })],
  answer: (_message, results) => toOpenAIFunctionMessage(results),
  exportTools: (tools) => toOpenAIFunctions(tools),
  toolChoice: openAIFunctionChoice,
};

// The build-time checks promised above; they compile only while the types fit.
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<OpenAIFunctionTool, ChatCompletionFunctionTool> = true;
const sameFunction: MutuallyAssignable<OpenAIFunctionDefinition, ChatCompletionCreateParams.Function> = true;
const fitsMessage: [OpenAIFunctionMessage] extends [ChatCompletionFunctionMessageParam] ? true : false = true;
const fitsChoice: [OpenAIToolChoice] extends [ChatCompletionToolChoiceOption] ? true : false = true;
const fitsFunctionChoice: [OpenAIFunctionChoiceParams["function_call"]] extends [ChatCompletionCreateParams["function_call"]]
  ? true
  : false = true;
void [sameTool, sameFunction, fitsMessage, fitsChoice, fitsFunctionChoice];
