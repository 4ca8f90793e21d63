/** The `responses` provider: the OpenAI Responses API for dispatch (reading `function_call` items, answering, tools, choice). */
import type { ToolProvider } from "../provider";
import { toResponsesOutputs } from "./answer";
import { responsesToolChoice } from "./choice";
import { readResponsesCalls } from "./read";
import { toResponsesTools } from "./tools";
import type {
  ResponsesFunctionCallOutput,
  ResponsesInput,
  ResponsesTool,
  ResponsesToolChoiceParams,
  ResponsesToolsOptions,
} from "./wire";

/** The Responses API: a `Response` (its `output` list) or a list of items. */
export const provider: ToolProvider<
  ResponsesInput,
  ResponsesFunctionCallOutput[],
  ResponsesTool[],
  ResponsesToolsOptions,
  ResponsesToolChoiceParams
> = {
  name: "responses",
  readCalls: readResponsesCalls,
  answer: (_message, results) => toResponsesOutputs(results),
  exportTools: toResponsesTools,
  toolChoice: responsesToolChoice,
};
