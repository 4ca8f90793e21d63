/** The legacy functions API of Chat Completions through the provider contract (contract.case.ts): one call per message, no ids. */
import { argumentsText, providerContract } from "./contract.case";

providerContract({
  format: "openai-functions",
  message: (calls) => ({
    role: "assistant",
    content: null,
    function_call: { name: calls[0]!.name, arguments: argumentsText(calls[0]!) },
  }),
  answers: (answer) => {
    const message = answer as { role: string; name: string; content: string };
    return message.role === "function" ? [{ text: message.content }] : [];
  },
  exportFrom: (registry) => registry.toOpenAIFunctions(),
  entry: {
    load: () => import("tooltype/openai"),
    exportFrom: (registry) => (registry as import("tooltype/openai").ToolRegistry).toOpenAIFunctions(),
  },
  exported: (tool) => tool as { name: string; description?: string; parameters: unknown },
  maxCalls: 1,
  ids: false,
  textArguments: true,
});
