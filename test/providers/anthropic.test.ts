/** Anthropic Messages through the provider contract (contract.case.ts): arguments arrive as objects. */
import type { AnthropicToolResultMessage } from "tooltype";
import { providerContract } from "./contract.case";

providerContract({
  format: "anthropic",
  message: (calls) => ({
    role: "assistant",
    content: calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
  }),
  answers: (answer) =>
    (answer as AnthropicToolResultMessage).content.map((block) => ({
      id: block.tool_use_id,
      text: String(block.content),
      error: block.is_error === true,
    })),
  exportFrom: (registry) => registry.toAnthropicTools(),
  entry: {
    load: () => import("tooltype/anthropic"),
    exportFrom: (registry) => (registry as import("tooltype/anthropic").ToolRegistry).toAnthropicTools(),
  },
  exported: (tool) => {
    const { name, description, input_schema } = tool as { name: string; description?: string; input_schema: unknown };
    return { name, description, parameters: input_schema };
  },
  ids: true,
  textArguments: false,
});
