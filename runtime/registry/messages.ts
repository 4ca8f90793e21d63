/**
 * What `dispatch` reads and what it answers, as types over every provider's message: `ToolCallMessage` (any
 * provider's assistant message) and `DispatchResult<M>` (the answer's type for a message of type `M`). The run-time
 * side of the same mapping is the provider list (runtime/providers/index.ts).
 */
import type { ToolMessage } from "../dispatch/messages";
import type {
  AnthropicAssistantMessage,
  AnthropicToolResultMessage,
  DispatchInput,
  GeminiFunctionResponseContent,
  GeminiInput,
  OpenAIFunctionCallMessage,
  OpenAIFunctionMessage,
  ResponsesFunctionCallOutput,
  ResponsesInput,
} from "../providers";

/**
 * Everything `dispatch` reads: Chat Completions and LangChain messages, the legacy `function_call`, a Responses API
 * response or item list, an Anthropic message, a Gemini response or `Content`.
 */
export type ToolCallMessage =
  | DispatchInput
  | OpenAIFunctionCallMessage
  | ResponsesInput
  | AnthropicAssistantMessage
  | GeminiInput;

/**
 * What `dispatch` resolves to for a message of type `M`: the answer in the message's own format. Mirrors the run-time
 * recognition (the provider list, runtime/providers/index.ts) on the message's static type:
 * - a list, or an object with an `output` list (Responses API) → `function_call_output` items;
 * - a required `function_call` (legacy functions API) → one `{ role: "function", name, content }` message;
 * - a type with `tool_calls` (Chat Completions, LangChain) → `ToolMessage[]`;
 * - a type with `candidates` or `parts` (Gemini) → one `user` Content of `functionResponse` parts;
 * - a type whose `content` may be a list of blocks (Anthropic) → one `user` message of `tool_result` blocks;
 * - anything else → `ToolMessage[]`.
 * An SDK `ChatCompletionMessage` has an optional `function_call`, so it gets `ToolMessage[]`; narrow it with
 * `hasFunctionCall(message)` to get the legacy answer's type.
 */
export type DispatchResult<M> = M extends readonly unknown[]
  ? ResponsesFunctionCallOutput[]
  : M extends { output: readonly unknown[] }
    ? ResponsesFunctionCallOutput[]
    : M extends { function_call: { name: string; arguments: string } }
      ? OpenAIFunctionMessage
      : "tool_calls" extends keyof M
        ? ToolMessage[]
        : "candidates" extends keyof M
          ? GeminiFunctionResponseContent
          : "parts" extends keyof M
            ? GeminiFunctionResponseContent
            : M extends { content: infer C }
              ? [Extract<C, readonly unknown[]>] extends [never]
                ? ToolMessage[]
                : AnthropicToolResultMessage
              : ToolMessage[];

