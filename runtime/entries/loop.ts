/**
 * `tooltype/loop`: the agent loop (`runTools`, its stop conditions, stream and errors), structured output, stream
 * accumulation (`accumulateToolCalls`) and the loop's built-in tools (JSON Patch repair, tool search). An entry of its
 * own so that the main `tooltype` entry stays small for apps that only dispatch: a CommonJS bundle takes a `require`d
 * entry's whole namespace, and these bring every provider's loop and stream reader along. Use it with any entry's
 * `ToolRegistry`. Under Node (the form scripts/node-entries.mjs writes from this file) each value's module is required
 * on its first read, so `structuredOutput` alone does not load the loop.
 *
 * @module tooltype/loop
 */
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
export type { AgentMessage, LoopProviderName, RunToolsParams } from "../providers/catalog";
export type { LoopTypes } from "../providers/provider";
export { stepCountIs, toolCalled } from "../agent/stop";
export { ToolRunStream } from "../agent/run-stream";
export { AgentError, MaxStepsError, ModelRefusalError, ToolRetryError } from "../agent/errors";
export type { AgentTranscript, AttemptFailure, RunStep, ToolAttempt } from "../agent/errors";
export { PATCH_TOOL_NAME } from "../agent/json-patch";
export type { JsonPatchOperation } from "../agent/json-patch";
export { SEARCH_TOOL_NAME } from "../agent/tool-search";

// Structured output: a typed answer through the API's response format, the loop's final tool, or the prompt.
export { structuredOutput, StructuredOutput, StructuredOutputError } from "../agent/structured";
export type { JsonSchemaResponseFormat, SafeParseResult, StructuredOutputOptions } from "../agent/structured";

// A streamed reply's tool calls, assembled as they arrive (any provider's chunks).
export { accumulateToolCalls } from "../providers/at-hand";
export type {
  AccumulatorUpdate,
  PartialToolCall,
  StreamedAssistantMessage,
  ToolCallAccumulator,
} from "../providers/catalog";
