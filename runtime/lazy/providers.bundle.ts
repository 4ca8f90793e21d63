// Written by scripts/providers.mjs from the catalogue (runtime/providers/catalog.ts): run it again, do not edit.
/**
 * `#lazy/providers` in a bundle of the main entry: every provider and loop of the catalogue at hand, by static
 * import, so that the bundle has no dynamic import.
 */
import type { MessageFormat } from "../providers/catalog";
import { loop as anthropicLoop } from "../providers/anthropic/loop";
import { loop as geminiLoop } from "../providers/gemini/loop";
import { loop as openaiChatLoop } from "../providers/openai-chat/loop";
import { loop as openaiResponsesLoop } from "../providers/openai-responses/loop";
import { provider as anthropicProvider } from "../providers/anthropic/provider";
import { provider as geminiProvider } from "../providers/gemini/provider";
import { provider as openaiChatFunctions } from "../providers/openai-chat/functions";
import { provider as openaiChatProvider } from "../providers/openai-chat/provider";
import { provider as openaiResponsesProvider } from "../providers/openai-responses/provider";
import type { ProviderLoop, ToolProvider } from "../providers/provider";

export { toMCPTools } from "../mcp/format/tools";

const PROVIDERS: Readonly<Record<MessageFormat, ToolProvider>> = {
  responses: openaiResponsesProvider as ToolProvider,
  "openai-functions": openaiChatFunctions as ToolProvider,
  openai: openaiChatProvider as ToolProvider,
  gemini: geminiProvider as ToolProvider,
  anthropic: anthropicProvider as ToolProvider,
};

const LOOPS: Readonly<Partial<Record<MessageFormat, ProviderLoop>>> = {
  responses: openaiResponsesLoop as ProviderLoop,
  openai: openaiChatLoop as ProviderLoop,
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
