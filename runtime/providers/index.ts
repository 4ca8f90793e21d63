/**
 * The provider list: every model API tooltype speaks, in the order their messages are recognised. The registry,
 * `formatAnswer`, `toolChoice` and `parseToolCalls` are handed this list and talk to each entry through the
 * `ToolProvider` interface only; this is the one file that names every provider (adding one is a file in this
 * folder, a line here and a test).
 *
 * Order matters where shapes overlap: a list or an `output` list is the Responses API; a `function_call` without
 * `tool_calls` is the legacy functions API; `tool_calls` is Chat Completions / LangChain; Gemini's fields come next;
 * a `content` list last is Anthropic. A message none of them owns is read as a chat message with no calls.
 */
import { anthropic } from "./anthropic";
import { gemini } from "./gemini";
import { openAIChat, openAIFunctions } from "./openai-chat";
import { openAIResponses } from "./openai-responses";
import type { ToolProvider } from "./provider";

export { anthropic, gemini, openAIChat, openAIFunctions, openAIResponses };
// Their message, tool and choice types, for the layers above (the public types of the registry and the loop).
export type * from "./anthropic";
export type * from "./gemini";
export type * from "./openai-chat";
export type * from "./openai-responses";

/** Every provider, in recognition order. */
export const PROVIDERS: readonly ToolProvider[] = [openAIResponses, openAIFunctions, openAIChat, gemini, anthropic];

/** The provider whose format `message` is in (chat when none owns it). Throws a TypeError for a non-object. */
export function providerOf(message: unknown): ToolProvider {
  if (typeof message !== "object" || message === null) {
    throw new TypeError(
      "dispatch expects a model message with tool calls: an OpenAI ChatCompletionMessage, a Responses API response (or its output items), an Anthropic message, a Gemini response or Content, or a LangChain AIMessage.",
    );
  }
  return PROVIDERS.find((provider) => provider.owns(message)) ?? openAIChat;
}
