/**
 * The `openai` provider: Chat Completions (and LangChain-style `AIMessage`s) for dispatch: reading `tool_calls`
 * (JSON-string arguments, parsed later per call so that a malformed call only fails itself; LangChain's parsed
 * `args` and `invalid_tool_calls` too), answering with the ToolMessages themselves, the tools and `tool_choice`.
 */
import type { ToolMessage } from "../../dispatch/messages";
import type { ToolProvider } from "../provider";
import { answerChat } from "./answer";
import { type OpenAIToolChoiceParams, openAIToolChoice } from "./choice";
import { type DispatchInput, readChatCalls } from "./read";
import { type OpenAIToolsOptions, toOpenAITools } from "./tools";
import type { OpenAITool } from "./wire";

/**
 * Chat Completions and LangChain messages: a message with `tool_calls` or `invalid_tool_calls`. Also the provider of
 * last resort: a message no provider owns is read as a chat message (with no calls).
 */
export const provider: ToolProvider<
  DispatchInput,
  ToolMessage[],
  OpenAITool[],
  OpenAIToolsOptions,
  OpenAIToolChoiceParams
> = {
  name: "openai",
  readCalls: readChatCalls,
  answer: (_message, results) => answerChat(results),
  exportTools: toOpenAITools,
  toolChoice: openAIToolChoice,
};
