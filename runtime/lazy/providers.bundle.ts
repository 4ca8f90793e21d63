/**
 * `#lazy/providers` in a bundle of the main entry: every provider and loop of the catalogue at hand, by static
 * import, so that the bundle has no dynamic import.
 */
import type { MessageFormat } from "../providers/catalog";
import { loop as anthropicLoop } from "../providers/anthropic/loop";
import { provider as anthropic } from "../providers/anthropic/provider";
import { loop as geminiLoop } from "../providers/gemini/loop";
import { provider as gemini } from "../providers/gemini/provider";
import { provider as openAIFunctions } from "../providers/openai-chat/functions";
import { loop as chatLoop } from "../providers/openai-chat/loop";
import { provider as openAIChat } from "../providers/openai-chat/provider";
import { loop as responsesLoop } from "../providers/openai-responses/loop";
import { provider as openAIResponses } from "../providers/openai-responses/provider";
import type { ProviderLoop, ToolProvider } from "../providers/provider";

export { toMCPTools } from "../providers/mcp/tools";

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
