/**
 * The exports every entry shares (index.ts, core.ts and the provider entries re-export them): `tool`,
 * `BaseToolRegistry`, approval and middleware types, content parts, the messages, the errors, the limits, the
 * metadata types and the type tags. Each entry adds its own `ToolRegistry` (and the main one everything else), so
 * this list is written once.
 */
export { tool } from "../tool/tool";
export type { SchemaToolDefinition, SchemaToolFunction } from "../tool/tool";

export type {
  StandardIssue,
  StandardJsonSchemaConverter,
  StandardJsonSchemaOptions,
  StandardResult,
  StandardValidateOptions,
  ToolSchemaSource,
  ToolStandardProps,
  ToolStandardSchema,
} from "../validation/standard/types";

export { BaseToolRegistry } from "../registry/core";
export type {
  AnyTools,
  FreeFormToolType,
  HoldsFunctionToolsOnly,
  KnowsTools,
  ToolArguments,
  ToolName,
  ToolNamed,
  ToolRecord,
  ToolResult,
  ToolsOf,
} from "../registry/tool-types";
export type { ApprovalDone, ApprovalPaused, ApprovalResult, ApprovalState } from "../registry/approval";
export { ApprovalRequiredError } from "../dispatch/approval-error";
export type { ApprovalDecision, PauseOptions, PendingApproval } from "../dispatch/approval";
export type { ToolCallRequest, ToolMiddleware, ToolNext } from "../dispatch/options";
export { file, image, text } from "../tool/content";
export type { FilePart, ImagePart, MediaInput, MediaSource, TextPart, ToolContentPart } from "../tool/content";
export type { RegisteredTool, ToolInput } from "../dispatch/options";
export type { ToolSource } from "../tool/sources";

export { ToolMessage } from "../dispatch/messages";
export type { ToolMessageFields, ToolMessageStatus } from "../dispatch/messages";
export type { ToolCall } from "../tool/call";
export { hasFunctionCall } from "../providers/openai-chat/read";
export type {
  AIMessage,
  DispatchInput,
  InvalidToolCall,
  OpenAIAssistantMessage,
  OpenAIFunctionCallMessage,
  OpenAIToolCall,
  ToolCallInput,
} from "../providers/catalog";
export type { OpenAICustomToolCall } from "../providers/catalog";
export type { DispatchResult, ToolCallMessage } from "../providers/catalog";

export {
  ToolError,
  ToolExportError,
  ToolRegistrationError,
  ToolResultError,
  ToolTimeoutError,
  ToolValidationError,
  toolErrorKind,
} from "../tool/errors";
export type { SchemaError, ToolErrorKind, ToolValidationReason } from "../tool/errors";
export { redactSecrets } from "../dispatch/redact";
export { useOpenTelemetry } from "../dispatch/use-open-telemetry";
export {
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_CALL_ID_LENGTH,
  MAX_CALLS_PER_MESSAGE,
  MAX_RESULT_BYTES,
} from "../dispatch/limits";

export { META_VERSION } from "../tool/meta";
export type {
  CompiledOutputMeta,
  CompiledToolMeta,
  CompiledValidatorFactory,
  JsonSchema,
  JsonValue,
  StrictForms,
  StrictRefusal,
  ToolAnnotations,
  ToolIcon,
} from "../tool/meta";
export type { Coercion, CoercionRule } from "../arguments/repair/coercion";
export type { RepairKind } from "../arguments/repair/repair-json";
export type {
  DispatchOptions,
  RegistryOptions,
  ToolEndEvent,
  ToolErrorEvent,
  ToolEvent,
  ToolHooks,
  ToolProgress,
  ToolYield,
} from "../dispatch/options";
export type {
  ErrorHandler,
  NeedsApproval,
  Redact,
  ResponseFormat,
  ToolContext,
  ToolNamespace,
  ToolOptions,
} from "../tool/options";
export type { ToolFormatSource } from "../providers/provider";

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
} from "../tool/tags";
