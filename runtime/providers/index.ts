/**
 * The provider list: every model API tooltype speaks, in the order their messages are recognised. The registry,
 * `formatAnswer`, `toolChoice` and `parseToolCalls` are handed this list and talk to each entry through the
 * `ToolProvider` interface only; this is the one file that names every provider (adding one is a file in this
 * folder, a line here and a test).
 *
 * Recognition (sniff.ts) asks the providers' `owns` in this list's order, without loading any. Each entry here
 * stands for its provider and loads it on first use (`#providers`: under Node a `require` then, so that
 * `require("tooltype")` loads no provider it does not use; in a bundle a static import). The registry core does not
 * import this list: the small entries' registries load a provider on first need (load.ts) instead.
 */
import { chatToolsNow, mcpNow, providerNow } from "#providers";
import type { AnthropicReply, AnthropicStreamEvent, AnthropicToolUseBlock } from "./anthropic";
import type { GeminiContent, GeminiFunctionCall, GeminiResponse } from "./gemini";
import type { ToolCallAccumulator } from "./openai-chat/stream";
import type { OpenAIFunctionDefinition, OpenAIToolsOptions } from "./openai-chat/tools";
import type { OpenAIFunctionTool } from "./openai-chat/client";
import type { ResponsesFunctionCall, ResponsesReply, ResponsesStreamEvent } from "./openai-responses";
import type { MCPTool } from "./mcp";
import type { ProviderLoop, ToolFormatSource, ToolProvider } from "./provider";
import { type MessageFormat, formatOf, ownsAnthropic, ownsChat, ownsFunctionCall, ownsGemini, ownsResponses } from "./sniff";

/** The provider of `format`, standing in for it until first use: its name and `owns` need nothing loaded. */
function onFirstUse<P>(format: MessageFormat, owns: (message: object) => boolean): P {
  let provider: ToolProvider | undefined;
  const loaded = (): ToolProvider => (provider ??= providerNow(format));
  const standIn: ToolProvider = {
    name: format,
    owns,
    readCalls: (message) => loaded().readCalls(message),
    answer: (message, results) => loaded().answer(message, results),
    exportTools: (tools, options) => loaded().exportTools(tools, options),
    toolChoice: (choice, options) => loaded().toolChoice(choice, options),
    get loop() {
      return loaded().loop;
    },
  };
  // The stand-in has the provider's own methods and types: P is the provider's type.
  return standIn as P;
}

export const openAIResponses = onFirstUse<typeof import("./openai-responses").openAIResponses>("responses", ownsResponses);
export const openAIFunctions = onFirstUse<typeof import("./openai-chat/functions").openAIFunctions>("openai-functions", ownsFunctionCall);
export const openAIChat = onFirstUse<typeof import("./openai-chat").openAIChat>("openai", ownsChat);
export const gemini = onFirstUse<typeof import("./gemini").gemini>("gemini", ownsGemini);
export const anthropic = onFirstUse<typeof import("./anthropic").anthropic>("anthropic", ownsAnthropic);
// Their message, tool, choice and loop types, for the layers above (the public types of the registry and the loop).
export type * from "./openai-chat/client";
export type * from "./openai-chat/stream";
export type * from "./anthropic";
export type * from "./gemini";
export type * from "./openai-chat";
export type * from "./openai-responses";

/** Every provider, in recognition order. */
export const PROVIDERS: readonly ToolProvider[] = [openAIResponses, openAIFunctions, openAIChat, gemini, anthropic];

/** Each provider by the format it owns. */
const BY_FORMAT: Readonly<Record<MessageFormat, ToolProvider>> = {
  responses: openAIResponses,
  "openai-functions": openAIFunctions,
  openai: openAIChat,
  gemini,
  anthropic,
};

/** The provider whose format `message` is in (chat when none owns it; see sniff.ts). Throws a TypeError for a non-object. */
export function providerOf(message: unknown): ToolProvider {
  return BY_FORMAT[formatOf(message)];
}

