/**
 * How the catalogue's providers load under Node (the CommonJS build; package.json `imports`, `#providers`, default
 * condition): each provider and loop is required the first time it is used (an export method, a message of its
 * format, the loop on its client), so that `require("tooltype")` loads no provider it does not use. One literal
 * `require` each: a bundler that reads the CommonJS build (a worker bundle) sees exactly these modules. Bundlers
 * of the ES module build take catalog.bundle.ts instead.
 */
import type { MessageFormat } from "./catalog";
import type { MCPTool } from "./mcp/wire";
import type { ProviderLoop, ToolFormatSource, ToolProvider } from "./provider";

/* eslint-disable @typescript-eslint/no-require-imports */

/** The provider of `format`, loaded now if it was not yet (Node caches each module). */
export function providerNow(format: MessageFormat): ToolProvider {
  switch (format) {
    case "responses":
      return (require("./openai-responses/provider") as typeof import("./openai-responses/provider")).provider as ToolProvider;
    case "openai-functions":
      return (require("./openai-chat/functions") as typeof import("./openai-chat/functions")).provider as ToolProvider;
    case "openai":
      return (require("./openai-chat/provider") as typeof import("./openai-chat/provider")).provider as ToolProvider;
    case "gemini":
      return (require("./gemini/provider") as typeof import("./gemini/provider")).provider as ToolProvider;
    case "anthropic":
      return (require("./anthropic/provider") as typeof import("./anthropic/provider")).provider as ToolProvider;
  }
}

/** The loop of `format` (which has one), loaded now if it was not yet. */
export function loopNow(format: MessageFormat): ProviderLoop {
  switch (format) {
    case "responses":
      return (require("./openai-responses/loop") as typeof import("./openai-responses/loop")).loop as ProviderLoop;
    case "openai":
      return (require("./openai-chat/loop") as typeof import("./openai-chat/loop")).loop as ProviderLoop;
    case "gemini":
      return (require("./gemini/loop") as typeof import("./gemini/loop")).loop as ProviderLoop;
    case "anthropic":
      return (require("./anthropic/loop") as typeof import("./anthropic/loop")).loop as ProviderLoop;
    default:
      throw new TypeError(`${format} has no loop.`);
  }
}

/** MCP tool descriptors (a tool format rather than a provider), loaded the first time they are asked for. */
export function toMCPTools(tools: Iterable<ToolFormatSource>): MCPTool[] {
  return (require("./mcp/tools") as typeof import("./mcp/tools")).toMCPTools(tools);
}
