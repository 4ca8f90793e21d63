/**
 * How the provider list (index.ts) reaches each provider in a bundle (the ES module build; package.json `imports`,
 * `#providers`, `module` condition): static imports, so a bundle of the main entry has every provider and no
 * dynamic import. Node takes list-now.ts instead.
 */
import { anthropic } from "./anthropic";
import { gemini } from "./gemini";
import { toMCPTools } from "./mcp";
import { openAIChat } from "./openai-chat";
import { openAIFunctions } from "./openai-chat/functions";
import { toOpenAIFunctions, toOpenAITools } from "./openai-chat/tools";
import { openAIResponses } from "./openai-responses";
import type { ChatToolLists, MCPToolList } from "./list-now";
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

// Only the functions the list uses, not the modules' namespaces: a namespace would keep every export in the bundle.
const CHAT_TOOLS = { toOpenAITools, toOpenAIFunctions };
const MCP = { toMCPTools };

/** Chat Completions' tool lists (openai-chat/tools.ts). */
export function chatToolsNow(): ChatToolLists {
  return CHAT_TOOLS;
}

/** MCP's tool descriptors (mcp.ts). */
export function mcpNow(): MCPToolList {
  return MCP;
}
