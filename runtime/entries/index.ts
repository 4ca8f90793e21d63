/**
 * The public API of the `tooltype` runtime: everything a user imports, and nothing else.
 * Type tags are types only; the rest is the tool marker, structured output, the agent loop and streaming, the
 * registry, the messages and the errors.
 *
 * @module tooltype
 */
export { structuredOutput, StructuredOutput, StructuredOutputError } from "../agent/structured";
export type { JsonSchemaResponseFormat, SafeParseResult, StructuredOutputOptions } from "../agent/structured";

// The agent loop, streaming, and reading calls without running them.
export { runTools } from "../agent/run-tools";
export type {
  FreeFormCall,
  LoopState,
  LoopTypesFor,
  MessageOf,
  PrepareStepContext,
  RunToolsApprovalState,
  RunToolsEvent,
  RunToolsOptions,
  RunToolsResult,
  StepSettings,
  StopCondition,
  ToolSearchOptions,
} from "../agent/run-types";
export type { RunToolsParams } from "../providers/catalog";
export type { LoopTypes } from "../providers/provider";
export { stepCountIs, toolCalled } from "../agent/stop";
export { ToolRunStream } from "../agent/run-stream";
export { AgentError, MaxStepsError, ModelRefusalError, ToolRetryError } from "../agent/errors";
export type { AgentTranscript, AttemptFailure, RunStep, ToolAttempt } from "../agent/errors";
export { PATCH_TOOL_NAME } from "../agent/json-patch";
export { SEARCH_TOOL_NAME } from "../agent/tool-search";
export type { JsonPatchOperation } from "../agent/json-patch";
export type { AgentMessage } from "../providers/catalog";
export { accumulateToolCalls } from "../providers/at-hand";
export type {
  AccumulatorUpdate,
  PartialToolCall,
  StreamedAssistantMessage,
  ToolCallAccumulator,
} from "../providers/catalog";
export type { LoopProviderName } from "../providers/catalog";
export { parseToolCalls } from "../registry/parse-tool-calls";
// Not in base-exports, which Node loads with every entry: it brings the failure path's reading and coercion along.
export { standardSchema } from "../arguments/standard-schema";
export type {
  InvalidParsedToolCall,
  ParseToolCallsOptions,
  ParsedToolCall,
  ParsedToolCalls,
} from "../registry/parse-tool-calls";

// Everything every entry has (tool, the errors, the messages, the types); this entry adds the rest. Under Node (the
// form scripts/node-entries.mjs writes from this file) these two are required with the entry, every other value on
// first read.
export * from "./base-exports"; // at start under Node
export { ToolRegistry } from "../registry/tool-registry"; // at start under Node
export { chatAttachments } from "../providers/openai-chat/attachments";
export type { ChatAttachmentPart, ChatAttachmentsMessage } from "../providers/openai-chat/attachments";

// Every provider's public types (and values): each type is tooltype's own copy of the provider SDK's, so no SDK is
// needed to import these.
export * from "./provider-types";
export { formatAnswer } from "../registry/answer";
export { toolChoice } from "../registry/choice";
export type { ToolChoiceProvider, ToolNames } from "../registry/choice";
export type { ToolChoice, ToolChoiceOptions } from "../providers/provider";
export type { MCPCallToolResult, MCPContent, MCPObjectSchema, MCPTool } from "../providers/catalog";
