/**
 * The public API of the `tooltype` runtime: everything a user imports, and nothing else.
 * Type tags are types only; the rest is the tool marker, structured output, the agent loop and streaming, the
 * registry, the messages and the errors.
 */
export { tool } from "./tool";
export type { SchemaToolDefinition, SchemaToolFunction } from "./tool";
export { structuredOutput, StructuredOutput, StructuredOutputError } from "./structured";
export type { JsonSchemaResponseFormat, SafeParseResult, StructuredOutputOptions } from "./structured";

// The agent loop, streaming, and reading calls without running them.
export { runTools } from "./agent/run-tools";
export type { MessageOf, RunToolsEvent, RunToolsOptions, RunToolsParams, RunToolsResult } from "./agent/run-tools";
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
} from "./agent/client";
export { accumulateToolCalls } from "./stream/accumulate";
export type { AccumulatorUpdate, PartialToolCall, StreamedAssistantMessage, ToolCallAccumulator } from "./stream/accumulate";
export { parseToolCalls } from "./parse-tool-calls";
export type { InvalidParsedToolCall, ParseToolCallsOptions, ParsedToolCall, ParsedToolCalls } from "./parse-tool-calls";

export { ToolRegistry } from "./registry";
export type { RegisteredTool } from "./registry";
export type { ToolSource } from "./sources";
export type { ToolInput } from "./dispatch";

// Provider formats: each type is tooltype's own copy of the provider SDK's, so no SDK is needed to import these.
export { formatAnswer } from "./answer";
export { toolChoice } from "./choice";
export type { ToolChoiceProvider, ToolNames } from "./choice";
export type { ToolChoice, ToolChoiceOptions, ToolFormatSource } from "./formats/source";
export { OPENAI_LIMITS } from "./formats/strict";
export type {
  OpenAIFunctionChoiceParams,
  OpenAIFunctionDefinition,
  OpenAIFunctionMessage,
  OpenAIFunctionTool,
  OpenAIToolChoice,
  OpenAIToolChoiceParams,
  OpenAIToolsOptions,
} from "./formats/openai";
export type {
  ResponsesFunctionCall,
  ResponsesFunctionCallOutput,
  ResponsesFunctionTool,
  ResponsesInput,
  ResponsesToolChoice,
  ResponsesToolChoiceParams,
  ResponsesToolsOptions,
} from "./formats/responses";
export type {
  AnthropicAssistantMessage,
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicToolChoiceParams,
  AnthropicToolResultBlock,
  AnthropicToolResultMessage,
  AnthropicToolUseBlock,
} from "./formats/anthropic";
export { FunctionCallingConfigMode as GeminiFunctionCallingConfigMode, Type as GeminiType } from "./formats/gemini";
export type {
  GeminiFunctionDeclaration,
  GeminiFunctionResponseContent,
  GeminiFunctionResponsePart,
  GeminiInput,
  GeminiSchema,
  GeminiTool,
  GeminiToolConfigParams,
  GeminiToolsOptions,
} from "./formats/gemini";
export type { MCPCallToolResult, MCPObjectSchema, MCPTool } from "./formats/mcp";

export { ToolMessage, hasFunctionCall } from "./messages";
export type {
  AIMessage,
  DispatchInput,
  DispatchResult,
  InvalidToolCall,
  OpenAIAssistantMessage,
  OpenAICustomToolCall,
  OpenAIFunctionCallMessage,
  OpenAIToolCall,
  ToolCall,
  ToolCallInput,
  ToolCallMessage,
  ToolMessageFields,
  ToolMessageStatus,
} from "./messages";

export {
  ToolError,
  ToolExportError,
  ToolRegistrationError,
  ToolResultError,
  ToolTimeoutError,
  ToolValidationError,
} from "./errors";
export type { SchemaError, ToolValidationReason } from "./errors";

export { META_VERSION } from "./meta";
export type { CompiledOutputMeta, CompiledToolMeta, CompiledValidatorFactory, JsonSchema, JsonValue } from "./meta";

export type { Coercion, CoercionRule } from "./coerce";
export type { RepairKind } from "./repair";
export type { ToolEndEvent, ToolErrorEvent, ToolEvent, ToolHooks } from "./hooks";

export type {
  DispatchOptions,
  ErrorHandler,
  RegistryOptions,
  ResponseFormat,
  ToolContext,
  ToolOptions,
} from "./options";

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
} from "./tags";
