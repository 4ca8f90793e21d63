/**
 * The main entry's way to a provider by format, by message or by client (its registry, `formatAnswer`,
 * `toolChoice`, `parseToolCalls`, the agent loop, `accumulateToolCalls`), every provider of the catalogue reached
 * through `#lazy/providers`. The small entries' registries reach theirs through lazy/providers.chunks.ts instead.
 */
import { loopNow, providerNow, toMCPTools as mcpTools } from "#lazy/providers";
import {
  type ExportMethod,
  LOOP_FORMATS,
  type LoopProviderName,
  type MessageFormat,
  formatExportedBy,
  formatOf,
  isMessageFormat,
} from "./catalog";
import type {
  AnthropicReply,
  AnthropicStreamEvent,
  AnthropicToolUseBlock,
  GeminiContent,
  GeminiFunctionCall,
  GeminiResponse,
  MCPTool,
  ResponsesCall,
  ResponsesReply,
  ResponsesStreamEvent,
  ToolCallAccumulator,
} from "./catalog";
import type { ProviderLoop, ToolFormatSource, ToolProvider } from "./provider";

export type { LoopProviderName } from "./catalog";

/** The provider whose format `message` is in (chat when none owns it). Throws a TypeError for a non-object. */
export function providerOf(message: unknown): ToolProvider {
  return providerNow(formatOf(message));
}

/** The provider of `format`. */
export function providerNamed(format: MessageFormat): ToolProvider {
  return providerNow(format);
}

/**
 * The registered `tools` written by the provider whose export method (the catalogue's `exportMethod`) is `method`:
 * the main registry's export methods, one line each.
 */
export function exportAs(method: ExportMethod, tools: Iterable<ToolFormatSource>, options?: unknown): unknown {
  return providerNow(formatExportedBy(method)).exportTools(tools, options);
}

/** The provider named `name`, if it is a format of the catalogue. */
export function findProvider(name: unknown): ToolProvider | undefined {
  return isMessageFormat(name) ? providerNow(name) : undefined;
}

/** MCP tool descriptors for `tools/list`, loaded on first use as the providers are. */
export function toMCPTools(tools: Iterable<ToolFormatSource>): MCPTool[] {
  return mcpTools(tools);
}

const loopNames = (): string => LOOP_FORMATS.map((format) => JSON.stringify(format)).join(", ");

/** The loop of the provider named `name`, or of the API `client` belongs to. Throws a TypeError when there is none. */
export function loopFor(client: unknown, name: string | undefined): { provider: ToolProvider; loop: ProviderLoop } {
  if (name !== undefined) {
    const format = LOOP_FORMATS.find((entry) => entry === name);
    if (format === undefined)
      throw new TypeError(`runTools: unknown provider ${JSON.stringify(name)}; use ${loopNames()}.`);
    return { provider: providerNow(format), loop: loopNow(format) };
  }
  const format =
    typeof client === "object" && client !== null
      ? LOOP_FORMATS.find((entry) => loopNow(entry).isClient(client))
      : undefined;
  if (format === undefined) {
    throw new TypeError(
      "runTools: the client is none of OpenAI (chat.completions.create), Anthropic (messages.create), Gemini (models.generateContent) or OpenAI Responses (responses.create); pass such a client, and name the API with the provider option where it is ambiguous.",
    );
  }
  return { provider: providerNow(format), loop: loopNow(format) };
}

/** Starts reading one streamed Chat Completions reply: chunks in, complete tool calls out, then the assistant message. */
export function accumulateToolCalls(provider?: "openai"): ToolCallAccumulator;
/**
 * Starts reading one streamed Responses API reply: events in, complete `function_call` and `custom_tool_call` items
 * out, then the Response.
 */
export function accumulateToolCalls(
  provider: "responses",
): ToolCallAccumulator<ResponsesStreamEvent, ResponsesCall, ResponsesReply>;
/** Starts reading one streamed Anthropic reply: events in, complete `tool_use` blocks out, then the message. */
export function accumulateToolCalls(
  provider: "anthropic",
): ToolCallAccumulator<AnthropicStreamEvent, AnthropicToolUseBlock, AnthropicReply>;
/** Starts reading one streamed Gemini reply: chunks in, `functionCall`s out, then the model's Content. */
export function accumulateToolCalls(
  provider: "gemini",
): ToolCallAccumulator<GeminiResponse, GeminiFunctionCall, GeminiContent>;
export function accumulateToolCalls(
  provider: LoopProviderName = LOOP_FORMATS[0]!,
): ToolCallAccumulator<never, unknown, unknown> {
  const format = LOOP_FORMATS.find((entry) => entry === provider);
  if (format === undefined)
    throw new TypeError(`accumulateToolCalls: unknown provider ${JSON.stringify(provider)}; use ${loopNames()}.`);
  return loopNow(format).accumulate();
}
