/** The scripted stand-in for a model in the weather example (without OPENAI_API_KEY, and in the end-to-end test). */
import type { ChatCompletionCreateParams } from "openai/resources/chat/completions";
import { toolResults, type ScriptStep } from "../../test/scripted-openai/server";

export const QUESTION = "What's the weather in Beijing, and find me some umbrellas?";

/**
 * It plays the two turns a real model would: first it answers the question with two parallel tool calls, then,
 * once the tool results are in the request, it writes the final answer from their contents. Each step checks the
 * request it receives, so a broken loop fails loudly (HTTP 500 naming the problem) instead of answering anyway.
 */
export const weatherScript: ScriptStep[] = [
  (request) => {
    const offered = offeredTools(request);
    for (const name of ["get_weather", "search_products"]) {
      if (!offered.includes(name))
        throw new Error(`the request does not offer the ${name} tool (offered: ${offered.join(", ") || "none"})`);
    }
    return {
      tool_calls: [
        { name: "get_weather", arguments: { location: "Beijing" } },
        { name: "search_products", arguments: { keyword: "umbrella", limit: 3 } },
      ],
    };
  },
  (request) => {
    const results = toolResults(request);
    const weather = results.find((result) => result.name === "get_weather");
    const products = results.find((result) => result.name === "search_products");
    if (!weather || !products) {
      throw new Error(
        `expected tool messages for get_weather and search_products, got ${results.length} tool message(s)`,
      );
    }
    return { content: `Weather in ${weather.content}. ${describeProducts(products.content)}` };
  },
];

function offeredTools(request: ChatCompletionCreateParams): string[] {
  return (request.tools ?? []).map((t) => (t.type === "function" ? t.function.name : t.custom.name));
}

/** Lists the products if the tool result is the JSON array the tool returned; otherwise quotes it as is. */
function describeProducts(content: string): string {
  let products: unknown;
  try {
    products = JSON.parse(content);
  } catch {
    return `The product search said: ${content}`;
  }
  if (!Array.isArray(products)) return `The product search said: ${content}`;
  if (products.length === 0) return "I found no umbrellas in the catalog.";
  const lines = products.map((p: { name?: unknown; price?: unknown }) => `${String(p.name)} (${price(p.price)})`);
  return `Umbrellas you could take: ${lines.join(", ")}.`;
}

function price(value: unknown): string {
  return typeof value === "number" ? `$${value.toFixed(2)}` : String(value);
}
