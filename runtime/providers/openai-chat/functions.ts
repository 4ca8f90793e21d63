/**
 * The legacy functions API of Chat Completions as a format of its own (`openai-functions` in the catalogue): its
 * provider reads a `function_call` (and no `tool_calls`), answers it with one `function` message and writes its
 * `function_call` choice; the `functions` list of a request is written in tools.ts, so that registries export it
 * without loading this provider. It shares the chat folder's wire types and reading.
 */
import type {
  ChatCompletionCreateParams,
  ChatCompletionFunctionCallOption,
  ChatCompletionFunctionMessageParam,
} from "openai/resources/chat/completions";
import type { ToolMessage } from "../../dispatch/messages";
import { ToolExportError } from "../../tool/errors";
import { type ToolChoice, type ToolChoiceOptions, type ToolProvider, isChoiceMode, refuseValidated } from "../provider";
import { type OpenAIFunctionCallMessage, readToolCall } from "./read";
import { type OpenAIFunctionDefinition, toOpenAIFunctions } from "./tools";

export { type OpenAIFunctionDefinition, toOpenAIFunctions } from "./tools";

/** The answer to a legacy `function_call` (the SDK's `ChatCompletionFunctionMessageParam`). */
export interface OpenAIFunctionMessage {
  role: "function";
  name: string;
  content: string;
}

/** Request fields for the legacy `functions` API: `function_call`. */
export interface OpenAIFunctionChoiceParams {
  function_call: "none" | "auto" | { name: string };
}

/** The answer to a legacy `function_call`: `{ role: "function", name, content }` (errors included, as text). */
export function toOpenAIFunctionMessage(results: readonly ToolMessage[]): OpenAIFunctionMessage {
  const result = results[0];
  const answer: ChatCompletionFunctionMessageParam & OpenAIFunctionMessage = {
    role: "function",
    name: result?.name ?? "",
    content: result?.content ?? "",
  };
  return answer;
}

/** `function_call` for the legacy `functions` API, which has no "required". */
export function openAIFunctionChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): OpenAIFunctionChoiceParams {
  if (options.parallel !== undefined) {
    throw new ToolExportError(
      "The legacy functions API calls one function per turn and has no parallel_tool_calls switch; leave out the parallel option.",
      { format: "openai-functions" },
    );
  }
  refuseValidated(choice, "openai-functions");
  if (options.allowed !== undefined) {
    throw new ToolExportError("The legacy functions API has no allowed-tools choice; leave out the allowed option.", {
      format: "openai-functions",
    });
  }
  if (choice === "required") {
    throw new ToolExportError(
      'The legacy functions API has no "required" choice: name the function the model must call (toolChoice(registry, "<name>", "openai-functions")), or use tools with tool_choice "required".',
      { format: "openai-functions" },
    );
  }
  const function_call: ChatCompletionFunctionCallOption | "none" | "auto" = isChoiceMode(choice)
    ? (choice as "auto" | "none")
    : { name: choice };
  return { function_call };
}

/** The legacy functions API: a `function_call` (and no `tool_calls`), answered with one `function` message. */
export const provider: ToolProvider<
  OpenAIFunctionCallMessage,
  OpenAIFunctionMessage,
  OpenAIFunctionDefinition[],
  undefined,
  OpenAIFunctionChoiceParams
> = {
  name: "openai-functions",
  readCalls: (message) => [readToolCall({ id: "", function: message.function_call })],
  answer: (_message, results) => toOpenAIFunctionMessage(results),
  exportTools: (tools) => toOpenAIFunctions(tools),
  toolChoice: openAIFunctionChoice,
};

// The build-time checks promised above; they compile only while the types fit.
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameFunction: MutuallyAssignable<OpenAIFunctionDefinition, ChatCompletionCreateParams.Function> = true;
const fitsMessage: [OpenAIFunctionMessage] extends [ChatCompletionFunctionMessageParam] ? true : false = true;
const fitsFunctionChoice: [OpenAIFunctionChoiceParams["function_call"]] extends [
  ChatCompletionCreateParams["function_call"],
]
  ? true
  : false = true;
void [sameFunction, fitsMessage, fitsFunctionChoice];
