/**
 * The smallest tool service: three tools on `tooltype/core`'s registry served over MCP by `mcpFetchHandler`, and
 * nothing else, as a Worker. Bundled by the size bench and run in workerd by the Workers test, whose clients list
 * and call its tools; its bundle's size is what a platform's upload limit is compared with.
 */
import { ToolRegistry, tool } from "tooltype/core";
import { mcpFetchHandler } from "tooltype/mcp";

/**
 * The weather in a city.
 * @param city City name
 * @param unit Temperature unit
 */
export const weather = tool(function weather(
  city: string,
  unit: "celsius" | "fahrenheit" = "celsius",
): { city: string; temperature: number; unit: string } {
  return { city, temperature: unit === "celsius" ? 21 : 70, unit };
});

/**
 * Convert an amount between currencies.
 * @param amount How much
 * @param from Currency code, e.g. EUR
 * @param to Currency code, e.g. USD
 */
export const convert = tool(function convert(amount: number, from: string, to: string): string {
  return `${amount} ${from} is ${(amount * 1.1).toFixed(2)} ${to}`;
});

/**
 * Search the notes.
 * @param query Words to look for
 * @param limit At most this many results
 */
export const search = tool(function search(query: string, limit?: number): string[] {
  return [`note about ${query}`].slice(0, limit ?? 10);
});

const serve = mcpFetchHandler(new ToolRegistry([weather, convert, search]), { name: "small-tools", version: "1.0.0" });

export default {
  fetch(request: Request): Promise<Response> {
    return serve(request);
  },
};
