/**
 * The README's multi-provider loop example (marked `<!-- readme-compile: agent-providers -->`) compiles as a user's
 * ES module with the real compiler and the transformer, against the real SDKs' types: every client, params shape
 * and option it shows type-checks. It is not run (it would reach the providers); test/agent/providers.test.ts runs
 * the same calls against scripted servers.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileProgram } from "../support/compile";
import { readmeBlock as block } from "../support/readme";

const tools = `
import { tool, type Int, type Max, type Min } from "tooltype";

/**
 * Get the current weather in a city.
 * @param city City name
 */
export const getWeather = tool(function get_weather(city: string): string {
  return city + ": 21°C";
});

/**
 * Search products.
 * @param keyword Search keyword
 * @param maxPrice Highest price in euros
 */
export const searchProducts = tool(function search_products(keyword: string, maxPrice?: Int & Min<1> & Max<1000>): string[] {
  return [keyword + (maxPrice === undefined ? "" : " < " + maxPrice)];
});
`;

test("README: the agent loop on every model API compiles", () => {
  const fixture = compileProgram({ "main.mts": block("agent-providers"), "tools.mts": tools });
  assert.equal(
    fixture.diagnostics.filter((d) => d.category === "error").map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`),
    [],
  );
  assert.match(fixture.js["main.mjs"] ?? "", /runTools\(new Anthropic\(\)/);
});

test.run();
