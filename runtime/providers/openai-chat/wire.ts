/**
 * The part of an OpenAI-compatible Chat Completions client the agent loop uses, typed structurally:
 * - `ChatCompletionsClient`: `{ chat: { completions: { create(body, options) } } }`, which the `openai` SDK's
 *   `OpenAI` client satisfies (checked at build time at the bottom of this file) and a hand-written fake can too;
 * - the request the loop sends, the completion and the stream chunks it reads, the assistant message it appends.
 *
 * These are tooltype's own copies of the SDK's types, because `openai` is an
 * optional peer, so no shipped .d.ts may import it, and the main entry must load without it. The build-time checks
 * below break tooltype's build, not a user's request, when the SDK's shapes drift.
 */
import type OpenAI from "openai";
import type { LoopTypes } from "../provider";
import type {
  ChatCompletion,
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionCustomTool,
  ChatCompletionFunctionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { ChatAttachmentsMessage } from "./attachments";
import type { ToolMessage } from "../../dispatch/messages";
import type { JsonSchema } from "../../tool/meta";

/** One entry of `tools` in an OpenAI Chat Completions request (the SDK's `ChatCompletionFunctionTool`). */
export interface OpenAIFunctionTool {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters?: { [key: string]: unknown };
    strict?: boolean | null;
  };
}

/**
 * A free-form tool as Chat Completions takes it (the SDK's `ChatCompletionCustomTool`): the model sends its input as
 * raw text, held to the grammar when there is one (its pattern, in Rust's `regex` syntax).
 */
export interface OpenAICustomTool {
  type: "custom";
  custom: {
    name: string;
    description?: string;
    format?: { type: "grammar"; grammar: { syntax: "regex"; definition: string } };
  };
}

/** One entry of `tools` in a Chat Completions request as tooltype writes it: a function, or a custom (free-form) tool. */
export type OpenAITool = OpenAIFunctionTool | OpenAICustomTool;

/** `tool_choice` of a Chat Completions request. */
export type OpenAIToolChoice =
  | "none"
  | "auto"
  | "required"
  | { type: "function"; function: { name: string } }
  | {
      type: "allowed_tools";
      allowed_tools: { mode: "auto" | "required"; tools: { type: "function"; function: { name: string } }[] };
    };

/**
 * An OpenAI custom tool call (free-text input, no JSON Schema): a free-form tool's call, its `input` the value of the
 * tool's one string parameter.
 */
export interface OpenAICustomToolCall {
  id: string;
  type: "custom";
  custom: { name: string; input: string };
}

/** OpenAI's `response_format` for a JSON Schema answer (mutually assignable with the SDK's `ResponseFormatJSONSchema`). */
export interface JsonSchemaResponseFormat {
  type: "json_schema";
  json_schema: { name: string; description?: string; schema: JsonSchema; strict: boolean };
}

/** A function tool call in an assistant message (the SDK's `ChatCompletionMessageFunctionToolCall`). */
export interface ChatFunctionToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A tool call in an assistant message: a function call, or a custom (free-form) tool's. */
export type ChatToolCall = ChatFunctionToolCall | OpenAICustomToolCall;

/** The model's reply (the SDK's `ChatCompletionMessage`, as far as the loop reads it); also valid as a request message. */
export interface ChatAssistantMessage {
  role: "assistant";
  content: string | null;
  refusal?: string | null;
  tool_calls?: ChatToolCall[];
}

/** The roles of Chat Completions request messages. */
export type ChatRole = "developer" | "system" | "user" | "assistant" | "tool" | "function";

/** Any request message: the loop passes the caller's messages through as they are. */
export interface ChatMessageParam {
  role: ChatRole;
  content?: unknown;
}

/** The messages the loop adds to a conversation: the model's replies, the tool answers, and feedback on an unusable answer. */
export type AgentMessage =
  | ChatAssistantMessage
  | ToolMessage
  | { role: "user"; content: string }
  | ChatAttachmentsMessage;

/**
 * A message of the request as the client sees it. The loop writes the assistant and tool messages itself; the
 * caller's own messages are passed through as given (content parts such as images included) and typed here by
 * their plain-text form.
 */
export type ChatRequestMessage =
  | { role: "developer"; content: string; name?: string }
  | { role: "system"; content: string; name?: string }
  | { role: "user"; content: string; name?: string }
  | ChatAssistantMessage
  | { role: "tool"; tool_call_id: string; content: string };

