/**
 * OpenAI Chat Completions, both ways, as two providers: `openAIChat` (also LangChain-style `AIMessage`s) and
 * `openAIFunctions` (the legacy functions API, in openai-chat/functions.ts). Owns the `tools` of a request (optionally rewritten for strict mode,
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
import type { ChatCompletionFunctionTool, ChatCompletionToolChoiceOption } from "openai/resources/chat/completions";
import type { ToolMessage } from "../dispatch/messages";
import {
  type ProviderLoop,
  type ToolChoice,
  type ToolChoiceOptions,
  type ToolProvider,
  isAsyncIterable,
  isChoiceMode,
} from "./provider";
import { type OpenAIToolsOptions, toOpenAITool, toOpenAITools, toResponseFormat } from "./openai-chat/tools";
import type {
  ChatAssistantMessage,
  ChatCompletionRequest,
  ChatCompletionResult,
  ChatCompletionStreamChunk,
  ChatCompletionsClient,
  ChatMessageParam,
  ChatToolCall,
  OpenAIFunctionTool,
  OpenAIToolChoice,
} from "./openai-chat/client";
import { accumulateChatToolCalls } from "./openai-chat/stream";
import { type DispatchInput, hasFunctionCall, readChatCalls, readToolCall } from "./openai-chat/read";
import { ownsChat } from "./sniff";
import { chatAttachments } from "./openai-chat/attachments";

export type { JsonSchemaResponseFormat, OpenAICustomToolCall, OpenAIFunctionTool, OpenAIToolChoice } from "./openai-chat/client";
export type { AIMessage, DispatchInput, InvalidToolCall, OpenAIAssistantMessage, OpenAIFunctionCallMessage, OpenAIToolCall, ToolCallInput } from "./openai-chat/read";
export { hasFunctionCall, readChatCalls, readToolCall };
export type { OpenAIFunctionChoiceParams, OpenAIFunctionDefinition, OpenAIFunctionMessage } from "./openai-chat/functions";
export { openAIFunctionChoice, openAIFunctions, toOpenAIFunctionMessage, toOpenAIFunctions } from "./openai-chat/functions";
export { type OpenAIToolsOptions, toOpenAITool, toOpenAITools, toResponseFormat };

/** Request fields for the tool choice: spread them into `chat.completions.create({ ... })`. */
export interface OpenAIToolChoiceParams {
  tool_choice: OpenAIToolChoice;
  /** `false` when `{ parallel: false }` was asked for (strict tools and parallel calls do not mix, says OpenAI). */
  parallel_tool_calls?: boolean;
}

/** `tool_choice` (and `parallel_tool_calls`) for Chat Completions. */
export function openAIToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): OpenAIToolChoiceParams {
  const tool_choice: ChatCompletionToolChoiceOption & OpenAIToolChoice =
    isChoiceMode(choice) ? choice : { type: "function", function: { name: choice } };
  const params: OpenAIToolChoiceParams = { tool_choice };
  if (options.parallel !== undefined) params.parallel_tool_calls = options.parallel;
  return params;
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
  owns: ownsChat,
  readCalls: readChatCalls,
  // Chat answers are the ToolMessages themselves.
  answer: (_message, results) => [...results],
  exportTools: toOpenAITools,
  toolChoice: openAIToolChoice,
  loop: chatLoop as ProviderLoop,
};

// The build-time checks promised above; they compile only while the types fit.
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<OpenAIFunctionTool, ChatCompletionFunctionTool> = true;
const fitsChoice: [OpenAIToolChoice] extends [ChatCompletionToolChoiceOption] ? true : false = true;
void [sameTool, fitsChoice];
