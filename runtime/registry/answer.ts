/**
 * Answering in kind: the ToolMessages of one model message, written in that message's own format by the provider
 * that owns it (the catalogue recognises the message from its shape, as when its calls were read).
 */
import type { ToolMessage } from "../dispatch/messages";
import { providerOf } from "../providers/at-hand";
import type { DispatchResult, ToolCallMessage } from "../providers/catalog";

/**
 * The answer to `message` made of `results` (one ToolMessage per call, in call order, as `registry.runCalls`
 * returns them): ToolMessages for Chat Completions and LangChain, a `function` message for the legacy functions
 * API, `function_call_output` items for the Responses API, a `user` message of `tool_result` blocks for Anthropic,
 * a `user` Content of `functionResponse` parts for Gemini.
 */
export function formatAnswer<M extends ToolCallMessage>(
  message: M,
  results: readonly ToolMessage[],
): DispatchResult<M> {
  return providerOf(message).answer(message, results) as DispatchResult<M>;
}
