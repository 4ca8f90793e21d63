/**
 * The public API of the `tooltype` runtime: everything a user imports, and nothing else.
 * Type tags are types only; the rest is the tool marker, structured output, the agent loop and streaming, the
 * registry, the messages and the errors.
 *
 * @module tooltype
 */
export { tool } from "./tool/tool";
export type { SchemaToolDefinition, SchemaToolFunction } from "./tool/tool";
export { structuredOutput, StructuredOutput, StructuredOutputError } from "./agent/structured";
export type { JsonSchemaResponseFormat, SafeParseResult, StructuredOutputOptions } from "./agent/structured";

// The agent loop, streaming, and reading calls without running them.
export { runTools } from "./agent/run-tools";
export type {
  AnthropicRunParams,
  GeminiRunParams,
  LoopState,
  MessageOf,
  PrepareStepContext,
  ResponsesRunParams,
  RunToolsApprovalState,
  RunToolsEvent,
  RunToolsOptions,
  RunToolsParams,
  RunToolsResult,
  StepSettings,
  StopCondition,
} from "./agent/run-types";
export type { AnthropicLoopTypes, ChatLoopTypes, GeminiLoopTypes, LoopTypes, ResponsesLoopTypes } from "./agent/loop-types";
export { stepCountIs, toolCalled } from "./agent/stop";
export { ToolRunStream } from "./agent/run-stream";
export { AgentError, MaxStepsError, ModelRefusalError, ToolRetryError } from "./agent/errors";
export type { AgentTranscript, AttemptFailure, RunStep, ToolAttempt } from "./agent/errors";
export { PATCH_TOOL_NAME } from "./agent/json-patch";
export type { JsonPatchOperation } from "./agent/json-patch";
export type {
  AgentMessage,
  ChatAssistantMessage,
  ChatCompletionRequest,
  ChatCompletionResult,
  ChatCompletionStreamChunk,
  ChatCompletionsClient,
  ChatFunctionToolCall,
  ChatMessageParam,
  ChatRequestMessage,
  ChatRequestOptions,
  ChatRole,
  ChatToolCall,
  ChatToolCallDelta,
} from "./providers/openai-chat/client";
export { accumulateToolCalls } from "./providers";
export type { AccumulatorUpdate, PartialToolCall, StreamedAssistantMessage, ToolCallAccumulator } from "./providers/openai-chat/stream";
export type { LoopProviderName } from "./providers";
export { parseToolCalls } from "./registry/parse-tool-calls";
export type { InvalidParsedToolCall, ParseToolCallsOptions, ParsedToolCall, ParsedToolCalls } from "./registry/parse-tool-calls";

export { BaseToolRegistry, ToolRegistry } from "./registry/registry";
export type { ApprovalDone, ApprovalPaused, ApprovalResult, ApprovalState } from "./registry/approval";
export { ApprovalRequiredError } from "./dispatch/approval";
export type { ApprovalDecision, PendingApproval } from "./dispatch/approval";
export type { ToolCallRequest, ToolMiddleware, ToolNext } from "./dispatch/options";
export { file, image, text } from "./tool/content";
export type { FilePart, ImagePart, MediaInput, MediaSource, TextPart, ToolContentPart } from "./tool/content";
export { chatAttachments } from "./providers/openai-chat/attachments";
export type { ChatAttachmentPart, ChatAttachmentsMessage } from "./providers/openai-chat/attachments";
export type { RegisteredTool } from "./dispatch/options";
export type { ToolSource } from "./tool/sources";
export type { ToolInput } from "./dispatch/options";

