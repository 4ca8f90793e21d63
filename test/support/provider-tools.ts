/**
 * One set of tools for the provider round trips and the MCP server, compiled by the transformer during the test
 * build (schemas come from the signatures and JSDoc below): an object-returning `@tool` method with an optional
 * parameter (strict mode's null → undefined case, MCP's outputSchema), a `tool()` function with a constrained
 * integer and an optional nested object, a tool that always fails with a ToolError, and a content_and_artifact tool.
 */
import { type Int, type Max, type Min, ToolError, ToolRegistry, tool } from "tooltype";

export interface Forecast {
  city: string;
  temperature: number;
  unit: "celsius" | "fahrenheit";
}

export class Weather {
  /**
   * Get the current weather in a city.
   * @param city City name, e.g. "Paris"
   * @param unit Temperature unit
   */
  @tool
  get_weather(city: string, unit: "celsius" | "fahrenheit" = "celsius"): Forecast {
    return { city, temperature: unit === "celsius" ? 21 : 70, unit };
  }
}

export interface SearchFilters {
  /** Highest price, in euros */
  maxPrice?: number;
  /** Only products in stock */
  inStock: boolean;
}

/**
 * Search products from the catalog.
 * @param keyword Search keyword
 * @param limit Maximum number of results
 * @param filters Optional filters
 */
export const searchProducts = tool(function search_products(
  keyword: string,
  limit: Int & Min<1> & Max<20> = 3,
  filters?: SearchFilters,
) {
  return { keyword, limit, filters: filters ?? null, maxPriceGiven: filters !== undefined && "maxPrice" in filters };
});

/**
 * Always fails, with a message for the model.
 * @param reason Why
 */
export const explode = tool(function explode(reason: string): string {
  throw new ToolError(`Cannot do that: ${reason}`);
});

/**
 * Look up a record; the raw record stays in process as the artifact.
 * @param id Record id
 */
export const lookup = tool(
  function lookup(id: string): [string, { id: string; secret: string }] {
    return [`Record ${id} found.`, { id, secret: "kept in process" }];
  },
  { responseFormat: "content_and_artifact" },
);

export function createProviderRegistry(): ToolRegistry {
  return new ToolRegistry([new Weather(), searchProducts, explode, lookup]);
}
