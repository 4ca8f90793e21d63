/**
 * `tooltype/core`: what every app that dispatches compiled tools uses, and no provider's export code: `tool`, a
 * `ToolRegistry` with no export method (register, dispatch, invoke, approval, middleware; `BaseToolRegistry`, the
 * type every registry is), the messages, the errors and the types. The provider entries (`tooltype/openai`, `tooltype/responses`, `tooltype/anthropic`,
 * `tooltype/gemini`) re-export all of it with a `ToolRegistry` that adds their own export methods; the main
 * `tooltype` entry has everything.
 *
 * @module tooltype/core
 */
export { tool } from "./tool/tool";
export type { SchemaToolDefinition, SchemaToolFunction } from "./tool/tool";

export { BaseToolRegistry } from "./registry/core";
export { ToolRegistry } from "./registry/on-need";
export type { ApprovalDone, ApprovalPaused, ApprovalResult, ApprovalState } from "./registry/approval";
export { ApprovalRequiredError } from "./dispatch/approval";
export type { ApprovalDecision, PendingApproval } from "./dispatch/approval";
export type { ToolCallRequest, ToolMiddleware, ToolNext } from "./dispatch/options";
export { file, image, text } from "./tool/content";
export type { FilePart, ImagePart, MediaInput, MediaSource, TextPart, ToolContentPart } from "./tool/content";
export type { RegisteredTool, ToolInput } from "./dispatch/options";
export type { ToolSource } from "./tool/sources";

export { ToolMessage } from "./dispatch/messages";
export type { ToolMessageFields, ToolMessageStatus } from "./dispatch/messages";
export type { ToolCall } from "./tool/call";
export { hasFunctionCall } from "./providers/openai-chat/read";
export type {
  AIMessage,
  DispatchInput,
  InvalidToolCall,
  OpenAIAssistantMessage,
  OpenAIFunctionCallMessage,
  OpenAIToolCall,
  ToolCallInput,
} from "./providers/openai-chat/read";
export type { OpenAICustomToolCall } from "./providers/openai-chat/client";
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
export type { DispatchOptions, RegistryOptions, ToolEndEvent, ToolErrorEvent, ToolEvent, ToolHooks, ToolProgress } from "./dispatch/options";
export type { ErrorHandler, NeedsApproval, Redact, ResponseFormat, ToolContext, ToolOptions } from "./tool/options";
export type { ToolFormatSource } from "./providers/provider";

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
