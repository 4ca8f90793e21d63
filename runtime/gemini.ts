/**
 * `tooltype/gemini`: the smallest way in for an app on Gemini: the core (`tooltype/core`) and a `ToolRegistry` whose
 * export method is `toGeminiTools` only. A bundle of it carries no other provider.
 *
 * @module tooltype/gemini
 */
export * from "./core";
export { ToolRegistry } from "./registry/gemini";
export { FunctionCallingConfigMode as GeminiFunctionCallingConfigMode, Type as GeminiType } from "./providers/gemini/enums";
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
} from "./providers/gemini";