/** The request the loop sends (plus whatever other fields the caller put in `params`, passed through unchanged). */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatRequestMessage[];
  tools?: OpenAITool[];
  tool_choice?: OpenAIToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: JsonSchemaResponseFormat;
  stream?: boolean;
}

/** Per-request options: the loop passes its `signal`. */
export interface ChatRequestOptions {
  signal?: AbortSignal;
}

/** A non-streamed completion, as far as the loop reads it. */
export interface ChatCompletionResult {
  choices: { message: ChatAssistantMessage; finish_reason?: string | null }[];
}

/**
 * One `delta.tool_calls` fragment of a stream chunk: by `index`, the id and name first, then the arguments in pieces.
 * Some compatible APIs (Mistral) send each call whole in one fragment, with its `id` and no `index`.
 */
export interface ChatToolCallDelta {
  index?: number;
  id?: string;
  type?: "function";
  function?: { name?: string; arguments?: string };
}

/** One chunk of a streamed completion (the SDK's `ChatCompletionChunk`, as far as it is read). */
export interface ChatCompletionStreamChunk {
  choices: {
    index: number;
    delta: { content?: string | null; refusal?: string | null; role?: string; tool_calls?: ChatToolCallDelta[] };
    finish_reason: string | null;
  }[];
}

/** An OpenAI-compatible client: `new OpenAI()` from the `openai` package is one. */
export interface ChatCompletionsClient {
  chat: {
    completions: {
      /** Send one request; with `stream: true` the result is an async iterable of chunks. */
      create(
        body: ChatCompletionRequest,
        options?: ChatRequestOptions,
      ): PromiseLike<ChatCompletionResult | AsyncIterable<ChatCompletionStreamChunk>>;
    };
  };
}

/** Chat Completions: the assistant message, its `tool_calls` entries, and the messages the loop adds. */
export interface ChatLoopTypes extends LoopTypes {
  readonly reply: ChatAssistantMessage;
  readonly call: ChatToolCall;
  readonly item: AgentMessage;
}

/** What to send besides the tools: the model, the conversation so far, and any other request fields (passed through). */
export interface RunToolsParams {
  model: string;
  messages: readonly ChatMessageParam[];
  /** Set by the loop from the registry: leave it out. */
  tools?: never;
  /** Set by the loop: use the `toolChoice` option. */
  tool_choice?: never;
  /** Set by the loop: use the `parallelToolCalls` option. */
  parallel_tool_calls?: never;
  /** Set by the loop: use the `responseFormat` option. */
  response_format?: never;
  /** Set by the loop: use the `stream` option. */
  stream?: never;
}

// The build-time checks promised above; they compile only while the types fit.
const fitsClient: [OpenAI] extends [ChatCompletionsClient] ? true : false = true;
const fitsRequest: [ChatCompletionRequest] extends [ChatCompletionCreateParamsBase] ? true : false = true;
const fitsCompletion: [ChatCompletion] extends [ChatCompletionResult] ? true : false = true;
const fitsChunk: [ChatCompletionChunk] extends [ChatCompletionStreamChunk] ? true : false = true;
const fitsReply: [ChatCompletionMessage] extends [ChatAssistantMessage] ? true : false = true;
const replyIsParam: [ChatAssistantMessage] extends [ChatCompletionAssistantMessageParam] ? true : false = true;
const answersAreParams: [AgentMessage] extends [ChatCompletionMessageParam] ? true : false = true;
const paramsAreMessages: [ChatCompletionMessageParam] extends [ChatMessageParam] ? true : false = true;
const sameTool: [OpenAIFunctionTool] extends [ChatCompletionFunctionTool]
  ? [ChatCompletionFunctionTool] extends [OpenAIFunctionTool]
    ? true
    : false
  : false = true;
const fitsCustomTool: [OpenAICustomTool] extends [ChatCompletionCustomTool] ? true : false = true;
const fitsChoice: [OpenAIToolChoice] extends [ChatCompletionToolChoiceOption] ? true : false = true;
void [
  sameTool,
  fitsCustomTool,
  fitsChoice,
  fitsClient,
  fitsRequest,
  fitsCompletion,
  fitsChunk,
  fitsReply,
  replyIsParam,
  answersAreParams,
  paramsAreMessages,
];