// Provider formats: each type is tooltype's own copy of the provider SDK's, so no SDK is needed to import these.
export { formatAnswer } from "./registry/answer";
export { toolChoice } from "./registry/choice";
export type { ToolChoiceProvider, ToolNames } from "./registry/choice";
export type { ToolChoice, ToolChoiceOptions, ToolFormatSource } from "./providers/provider";
export { OPENAI_LIMITS } from "./providers/strict";
export type {
  OpenAIFunctionChoiceParams,
  OpenAIFunctionDefinition,
  OpenAIFunctionMessage,
  OpenAIFunctionTool,
  OpenAIToolChoice,
  OpenAIToolChoiceParams,
  OpenAIToolsOptions,
} from "./providers/openai-chat";
export type {
  ResponsesFunctionCall,
  ResponsesFunctionCallOutput,
  ResponsesFunctionTool,
  ResponsesInput,
  ResponsesOutputContent,
  ResponsesToolChoice,
  ResponsesToolChoiceParams,
  ResponsesToolsOptions,
  ResponsesClient,
  ResponsesInputItem,
  ResponsesReply,
  ResponsesRequest,
  ResponsesStreamEvent,
} from "./providers/openai-responses";
export type {
  AnthropicAssistantMessage,
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicToolChoiceParams,
  AnthropicImageType,
  AnthropicToolResultBlock,
  AnthropicToolResultContent,
  AnthropicToolResultMessage,
  AnthropicToolUseBlock,
  AnthropicContentBlock,
  AnthropicMessageParam,
  AnthropicMessagesClient,
  AnthropicReply,
  AnthropicRequest,
  AnthropicStreamEvent,
} from "./providers/anthropic";
export { FunctionCallingConfigMode as GeminiFunctionCallingConfigMode, Type as GeminiType } from "./providers/gemini/enums";
export type {
  GeminiFunctionDeclaration,
  GeminiFunctionResponseContent,
  GeminiFunctionResponseMedia,
  GeminiFunctionResponsePart,
  GeminiInput,
  GeminiSchema,
  GeminiTool,
  GeminiToolConfigParams,
  GeminiToolsOptions,
  GeminiContent,
  GeminiFunctionCall,
  GeminiModelsClient,
  GeminiPart,
  GeminiRequest,
  GeminiResponse,
} from "./providers/gemini";
export type { MCPCallToolResult, MCPContent, MCPObjectSchema, MCPTool } from "./providers/mcp";

export { ToolMessage } from "./dispatch/messages";
export type { ToolMessageFields, ToolMessageStatus } from "./dispatch/messages";
export type { ToolCall } from "./tool/call";
export { hasFunctionCall } from "./providers/openai-chat/read";
export type {
  AIMessage,
  DispatchInput,
  InvalidToolCall,
  OpenAIAssistantMessage,
  OpenAICustomToolCall,
  OpenAIFunctionCallMessage,
  OpenAIToolCall,
  ToolCallInput,
} from "./providers/openai-chat";
export type { DispatchResult, ToolCallMessage } from "./registry/messages";

export {
  ToolError,
  ToolExportError,
  ToolRegistrationError,
  ToolResultError,
  ToolTimeoutError,
  ToolValidationError,
  toolErrorKind,
} from "./tool/errors";
export type { SchemaError, ToolErrorKind, ToolValidationReason } from "./tool/errors";
export { redactSecrets } from "./dispatch/redact";
export { DEFAULT_TOOL_TIMEOUT_MS, MAX_CALL_ID_LENGTH, MAX_CALLS_PER_MESSAGE, MAX_RESULT_BYTES } from "./dispatch/limits";

export { META_VERSION } from "./tool/meta";
export type { CompiledOutputMeta, CompiledToolMeta, CompiledValidatorFactory, JsonSchema, JsonValue, ToolAnnotations } from "./tool/meta";

export type { Coercion, CoercionRule } from "./arguments/coercion";
export type { RepairKind } from "./arguments/repair";
export type { ToolEndEvent, ToolErrorEvent, ToolEvent, ToolHooks } from "./dispatch/options";

export type { DispatchOptions, RegistryOptions, ToolProgress } from "./dispatch/options";
export type { ErrorHandler, NeedsApproval, Redact, ResponseFormat, ToolContext, ToolOptions } from "./tool/options";

export type {
  ExclusiveMax,
  ExclusiveMin,
  Format,
  Int,
  Max,
  MaxItems,
  MaxLength,
  Min,
  MinItems,
  MinLength,
  MultipleOf,
  Pattern,
  TypeTag,
  UniqueItems,
} from "./tool/tags";
