/**
 * The public format types (and values) of the OpenAI Responses API, exported by its entry (`tooltype/responses`) and by
 * the main
 * `tooltype` entry alike: tooltype's own copies of the SDK's types, so no SDK is needed to import them.
 */
export { OPENAI_LIMITS } from "../../strict/openai-limits";
export type {
  ResponsesCall,
  ResponsesCallOutput,
  ResponsesCustomCall,
  ResponsesCustomCallOutput,
  ResponsesCustomTool,
  ResponsesFunctionCall,
  ResponsesFunctionCallOutput,
  ResponsesFunctionTool,
  ResponsesInput,
  ResponsesOutputContent,
  ResponsesNamespaceTool,
  ResponsesTool,
  ResponsesToolSearchTool,
  ResponsesToolChoice,
  ResponsesToolChoiceParams,
  ResponsesToolsOptions,
} from "./wire";
// The agent loop's side: the client, its requests and replies, `runTools`' params.
export type {
  ResponsesClient,
  ResponsesInputItem,
  ResponsesLoopTypes,
  ResponsesReply,
  ResponsesRequest,
  ResponsesRunParams,
  ResponsesStreamEvent,
} from "./wire";
