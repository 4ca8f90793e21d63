/**
 * What the framework adapters use of the runtime, named in one place: the registry, the ToolMessage and the public
 * types they build on. Each comes from its own module (not runtime/index.ts, the public entry, which nothing inside
 * the runtime imports), so a move of the runtime's files changes this file only.
 */
export type { ToolRegistry } from "../registry";
export type { RegisteredTool } from "../registry";
export { ToolMessage } from "../messages";
export type { OpenAIToolCall, ToolCall } from "../messages";
export type { JsonSchema } from "../meta";
export type { DispatchOptions } from "../options";
export { parseArguments } from "../args";
