/**
 * The public API of the `tooltype` runtime: everything a user imports, and nothing else.
 * Type tags are types only; the rest is the tool marker, the registry, reading calls, the messages and the errors.
 * The agent loop, structured output and stream accumulation are `tooltype/loop` (loop.ts): a CommonJS bundle takes
 * a `require`d entry's whole namespace, and an app that only dispatches should not carry them.
 *
 * @module tooltype
 */
// Reading calls without running them.
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
