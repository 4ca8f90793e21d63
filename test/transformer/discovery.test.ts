/**
 * Which usages the transformer compiles: `@tool` and `@tool({...})` on instance and static methods, `tool(fn)`
 * on function expressions, arrows and references, through renamed and namespace imports; and what it leaves
 * alone (a user's own `tool`, calls that already carry metadata).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolRegistry } from "tooltype";
import { compileFixture, compileProgram } from "../support/compile";

function registryOf(source: string): ToolRegistry {
  const fixture = compileFixture(source);
  assert.equal(fixture.diagnostics, [], "fixture compiles cleanly");
  return fixture.load<{ registry: ToolRegistry }>().registry;
}

test("the seed's weather tool compiles to the exact schema", () => {
  const registry = registryOf(`
    import { tool, ToolRegistry } from "tooltype";
    class Weather {
      /**
       * Get the current weather in a city.
       * @param location City name, e.g. "Beijing"
       */
      @tool
      get_weather(location: string): string { return "sunny in " + location; }
    }
    export const registry = new ToolRegistry([new Weather()]);
  `);
  const weather = registry.get("get_weather")!;
  assert.is(weather.description, "Get the current weather in a city.");
  assert.is(
    JSON.stringify(weather.parameters),
    '{"type":"object","properties":{"location":{"type":"string","description":"City name, e.g. \\"Beijing\\""}},"required":["location"],"additionalProperties":false}',
  );
});

test("tool(function) with an Int default: integer, default 10, not required", () => {
  const registry = registryOf(`
    import { tool, ToolRegistry, type Int } from "tooltype";
    /**
     * Search products from the catalog.
     * @param keyword Search keyword
     * @param limit Maximum number of results
     */
    export const searchProducts = tool(function search_products(keyword: string, limit: Int = 10) { return [keyword, limit]; });
    export const registry = new ToolRegistry([searchProducts]);
  `);
  const search = registry.get("search_products")!;
  assert.equal(search.parameters, {
    type: "object",
    properties: {
      keyword: { type: "string", description: "Search keyword" },
      limit: { type: "integer", description: "Maximum number of results", default: 10 },
    },
    required: ["keyword"],
    additionalProperties: false,
  });
  assert.equal(search.meta.params, ["keyword", "limit"]);
});

test("@tool({...}) on instance and static methods, options win over derived values", () => {
  const registry = registryOf(`
    import { tool, ToolRegistry } from "tooltype";
    export class Calculator {
      /** Multiply two numbers. */
      @tool({ name: "multiply", tags: ["math"] })
      times(a: number, b: number) { return a * b; }
      /** Add two numbers. */
      @tool
      static add(a: number, b: number) { return a + b; }
      /** Not a tool. */
      helper() { return 0; }
    }
    export const registry = new ToolRegistry([new Calculator(), Calculator]);
  `);
  assert.equal(
    registry
      .list()
      .map((t) => t.name)
      .sort(),
    ["add", "multiply"],
  );
  assert.is(registry.get("multiply")!.description, "Multiply two numbers.");
  assert.equal(registry.get("add")!.meta.params, ["a", "b"]);
});

test("arrow functions take the variable's name; JSDoc on the declaration describes them", () => {
  const registry = registryOf(`
    import { tool, ToolRegistry } from "tooltype";
    /**
     * Look up a user by id.
     * @param id The user's id
     */
    export const lookupUser = tool((id: string) => ({ id }));
    export const registry = new ToolRegistry([lookupUser]);
  `);
  const lookup = registry.get("lookupUser")!;
  assert.is(lookup.description, "Look up a user by id.");
  assert.equal(lookup.parameters.properties, { id: { type: "string", description: "The user's id" } });
});

test("function references: the referenced declaration's name, JSDoc and parameters", () => {
  const registry = registryOf(`
    import { tool, ToolRegistry } from "tooltype";
    /**
     * Convert a temperature.
     * @param celsius Degrees Celsius
     */
    function to_fahrenheit(celsius: number) { return celsius * 9 / 5 + 32; }
    export const registry = new ToolRegistry([tool(to_fahrenheit)]);
  `);
  const convert = registry.get("to_fahrenheit")!;
  assert.is(convert.description, "Convert a temperature.");
  assert.equal(convert.parameters.required, ["celsius"]);
});

test("renamed and namespace imports are recognised by symbol", () => {
  const registry = registryOf(`
    import { tool as t, ToolRegistry } from "tooltype";
    import * as tt from "tooltype";
    class Tools {
      /** Say hello. */
      @tt.tool
      hello(name: string) { return "hello " + name; }
    }
    /** Say goodbye. */
    const bye = t(function goodbye(name: string) { return "bye " + name; });
    /** Wave. */
    const wave = tt.tool((times: number) => "~".repeat(times));
    export const registry = new ToolRegistry([new Tools(), bye, wave]);
  `);
  assert.equal(
    registry
      .list()
      .map((x) => x.name)
      .sort(),
    ["goodbye", "hello", "wave"],
  );
});

// The transformer asks the checker about a callee named by an identifier only when an import of its file binds that
// name (find.ts `mayBeImported`): every way a name comes from an import must still be found.
test("every kind of import binding is recognised: default-less named, import = require, a renaming barrel, a namespace body", () => {
  const fixture = compileProgram({
    "barrel.ts": `export { tool as makeTool } from "tooltype";`,
    "main.ts": `
      import tt = require("tooltype");
      import { makeTool } from "./barrel";
      import * as barrel from "./barrel";
      /** Add. */
      const add = tt.tool(function add(a: number, b: number) { return a + b; });
      /** Negate. */
      const negate = makeTool(function negate(a: number) { return -a; });
      /** Twice. */
      const twice = barrel.makeTool(function twice(a: number) { return 2 * a; });
      namespace Inner {
        import t = tt.tool;
        /** Halve. */
        export const halve = t(function halve(a: number) { return a / 2; });
      }
      export const registry = new tt.ToolRegistry([add, negate, twice, Inner.halve]);
    `,
  });
  assert.equal(fixture.diagnostics, []);
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  assert.equal(
    registry.list().map((x) => [x.name, x.description, x.parameters.required]),
    [
      ["add", "Add.", ["a", "b"]],
      ["negate", "Negate.", ["a"]],
      ["twice", "Twice.", ["a"]],
      ["halve", "Halve.", ["a"]],
    ],
  );
});

test("a user's own function called tool is left alone", () => {
  const fixture = compileFixture(`
    function tool<T>(fn: T, label?: string): T { return fn; }
    export const f = tool((x: number) => x * 2);
    export const g = tool(function h(y: string) { return y; }, "label");
  `);
  assert.equal(fixture.diagnostics, []);
  assert.not.match(fixture.js["main.js"]!, /parameters/);
});

test("a call that already carries metadata is not compiled again (idempotent)", () => {
  const fixture = compileFixture(`
    import { tool, ToolRegistry } from "tooltype";
    /** Ignored: the metadata below is already compiled. */
    export const echo = tool((text: string) => text, undefined, {
      v: 1, name: "echo", description: "Echo the text.", params: ["text"],
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
    });
    export const registry = new ToolRegistry([echo]);
  `);
  assert.equal(fixture.diagnostics, []);
  assert.is((fixture.js["main.js"]!.match(/"?params"?:/g) ?? []).length, 1);
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  assert.is(registry.get("echo")!.description, "Echo the text.");
});

test("the decorator form already compiled is left as is", () => {
  const fixture = compileFixture(`
    import { tool } from "tooltype";
    export class A {
      /** Ping. */
      @tool(undefined, { v: 1, name: "ping", description: "Ping.", params: [], parameters: { type: "object", properties: {}, additionalProperties: false } })
      ping() { return "pong"; }
    }
  `);
  assert.equal(fixture.diagnostics, []);
  assert.is((fixture.js["main.js"]!.match(/"?params"?:/g) ?? []).length, 1);
});

test.run();
