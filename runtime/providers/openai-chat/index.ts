/**
 * The public format types (and values) of OpenAI Chat Completions, exported by its entry (`tooltype/openai`) and by
 * the main `tooltype` entry alike: tooltype's own copies of the SDK's types, so no SDK is needed to import them.
 */
export { OPENAI_LIMITS } from "../../strict/openai-limits";
export type { OpenAIFunctionChoiceParams, OpenAIFunctionMessage } from "./functions";
export type { OpenAIFunctionDefinition, OpenAIToolsOptions } from "./tools";
export type { OpenAIToolChoiceParams } from "./choice";
export type { OpenAICustomTool, OpenAIFunctionTool, OpenAITool, OpenAIToolChoice } from "./wire";
// The agent loop's side: the client, its requests and replies, the loop's types.
export type {
  ChatAssistantMessage,
  ChatCompletionRequest,
  ChatCompletionResult,
  ChatCompletionStreamChunk,
  ChatCompletionsClient,
  ChatFunctionToolCall,
  ChatLoopTypes,
  ChatMessageParam,
  ChatRequestMessage,
  ChatRequestOptions,
  ChatRole,
  ChatToolCall,
  ChatToolCallDelta,
} from "./wire";
