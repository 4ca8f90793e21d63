/**
 * Deferred tools: a tool marked `deferred` (the tool option, else JSDoc `@deferred` in its compiled metadata) is left
 * out of a request's definitions until a tool search finds it. The exporters of APIs that search themselves write
 * it with `defer_loading` beside their search tool; `runTools` searches for the others (docs/large-toolsets.md).
 */
import type { ToolFormatSource } from "./provider";

/** Whether `tool` waits for a tool search: its own option wins over its JSDoc. */
export function isDeferred(tool: ToolFormatSource): boolean {
  return tool.options.deferred ?? tool.meta?.deferred === true;
}
