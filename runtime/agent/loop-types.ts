/**
 * The types of one model API's loop, bundled: its reply, its tool call and an entry of its conversation. `RunStep`,
 * `RunToolsResult`, `RunToolsEvent` and the agent errors take one (`ChatLoopTypes` by default).
 */
import type {
  AgentMessage,
  AnthropicMessageParam,
  AnthropicReply,
  AnthropicToolResultMessage,
  AnthropicToolUseBlock,
  ChatAssistantMessage,
  ChatToolCall,
  GeminiContent,
  GeminiFunctionCall,
  ResponsesFunctionCall,
  ResponsesFunctionCallOutput,
  ResponsesInputItem,
  ResponsesReply,
} from "../providers/catalog";

/** The types of one model API's loop: its reply, its tool call, and an entry of its conversation. */
export interface LoopTypes {
  readonly reply: unknown;
  readonly call: unknown;
  readonly item: unknown;
}

/** Chat Completions: the assistant message, its `tool_calls` entries, and the messages the loop adds. */
export interface ChatLoopTypes extends LoopTypes {
  readonly reply: ChatAssistantMessage;
  readonly call: ChatToolCall;
  readonly item: AgentMessage;
}

/** The Responses API: the Response, its `function_call` items, and input items (its output items, the answers). */
export interface ResponsesLoopTypes extends LoopTypes {
  readonly reply: ResponsesReply;
  readonly call: ResponsesFunctionCall;
  readonly item: object | ResponsesFunctionCallOutput | ResponsesInputItem;
}

/** Anthropic Messages: the message, its `tool_use` blocks, and `{ role, content }` messages. */
export interface AnthropicLoopTypes extends LoopTypes {
  readonly reply: AnthropicReply;
  readonly call: AnthropicToolUseBlock;
  readonly item: AnthropicMessageParam | AnthropicToolResultMessage;
}

/** Gemini: the model's Content, its `functionCall`s, and Contents. */
export interface GeminiLoopTypes extends LoopTypes {
  readonly reply: GeminiContent;
  readonly call: GeminiFunctionCall;
  readonly item: GeminiContent;
}

