/**
 * `@example` blocks that are one JSON object become the tool's example arguments (`meta.examples`), checked against
 * its parameter schema at compile time (TT1026 at the tag that does not fit, saying what is wrong); other `@example`
 * blocks (code samples, prose) stay in the description as before.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { RegisteredTool } from "tooltype";
import { compileFixture } from "../support/compile";

function registered(source: string): { tool: RegisteredTool } {
  const fixture = compileFixture(
    `import { tool, ToolRegistry } from "tooltype";\n${source}\nexport const registry = new ToolRegistry([weather]);`,
  );
  assert.equal(fixture.diagnostics, [], "no diagnostic");
  const { registry } = fixture.load<{ registry: { list(): RegisteredTool[] } }>();
  return { tool: registry.list()[0]! };
}

test("JSON object examples become meta.examples, out of the description; a code sample stays in it", () => {
  const { tool } = registered(`
/**
 * Current weather for a city.
 * @example {"city": "Paris"}
 * @example
 * \`\`\`json
 * { "city": "Oslo", "unit": "fahrenheit" }
 * \`\`\`
 * @example weather("Paris") // a call, not arguments
 */
export const weather = tool(function weather(city: string, unit: "celsius" | "fahrenheit" = "celsius") { return city + unit; });
`);
  assert.equal(tool.meta.examples, [{ city: "Paris" }, { city: "Oslo", unit: "fahrenheit" }]);
  assert.is(
    tool.meta.description,
    'Current weather for a city.\n\nExample:\nweather("Paris") // a call, not arguments',
  );
  assert.is(tool.description, tool.meta.description);
});

test("a tool without JSON examples has no examples field and the description it always had", () => {
  const { tool } = registered(`
/**
 * Current weather for a city.
 * @example weather("Paris")
 */
export const weather = tool(function weather(city: string) { return city; });
`);
  assert.is("examples" in tool.meta, false);
  assert.is(tool.meta.description, 'Current weather for a city.\n\nExample:\nweather("Paris")');
});

test("an example the parameters refuse is TT1026 at its tag, listing what is wrong as dispatch would", () => {
  const fixture = compileFixture(`import { tool } from "tooltype";
/**
 * Current weather for a city.
 * @example {"city": "Paris"}
 * @example {"unit": "kelvin", "days": 3}
 */
export const weather = tool(function weather(city: string, unit?: "celsius" | "fahrenheit") { return city; });
`);
  const [d, ...rest] = fixture.tooltype;
  assert.equal(rest, []);
  assert.is(d!.code, "TT1026");
  assert.is(d!.category, "error");
  assert.is(d!.line, 5);
  assert.is(d!.text, '@example {"unit": "kelvin", "days": 3}');
  assert.match(d!.message, /The @example #2 of tool "weather"/);
  assert.match(d!.message, /- \/unit: must be one of "celsius", "fahrenheit"; got "kelvin"/);
  assert.match(d!.message, /unexpected property "days"/);
  assert.match(d!.message, /missing required property "city"/);
  assert.match(d!.message, /Correct the example/);
});

test("constraints from JSDoc tags count: an example below a @minimum is refused", () => {
  const fixture = compileFixture(`import { tool } from "tooltype";
interface Query {
  /** @minimum 1 */
  limit: number;
}
/**
 * Search.
 * @example {"limit": 0}
 */
export const search = tool(function search({ limit }: Query) { return String(limit); });
`);
  assert.equal(
    fixture.tooltype.map((d) => d.code),
    ["TT1026"],
  );
  assert.match(fixture.tooltype[0]!.message, /\/limit: must be >= 1; got 0/);
});

test.run();
