/**
 * The agent loop on Chat Completions (`client.chat.completions.create`, whole or streamed): the request (tools,
 * `tool_choice`, `response_format` for a structured answer), the assistant message going back into `messages`,
 * then the tool messages (and the images and files of results, in a user message after them).
 */
import { type ProviderLoop, isAsyncIterable } from "../provider";
import { answerChatInLoop } from "./answer";
import { openAIToolChoice } from "./choice";
import { readToolCall } from "./read";
import { accumulateChatToolCalls } from "./stream";
import { toOpenAITool, toOpenAITools, toResponseFormat } from "./tools";
import type {
  ChatAssistantMessage,
  ChatCompletionRequest,
  ChatCompletionResult,
  ChatCompletionStreamChunk,
  ChatCompletionsClient,
  ChatMessageParam,
  ChatToolCall,
} from "./wire";

/** What `runTools` sends to Chat Completions besides the tools: the model and the conversation (other fields pass through). */
export interface ChatLoopParams {
  model: string;
  messages: readonly ChatMessageParam[];
}

/** The agent loop on Chat Completions (`client.chat.completions.create`). */
export const loop: ProviderLoop<
  ChatCompletionsClient,
  ChatLoopParams,
  unknown,
  ChatAssistantMessage,
  ChatToolCall,
  ChatCompletionStreamChunk
> = {
  isClient: (client) =>
    typeof (client as { chat?: { completions?: { create?: unknown } } }).chat?.completions?.create === "function",
  narrowsTools: true,
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
    const tools = [
      ...toOpenAITools(
        step.tools,
        step.strict === undefined ? { customTools: true } : { strict: step.strict, customTools: true },
      ),
      ...step.loopTools.map((tool) => toOpenAITool(tool)),
    ];
    // An empty `tools` list (and a tool choice without tools) is refused by OpenAI: leave them out.
    if (tools.length > 0) {
      body.tools = tools;
      // With allowedTools, the step's active tools are named in the choice (`allowed_tools`), the list unchanged.
      if (step.toolChoice !== undefined || step.allowed !== undefined) {
        const allowed = step.allowed === undefined ? {} : { allowed: step.allowed };
        body.tool_choice = openAIToolChoice(step.toolChoice ?? "auto", allowed).tool_choice;
      }
      if (step.parallelToolCalls !== undefined) body.parallel_tool_calls = step.parallelToolCalls;
    }
    if (step.output) body.response_format = toResponseFormat(step.output);
    if (step.stream) body.stream = true;
    return body;
  },
  send: (client, request, signal) =>
    client.chat.completions.create(request as unknown as ChatCompletionRequest, { signal }),
  reply(response) {
    if (isAsyncIterable(response))
      throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
    const message = (response as ChatCompletionResult | undefined)?.choices?.[0]?.message;
    if (typeof message !== "object" || message === null) {
      throw new TypeError(
        "runTools: the completion has no choices[0].message; is the client an OpenAI-compatible Chat Completions client?",
      );
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
    return {
      message,
      items: [message],
      calls,
      text: message.content,
      refusal: typeof message.refusal === "string" && message.refusal !== "" ? message.refusal : null,
    };
  },
  readCall: readToolCall,
  answer: (_reply, results) => answerChatInLoop(results),
  userTurn: (text) => ({ role: "user", content: text }),
};

/** A chunk split so that each part carries at most one tool call fragment; the text goes first, the finish last. */
function oneFragmentEach(chunk: ChatCompletionStreamChunk): ChatCompletionStreamChunk[] {
  const choice = chunk.choices?.find((c) => c.index === 0);
  const fragments = choice?.delta?.tool_calls ?? [];
  if (!choice || fragments.length <= 1) return [chunk];
  const { tool_calls: _, ...rest } = choice.delta;
  return fragments.map((fragment, i) => ({
    choices: [
      {
        index: 0,
        delta: i === 0 ? { ...rest, tool_calls: [fragment] } : { tool_calls: [fragment] },
        finish_reason: i === fragments.length - 1 ? choice.finish_reason : null,
      },
    ],
  }));
}
