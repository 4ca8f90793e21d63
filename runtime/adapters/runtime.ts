/**
 * What the framework adapters use of the runtime, named in one place (each from its own module, never the public entry,
 * which nothing inside the runtime imports), so that a move of the runtime's files changes this file only.
 */
export type { BaseToolRegistry as ToolRegistry } from "../registry/core";
export type { RegisteredTool } from "../dispatch/options";
export { ToolMessage } from "../dispatch/messages";
export { ReportQueue } from "../dispatch/report-queue";
export type { ToolCall } from "../tool/call";
export type { OpenAIToolCall } from "../providers/catalog";
export type { JsonSchema } from "../tool/meta";
export type { DispatchOptions } from "../dispatch/options";
export { parseArguments } from "../arguments/read/parse-arguments";
export { toOpenAITools } from "../providers/openai-chat/tools";
