// Written by scripts/providers.mjs from the catalogue (runtime/providers/catalog.ts): run it again, do not edit.
/**
 * `#lazy/providers` under Node: each provider and loop of the catalogue, required the first time it is used (an
 * export method, a message of its format, the loop on its client), so that `require("tooltype")` loads no provider
 * it does not use. One literal `require` each: a bundler that reads the CommonJS build (a worker bundle) sees
 * exactly these modules.
 */
import type { MessageFormat } from "../providers/catalog";
import type { MCPTool } from "../mcp/format/wire";
import type { ProviderLoop, ToolFormatSource, ToolProvider } from "../providers/provider";


/** The provider of `format`, loaded now if it was not yet (Node caches each module). */
export function providerNow(format: MessageFormat): ToolProvider {
  switch (format) {
    case "responses":
      return (require("../providers/openai-responses/provider") as typeof import("../providers/openai-responses/provider")).provider as ToolProvider;
    case "openai-functions":
      return (require("../providers/openai-chat/functions") as typeof import("../providers/openai-chat/functions")).provider as ToolProvider;
    case "openai":
      return (require("../providers/openai-chat/provider") as typeof import("../providers/openai-chat/provider")).provider as ToolProvider;
    case "gemini":
      return (require("../providers/gemini/provider") as typeof import("../providers/gemini/provider")).provider as ToolProvider;
    case "anthropic":
      return (require("../providers/anthropic/provider") as typeof import("../providers/anthropic/provider")).provider as ToolProvider;
  }
}

/** The loop of `format` (which has one), loaded now if it was not yet. */
export function loopNow(format: MessageFormat): ProviderLoop {
  switch (format) {
    case "responses":
      return (require("../providers/openai-responses/loop") as typeof import("../providers/openai-responses/loop")).loop as ProviderLoop;
    case "openai":
      return (require("../providers/openai-chat/loop") as typeof import("../providers/openai-chat/loop")).loop as ProviderLoop;
    case "gemini":
      return (require("../providers/gemini/loop") as typeof import("../providers/gemini/loop")).loop as ProviderLoop;
    case "anthropic":
      return (require("../providers/anthropic/loop") as typeof import("../providers/anthropic/loop")).loop as ProviderLoop;
    default:
      throw new TypeError(`${format} has no loop.`);
  }
}

/** MCP tool descriptors (a tool format rather than a provider), loaded the first time they are asked for. */
export function toMCPTools(tools: Iterable<ToolFormatSource>): MCPTool[] {
  return (require("../mcp/format/tools") as typeof import("../mcp/format/tools")).toMCPTools(tools);
}
