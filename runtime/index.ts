/**
 * The public API of the `tooltype` runtime: everything a user imports, and nothing else.
 * Type tags are types only; the rest is the tool marker, the registry, the messages and the errors.
 */
export { tool } from "./tool";

export { ToolRegistry } from "./registry";
export type { RegisteredTool } from "./registry";
export type { ToolSource } from "./sources";
export type { ToolInput } from "./dispatch";
export type { OpenAIFunctionTool } from "./formats/openai";

export { ToolMessage } from "./messages";
export type {
  AIMessage,
  DispatchInput,
  InvalidToolCall,
  OpenAIAssistantMessage,
  OpenAICustomToolCall,
  OpenAIToolCall,
  ToolCall,
  ToolCallInput,
  ToolMessageFields,
  ToolMessageStatus,
} from "./messages";

export { ToolError, ToolRegistrationError, ToolResultError, ToolTimeoutError, ToolValidationError } from "./errors";
export type { SchemaError, ToolValidationReason } from "./errors";

export { META_VERSION } from "./meta";
export type { CompiledToolMeta, JsonSchema, JsonValue } from "./meta";

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
