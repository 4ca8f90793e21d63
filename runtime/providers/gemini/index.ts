/**
 * The public format types (and values) of Gemini, exported by its entry (`tooltype/gemini`) and by the main
 * `tooltype` entry alike: tooltype's own copies of the SDK's types, so no SDK is needed to import them.
 */
export { FunctionCallingConfigMode as GeminiFunctionCallingConfigMode, Type as GeminiType } from "./enums";
export type {
  GeminiFunctionDeclaration,
  GeminiFunctionResponseContent,
  GeminiFunctionResponseMedia,
  GeminiFunctionResponsePart,
  GeminiInput,
  GeminiSchema,
  GeminiTool,
  GeminiToolConfigParams,
  GeminiToolsOptions,
} from "./wire";
// The agent loop's side: the client, its requests and replies, `runTools`' params.
export type {
  GeminiContent,
  GeminiFunctionCall,
  GeminiLoopTypes,
  GeminiModelsClient,
  GeminiPart,
  GeminiPartialArg,
  GeminiRequest,
  GeminiResponse,
  GeminiRunParams,
} from "./wire";
