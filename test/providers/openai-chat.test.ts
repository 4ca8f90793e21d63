/** Chat Completions (and LangChain `AIMessage`s) through the provider contract (contract.case.ts). */
import type { ToolMessage } from "tooltype";
import { argumentsText, providerContract } from "./contract.case";

providerContract({
  format: "openai",
  message: (calls) => ({
    role: "assistant",
    content: null,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: argumentsText(call) },
    })),
  }),
  answers: (answer) =>
    (answer as ToolMessage[]).map((message) => ({
      id: message.tool_call_id,
      text: message.content,
      error: message.status === "error",
    })),
  exportFrom: (registry) => registry.toOpenAITools(),
  entry: {
    load: () => import("tooltype/openai"),
    exportFrom: (registry) => (registry as import("tooltype/openai").ToolRegistry).toOpenAITools(),
  },
  exported: (tool) => {
    const { function: fn } = tool as { function: { name: string; description?: string; parameters: unknown } };
    return { name: fn.name, description: fn.description, parameters: fn.parameters };
  },
  ids: true,
  textArguments: true,
});
