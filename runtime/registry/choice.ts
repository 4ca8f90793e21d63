/**
 * `toolChoice`: "auto", "none", "required" (Gemini also "validated") or one tool's name, in each provider's own
 * request fields, ready to be spread into the request (OpenAI's `parallel_tool_calls` and Gemini's `toolConfig` sit
 * beside or outside the choice itself, so a bare value would not do). Each provider writes its own form (`ToolProvider.toolChoice`); this
 * checks the choice against the registry and finds the provider by name in the catalogue.
 */
import { findProvider } from "../providers/at-hand";
import {
  type AnthropicToolChoiceParams,
  CATALOG,
  type GeminiToolConfigParams,
  type OpenAIFunctionChoiceParams,
  type OpenAIToolChoiceParams,
  type ResponsesToolChoiceParams,
} from "../providers/catalog";
import type { ToolChoice, ToolChoiceOptions } from "../providers/provider";
import { ToolExportError } from "../tool/errors";

/** The model APIs whose tool choice `toolChoice` writes. */
export type ToolChoiceProvider = "openai" | "openai-functions" | "responses" | "anthropic" | "gemini";

/** What `toolChoice` needs of a registry: which tools exist. */
export interface ToolNames {
  /** Whether a tool of this name exists. */
  has(name: string): boolean;
  /** The tools, each with its name. */
  list(): readonly { readonly name: string }[];
}

/** OpenAI Chat Completions: `{ tool_choice, parallel_tool_calls? }`. */
export function toolChoice(
  registry: ToolNames,
  choice: ToolChoice,
  provider: "openai",
  options?: ToolChoiceOptions,
): OpenAIToolChoiceParams;
/** The legacy functions API: `{ function_call }` ("auto", "none" or a name; it has no "required"). */
export function toolChoice(
  registry: ToolNames,
  choice: ToolChoice,
  provider: "openai-functions",
): OpenAIFunctionChoiceParams;
/** OpenAI Responses API: `{ tool_choice, parallel_tool_calls? }`. */
export function toolChoice(
  registry: ToolNames,
  choice: ToolChoice,
  provider: "responses",
  options?: ToolChoiceOptions,
): ResponsesToolChoiceParams;
/** Anthropic: `{ tool_choice }` with `disable_parallel_tool_use` for `{ parallel: false }`. */
export function toolChoice(
  registry: ToolNames,
  choice: ToolChoice,
  provider: "anthropic",
  options?: ToolChoiceOptions,
): AnthropicToolChoiceParams;
/** Gemini: `{ toolConfig: { functionCallingConfig } }`, for the request's `config`. */
export function toolChoice(
  registry: ToolNames,
  choice: ToolChoice,
  provider: "gemini",
  options?: ToolChoiceOptions,
): GeminiToolConfigParams;
export function toolChoice(
  registry: ToolNames,
  choice: ToolChoice,
  provider: ToolChoiceProvider,
  options: ToolChoiceOptions = {},
):
  | OpenAIToolChoiceParams
  | OpenAIFunctionChoiceParams
  | ResponsesToolChoiceParams
  | AnthropicToolChoiceParams
  | GeminiToolConfigParams {
  checkChoice(registry, choice, provider);
  const writer = findProvider(provider);
  if (!writer) {
    throw new ToolExportError(
      `toolChoice: unknown provider ${JSON.stringify(provider)}; use ${CATALOG.map((entry) => JSON.stringify(entry.format)).join(", ")}.`,
      { format: String(provider) },
    );
  }
  return writer.toolChoice(choice, options) as OpenAIToolChoiceParams;
}

/** Throws a ToolExportError listing the registered tools when `choice` names none of them. */
export function checkChoice(registry: ToolNames, choice: ToolChoice, format: string): void {
  if (choice === "auto" || choice === "none" || choice === "required" || choice === "validated" || registry.has(choice))
    return;
  const names = registry.list().map((tool) => tool.name);
  throw new ToolExportError(
    `toolChoice: ${JSON.stringify(choice)} is neither "auto", "none", "required" nor a registered tool. ${names.length > 0 ? `Registered tools: ${names.join(", ")}.` : "No tools are registered."}`,
    { format },
  );
}
