/**
 * The public format types (and values) of OpenAI Chat Completions, exported by its entry (`tooltype/openai`) and by the main
 * `tooltype` entry alike: tooltype's own copies of the SDK's types, so no SDK is needed to import them.
 */
export { OPENAI_LIMITS } from "./providers/openai-limits";
export type {
  OpenAIFunctionChoiceParams,
  OpenAIFunctionDefinition,
  OpenAIFunctionMessage,
  OpenAIFunctionTool,
  OpenAIToolChoice,
  OpenAIToolChoiceParams,
  OpenAIToolsOptions,
} from "./providers/openai-chat";
