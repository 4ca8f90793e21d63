/** The `gemini` provider: Gemini for dispatch (reading `functionCall` parts, answering, tools, tool config). */
import type { ToolProvider } from "../provider";
import { toGeminiFunctionResponses } from "./answer";
import { geminiToolChoice } from "./choice";
import { readGeminiCalls } from "./read";
import { toGeminiTools } from "./tools";
import type {
  GeminiFunctionResponseContent,
  GeminiInput,
  GeminiTool,
  GeminiToolConfigParams,
  GeminiToolsOptions,
} from "./wire";

/** Gemini: a `GenerateContentResponse` (`candidates`, `functionCalls`, `usageMetadata`) or a `Content` (`parts`). */
export const provider: ToolProvider<
  GeminiInput,
  GeminiFunctionResponseContent,
  GeminiTool[],
  GeminiToolsOptions,
  GeminiToolConfigParams
> = {
  name: "gemini",
  readCalls: readGeminiCalls,
  answer: (_message, results) => toGeminiFunctionResponses(results),
  exportTools: toGeminiTools,
  toolChoice: geminiToolChoice,
};