/** The provider of `format`. */
export function providerNamed(format: MessageFormat): ToolProvider {
  return BY_FORMAT[format];
}

/** Chat Completions' `tools` (the chat provider's `exportTools`, without loading the provider's loop). */
export function toOpenAITools(tools: Iterable<ToolFormatSource>, options?: OpenAIToolsOptions): OpenAIFunctionTool[] {
  return chatToolsNow().toOpenAITools(tools, options);
}

/** The legacy `functions` list (the functions provider's `exportTools`, without loading the provider). */
export function toOpenAIFunctions(tools: Iterable<ToolFormatSource>): OpenAIFunctionDefinition[] {
  return chatToolsNow().toOpenAIFunctions(tools);
}

/** MCP tool descriptors for `tools/list` (mcp.ts), loaded on first use as the providers are. */
export function toMCPTools(tools: Iterable<ToolFormatSource>): MCPTool[] {
  return mcpNow().toMCPTools(tools);
}

/** The model APIs `runTools` drives, by the name of their provider. */
export type LoopProviderName = "openai" | "responses" | "anthropic" | "gemini";

/** Which client a loop is for, when none is named: the first match (an OpenAI client is for Chat Completions). */
const LOOP_ORDER: readonly ToolProvider[] = [openAIChat, anthropic, gemini, openAIResponses];

/** The loop side of the provider named `name`, or of the API `client` belongs to. Throws a TypeError when there is none. */
export function loopFor(client: unknown, name: string | undefined): { provider: ToolProvider; loop: ProviderLoop } {
  if (name !== undefined) {
    const provider = PROVIDERS.find((entry) => entry.name === name && entry.loop);
    if (!provider?.loop) {
      throw new TypeError(`runTools: unknown provider ${JSON.stringify(name)}; use ${LOOP_ORDER.map((entry) => JSON.stringify(entry.name)).join(", ")}.`);
    }
    return { provider, loop: provider.loop };
  }
  const provider = typeof client === "object" && client !== null ? LOOP_ORDER.find((entry) => entry.loop?.isClient(client)) : undefined;
  if (!provider?.loop) {
    throw new TypeError(
      "runTools: the client is none of OpenAI (chat.completions.create), Anthropic (messages.create), Gemini (models.generateContent) or OpenAI Responses (responses.create); pass such a client, and name the API with the provider option where it is ambiguous.",
    );
  }
  return { provider, loop: provider.loop };
}

/** Starts reading one streamed Chat Completions reply: chunks in, complete tool calls out, then the assistant message. */
export function accumulateToolCalls(provider?: "openai"): ToolCallAccumulator;
/** Starts reading one streamed Responses API reply: events in, complete `function_call` items out, then the Response. */
export function accumulateToolCalls(provider: "responses"): ToolCallAccumulator<ResponsesStreamEvent, ResponsesFunctionCall, ResponsesReply>;
/** Starts reading one streamed Anthropic reply: events in, complete `tool_use` blocks out, then the message. */
export function accumulateToolCalls(provider: "anthropic"): ToolCallAccumulator<AnthropicStreamEvent, AnthropicToolUseBlock, AnthropicReply>;
/** Starts reading one streamed Gemini reply: chunks in, `functionCall`s out, then the model's Content. */
export function accumulateToolCalls(provider: "gemini"): ToolCallAccumulator<GeminiResponse, GeminiFunctionCall, GeminiContent>;
export function accumulateToolCalls(provider: LoopProviderName = "openai"): ToolCallAccumulator<never, unknown, unknown> {
  const loop = PROVIDERS.find((entry) => entry.name === provider)?.loop;
  if (!loop) {
    throw new TypeError(`accumulateToolCalls: unknown provider ${JSON.stringify(provider)}; use ${LOOP_ORDER.map((entry) => JSON.stringify(entry.name)).join(", ")}.`);
  }
  return loop.accumulate();
}
