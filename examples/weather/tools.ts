/**
 * The weather example's tools: one `@tool` method on a class and one plain function wrapped with `tool()`. No schema
 * is written here: the transformer reads each signature and JSDoc (`@param` lines, `Int`, `limit = 10` as a default).
 */
import { tool, ToolRegistry, type Int } from "tooltype";

/**
 * Weather for a few cities; any other city gets a stable pseudo-random forecast derived from its name. The data is
 * fake and deterministic, so the offline run and the tests always print the same.
 */
const KNOWN_WEATHER: Record<string, { condition: string; celsius: number; humidity: number }> = {
  beijing: { condition: "light rain", celsius: 18, humidity: 82 },
  shanghai: { condition: "overcast", celsius: 22, humidity: 75 },
  paris: { condition: "sunny", celsius: 24, humidity: 40 },
  london: { condition: "drizzle", celsius: 14, humidity: 88 },
};
const CONDITIONS = ["sunny", "cloudy", "light rain", "windy", "overcast"];

export class Weather {
  /**
   * Get the current weather in a city.
   * @param location City name, e.g. "Beijing"
   */
  @tool
  get_weather(location: string): string {
    const city = location.trim();
    const known = KNOWN_WEATHER[city.toLowerCase()];
    const seed = hash(city.toLowerCase());
    const { condition, celsius, humidity } = known ?? {
      condition: CONDITIONS[seed % CONDITIONS.length],
      celsius: 5 + (seed % 26),
      humidity: 30 + (seed % 60),
    };
    return `${city}: ${condition}, ${celsius}°C, humidity ${humidity}%`;
  }
}

export interface Product {
  id: string;
  name: string;
  price: number;
  tags: string[];
}

/** The whole catalog: small enough to read, varied enough to search. */
export const CATALOG: readonly Product[] = [
  { id: "p-101", name: "Compact Travel Umbrella", price: 19.9, tags: ["umbrella", "rain", "travel"] },
  { id: "p-102", name: "Windproof Golf Umbrella", price: 34.5, tags: ["umbrella", "rain", "golf"] },
  { id: "p-103", name: "Clear Dome Umbrella", price: 24, tags: ["umbrella", "rain"] },
  { id: "p-104", name: "Kids' Duck Umbrella", price: 12.99, tags: ["umbrella", "rain", "kids"] },
  { id: "p-201", name: "Packable Rain Jacket", price: 59, tags: ["jacket", "rain", "travel"] },
  { id: "p-202", name: "Waterproof Hiking Boots", price: 89, tags: ["boots", "rain", "hiking"] },
  { id: "p-301", name: "Polarized Sunglasses", price: 45, tags: ["sunglasses", "sun"] },
  { id: "p-302", name: "SPF 50 Sunscreen", price: 11.5, tags: ["sunscreen", "sun"] },
];

/**
 * Search products from the catalog.
 * @param keyword Search keyword
 * @param limit Maximum number of results
 */
export const searchProducts = tool(function search_products(keyword: string, limit: Int = 10): Product[] {
  const words = keyword.toLowerCase().split(/\s+/).filter(Boolean).map(singular);
  return CATALOG.filter((product) => {
    const text = [product.name, ...product.tags].join(" ").toLowerCase();
    return words.every((word) => text.includes(word));
  }).slice(0, Math.max(0, limit));
});

/** A registry holding both tools, as the example and the tests use it. */
export function createRegistry(): ToolRegistry {
  return new ToolRegistry([new Weather(), searchProducts]);
}

/** "umbrellas" finds "umbrella": a crude singular, enough for a catalog search. */
function singular(word: string): string {
  return word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/** FNV-1a: a stable hash, so unknown cities always get the same weather. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
