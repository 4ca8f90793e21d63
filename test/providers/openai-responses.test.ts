/** The OpenAI Responses API through the provider contract (contract.case.ts). */
import type { ResponsesFunctionCallOutput } from "tooltype";
import { argumentsText, providerContract } from "./contract.case";

providerContract({
  format: "responses",
  message: (calls) => ({
    output: calls.map((call) => ({
      type: "function_call",
      call_id: call.id,
      name: call.name,
      arguments: argumentsText(call),
    })),
  }),
  answers: (answer) =>
    (answer as ResponsesFunctionCallOutput[]).map((item) => ({ id: item.call_id, text: String(item.output) })),
  exportFrom: (registry) => registry.toResponsesTools({ strict: false }),
  entry: {
    load: () => import("tooltype/responses"),
    exportFrom: (registry) =>
      (registry as import("tooltype/responses").ToolRegistry).toResponsesTools({ strict: false }),
  },
  exported: (tool) => tool as { name: string; description?: string; parameters: unknown },
  ids: true,
  textArguments: true,
});
