/**
 * How the provider list (index.ts) reaches each provider in a bundle (the ES module build; package.json `imports`,
 * `#providers`, `module` condition): static imports, so a bundle of the main entry has every provider and no
 * dynamic import. Node takes list-now.ts instead.
 */
import { anthropic } from "./anthropic";
import { gemini } from "./gemini";
import * as mcp from "./mcp";
import { openAIChat } from "./openai-chat";
import { openAIFunctions } from "./openai-chat/functions";
import * as chatTools from "./openai-chat/tools";
import { openAIResponses } from "./openai-responses";
import type { ToolProvider } from "./provider";
import type { MessageFormat } from "./sniff";

const PROVIDERS: Readonly<Record<MessageFormat, ToolProvider>> = {
  openai: openAIChat as ToolProvider,
  "openai-functions": openAIFunctions as ToolProvider,
  responses: openAIResponses as ToolProvider,
  anthropic: anthropic as ToolProvider,
  gemini: gemini as ToolProvider,
};

/** The provider of `format`. */
export function providerNow(format: MessageFormat): ToolProvider {
  return PROVIDERS[format];
}

/** Chat Completions' tool lists (openai-chat/tools.ts). */
export function chatToolsNow(): typeof import("./openai-chat/tools") {
  return chatTools;
}

/** MCP's tool descriptors (mcp.ts). */
export function mcpNow(): typeof import("./mcp") {
  return mcp;
}
