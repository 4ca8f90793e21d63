/**
 * Long schemas in the emitted metadata are written as `JSON.parse('<JSON>')` (faster to load than an object
 * literal): the value the runtime sees is the same schema, whatever characters the descriptions hold, and short
 * fields stay object literals.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolRegistry } from "tooltype";
import { compileFixture } from "../support/compile";

const source = `
import { tool, ToolRegistry } from "tooltype";
/**
 * Quote a text.
 * @param text It's the "text" to quote, with a back\\slash, é and 😀 in its description
 * @param author Who said it
 * @param year When
 */
export const quote = tool(function quote(text: string, author?: string, year?: number) { return text; });
/** Ping. */
export const ping = tool(function ping() { return "pong"; });
export const registry = new ToolRegistry([quote, ping]);
`;

test("a long parameter schema is emitted as JSON text and loads as the same schema", async () => {
  const fixture = compileFixture(source);
  assert.equal(
    fixture.diagnostics.filter((d) => d.category === "error"),
    [],
  );
  const js = fixture.js["main.js"]!;
  assert.match(js, /parameters: JSON\.parse\('\{"type":"object","properties":\{"text":/);
  // Short fields stay literals.
  assert.match(js, /parameters: \{ type: "object", properties: \{\}/);
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  const parameters = registry.get("quote")!.parameters as { properties: { text: { description: string } } };
  assert.is(
    parameters.properties.text.description,
    'It\'s the "text" to quote, with a back\\slash, é and 😀 in its description',
  );
  assert.equal(Object.keys(parameters.properties), ["text", "author", "year"]);
  const [answer] = await registry.dispatch({ tool_calls: [{ id: "1", name: "quote", args: { text: 5 } }] });
  assert.is(answer!.status, "error");
  assert.match(answer!.content, /\/text: must be a string/);
});

test.run();
