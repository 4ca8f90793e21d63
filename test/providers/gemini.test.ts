/** Gemini through the provider contract (contract.case.ts): arguments arrive as objects; results as `{ output }` or `{ error }`. */
import type { GeminiFunctionResponseContent } from "tooltype";
import { providerContract } from "./contract.case";

providerContract({
  format: "gemini",
  message: (calls) => ({
    role: "model",
    parts: calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.args } })),
  }),
  answers: (answer) =>
    (answer as GeminiFunctionResponseContent).parts.map(({ functionResponse }) => {
      const response = functionResponse.response as { output?: unknown; error?: unknown };
      const error = "error" in response;
      return { id: functionResponse.id, text: String(error ? response.error : response.output), error };
    }),
  exportFrom: (registry) => registry.toGeminiTools()[0]!.functionDeclarations ?? [],
  entry: {
    load: () => import("tooltype/gemini"),
    exportFrom: (registry) =>
      (registry as import("tooltype/gemini").ToolRegistry).toGeminiTools()[0]!.functionDeclarations ?? [],
  },
  exported: (tool) => {
    const { name, description, parameters } = tool as { name: string; description?: string; parameters: unknown };
    return { name, description, parameters };
  },
  ids: true,
  textArguments: false,
});
