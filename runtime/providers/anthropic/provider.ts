/** The `anthropic` provider: Anthropic Messages for dispatch (reading `tool_use` blocks, answering, tools, choice). */
import type { ToolProvider } from "../provider";
import { toAnthropicToolResults } from "./answer";
import { anthropicToolChoice } from "./choice";
import { readAnthropicCalls } from "./read";
import { toAnthropicTools } from "./tools";
import type {
  AnthropicAssistantMessage,
  AnthropicRequestTool,
  AnthropicToolChoiceParams,
  AnthropicToolResultMessage,
  AnthropicToolsOptions,
} from "./wire";

/** Anthropic Messages: a message whose `content` is a list of blocks. */
export const provider: ToolProvider<
  AnthropicAssistantMessage,
  AnthropicToolResultMessage,
  AnthropicRequestTool[],
  AnthropicToolsOptions,
  AnthropicToolChoiceParams
> = {
  name: "anthropic",
  readCalls: readAnthropicCalls,
  answer: (_message, results) => toAnthropicToolResults(results),
  exportTools: toAnthropicTools,
  toolChoice: anthropicToolChoice,
};
