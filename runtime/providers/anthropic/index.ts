/**
 * The public format types (and values) of Anthropic Messages, exported by its entry (`tooltype/anthropic`) and by the
 * main
 * `tooltype` entry alike: tooltype's own copies of the SDK's types, so no SDK is needed to import them.
 */
export type {
  AnthropicAssistantMessage,
  AnthropicImageType,
  AnthropicRequestTool,
  AnthropicTool,
  AnthropicToolSearchMatch,
  AnthropicToolSearchTool,
  AnthropicToolsOptions,
  AnthropicToolChoice,
  AnthropicToolChoiceParams,
  AnthropicToolResultBlock,
  AnthropicToolResultContent,
  AnthropicToolResultMessage,
  AnthropicToolUseBlock,
} from "./wire";
// The agent loop's side: the client, its requests and replies, `runTools`' params.
export type {
  AnthropicContentBlock,
  AnthropicLoopTypes,
  AnthropicMessageParam,
  AnthropicMessagesClient,
  AnthropicReply,
  AnthropicRequest,
  AnthropicRunParams,
  AnthropicStreamEvent,
} from "./wire";
