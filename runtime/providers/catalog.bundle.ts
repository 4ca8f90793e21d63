/**
 * How the catalogue's providers load in a bundle of the main entry (the ES module build; package.json `imports`,
 * `#providers`, `module` condition): every provider and loop at hand, by static import, so the bundle has no
 * dynamic import. Node takes catalog.node.ts instead.
 */
import type { MessageFormat } from "./catalog";
import { loop as anthropicLoop } from "./anthropic/loop";
import { provider as anthropic } from "./anthropic/provider";
import { loop as geminiLoop } from "./gemini/loop";
import { provider as gemini } from "./gemini/provider";
import { provider as openAIFunctions } from "./openai-chat/functions";
import { loop as chatLoop } from "./openai-chat/loop";
import { provider as openAIChat } from "./openai-chat/provider";
import { loop as responsesLoop } from "./openai-responses/loop";
import { provider as openAIResponses } from "./openai-responses/provider";
import type { ProviderLoop, ToolProvider } from "./provider";

export { toMCPTools } from "./mcp/tools";

const PROVIDERS: Readonly<Record<MessageFormat, ToolProvider>> = {
  responses: openAIResponses as ToolProvider,
  "openai-functions": openAIFunctions as ToolProvider,
  openai: openAIChat as ToolProvider,
  gemini: gemini as ToolProvider,
  anthropic: anthropic as ToolProvider,
};

const LOOPS: Readonly<Partial<Record<MessageFormat, ProviderLoop>>> = {
  responses: responsesLoop as ProviderLoop,
  openai: chatLoop as ProviderLoop,
  gemini: geminiLoop as ProviderLoop,
  anthropic: anthropicLoop as ProviderLoop,
};

/** The provider of `format`. */
export function providerNow(format: MessageFormat): ToolProvider {
  return PROVIDERS[format];
}

/** The loop of `format` (which has one). */
export function loopNow(format: MessageFormat): ProviderLoop {
  return LOOPS[format]!;
}
