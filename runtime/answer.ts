/**
 * Answering in kind: the ToolMessages of one model message, written in that message's own format (the format is
 * recognised again from the message's shape, as calls.ts read it). One file per provider in formats/ does the writing.
 */
import { messageFormat } from "./calls";
import { toAnthropicToolResults } from "./formats/anthropic";
import { toGeminiFunctionResponses } from "./formats/gemini";
import { toOpenAIFunctionMessage } from "./formats/openai";
import { toResponsesOutputs } from "./formats/responses";
import type { DispatchResult, ToolCallMessage, ToolMessage } from "./messages";

/**
 * The answer to `message` made of `results` (one ToolMessage per call, in call order, as `registry.runCalls`
 * returns them): ToolMessages for Chat Completions and LangChain, a `function` message for the legacy functions
 * API, `function_call_output` items for the Responses API, a `user` message of `tool_result` blocks for Anthropic,
 * a `user` Content of `functionResponse` parts for Gemini.
 */
export function formatAnswer<M extends ToolCallMessage>(message: M, results: readonly ToolMessage[]): DispatchResult<M> {
  return answerIn(message, results) as DispatchResult<M>;
}

function answerIn(message: unknown, results: readonly ToolMessage[]): unknown {
  switch (messageFormat(message)) {
    case "chat":
      return [...results];
    case "openai-function":
      return toOpenAIFunctionMessage(results);
    case "responses":
      return toResponsesOutputs(results);
    case "anthropic":
      return toAnthropicToolResults(results);
    case "gemini":
      return toGeminiFunctionResponses(results);
  }
}
