/**
 * The `responses` provider: the OpenAI Responses API for dispatch (reading `function_call` and `custom_tool_call`
 * items, answering, tools, choice).
 */
import type { ToolProvider } from "../provider";
import { toResponsesOutputs } from "./answer";
import { responsesToolChoice } from "./choice";
import { customCallIds, readResponsesCalls } from "./read";
import { toResponsesTools } from "./tools";
import type {
  ResponsesCallOutput,
  ResponsesInput,
  ResponsesTool,
  ResponsesToolChoiceParams,
  ResponsesToolsOptions,
} from "./wire";

/** The Responses API: a `Response` (its `output` list) or a list of items. */
export const provider: ToolProvider<
  ResponsesInput,
  ResponsesCallOutput[],
  ResponsesTool[],
  ResponsesToolsOptions,
  ResponsesToolChoiceParams
> = {
  name: "responses",
  readCalls: readResponsesCalls,
  answer: (message, results) => toResponsesOutputs(results, customCallIds(message)),
  exportTools: toResponsesTools,
  toolChoice: responsesToolChoice,
};
