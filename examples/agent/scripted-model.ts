/**
 * The scripted stand-in for a model in the agent example (without OPENAI_API_KEY, and in the end-to-end test): two
 * parallel tool calls, then the answer written from their results.
 */
import type { ChatCompletionCreateParams } from "openai/resources/chat/completions";
import { toolResults, type ScriptStep } from "../../test/scripted-openai/server";

export const QUESTION = "What is 2 times 3, and 6 plus 6?";

/**
 * Each step checks the request it receives, so a broken loop fails loudly instead of answering anyway.
 */
export const agentScript: ScriptStep[] = [
  (request) => {
    const offered = (request.tools ?? []).map((t) => (t.type === "function" ? t.function.name : t.custom.name));
    for (const name of ["multiply", "add"]) {
      if (!offered.includes(name))
        throw new Error(`the request does not offer the ${name} tool (offered: ${offered.join(", ") || "none"})`);
    }
    return {
      tool_calls: [
        { name: "multiply", arguments: { a: 2, b: 3 } },
        { name: "add", arguments: { a: 6, b: 6 } },
      ],
    };
  },
  (request: ChatCompletionCreateParams) => {
    const results = toolResults(request);
    const product = results.find((r) => r.name === "multiply");
    const sum = results.find((r) => r.name === "add");
    if (!product || !sum)
      throw new Error(`expected the results of multiply and add, got ${results.length} tool message(s)`);
    return { content: `2 times 3 is ${product.content}, and 6 plus 6 is ${sum.content}.` };
  },
];
