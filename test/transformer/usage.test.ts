/**
 * How tools are written, beyond the plain forms: methods passed as references (`tool(obj.method)`, bound or
 * not), which JSDoc describes `tool(fnRef)`, wrappers around `tool()` (tool factories), `@tool` on members that are
 * not methods, `@tool` methods overridden in a subclass, and the program-wide `strictNullChecks` warning.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistrationError, type ToolRegistry } from "tooltype";
import { compileFixture, type FixtureDiagnostic } from "../support/compile";

const shown = (ds: FixtureDiagnostic[]) => ds.map((d) => `${d.code} "${d.text}": ${d.message}`).join("\n");

function registryOf(source: string): ToolRegistry {
  const fixture = compileFixture(source);
  assert.equal(shown(fixture.diagnostics), "", "fixture compiles cleanly");
  return fixture.load<{ registry: ToolRegistry }>().registry;
}

async function call(
  registry: ToolRegistry,
  name: string,
  args: Record<string, unknown>,
): Promise<{ status: string; content: unknown }> {
  const [message] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name, arguments: JSON.stringify(args) } }],
  });
  return { status: message!.status, content: message!.content };
}

const COUNTER = `
  import { tool, ToolRegistry } from "tooltype";
  class Counter {
    private count = 0;
    /**
     * Add to the counter.
     * @param by How much to add
     */
    add(by: number): number { this.count += by; return this.count; }
    /** Say hello. */
    hello(name: string): string { return "hello " + name; }
  }
  export const counter = new Counter();
`;

test("tool(obj.method.bind(obj)) compiles from the method's declaration and runs with its object", async () => {
  const registry = registryOf(`${COUNTER}
    export const registry = new ToolRegistry([tool(counter.add.bind(counter))]);
  `);
  const add = registry.get("add")!;
  assert.is(add.description, "Add to the counter.");
  assert.equal(add.parameters.properties, { by: { type: "number", description: "How much to add" } });
  assert.equal(await call(registry, "add", { by: 2 }), { status: "success", content: "2" });
  assert.equal(await call(registry, "add", { by: 3 }), { status: "success", content: "5" });
});

test("tool(obj.method) of a method that uses this: TT1022 at the reference, with the bind() fix", () => {
  const fixture = compileFixture(`${COUNTER}
    export const add = tool(counter.add);
    export const hello = tool(counter.hello); // no \`this\` inside: fine as it is
  `);
  assert.equal(
    fixture.tooltype.map((d) => [d.code, d.text, d.category]),
    [["TT1022", "counter.add", "error"]],
    shown(fixture.tooltype),
  );
  assert.match(fixture.tooltype[0]!.message, "Bind it: tool(counter.add.bind(counter))");
});

test("bind() with leading arguments is refused with the reason (TT1007)", () => {
  const fixture = compileFixture(`${COUNTER}
    export const add = tool(counter.add.bind(counter, 1));
  `);
  assert.equal(
    fixture.tooltype.map((d) => d.code),
    ["TT1007"],
    shown(fixture.tooltype),
  );
  assert.match(fixture.tooltype[0]!.message, "pre-fills parameters");
});

test("tool(fnRef): the variable's JSDoc describes the tool; @param tags come from both, the variable's first", () => {
  const registry = registryOf(`
    import { tool, ToolRegistry } from "tooltype";
    /**
     * Implementation notes nobody should send to a model.
     * @param city The city
     * @param days Days ahead
     */
    function forecastImpl(city: string, days: number) { return city + days; }
    /**
     * Get the weather forecast.
     * @param days Days ahead, 1 to 7
     */
    export const forecast = tool(forecastImpl, { name: "forecast" });
    /** Only the variable is documented. */
    function bare(x: string) { return x; }
    export const documented = tool(bare);
    /** Inline: the variable wins here too. */
    export const inline = tool(/** The function's own words. */ function inline_fn(q: string) { return q; });
    export const registry = new ToolRegistry([forecast, documented, inline]);
  `);
  const forecast = registry.get("forecast")!;
  assert.is(forecast.description, "Get the weather forecast.");
  assert.equal(forecast.parameters.properties, {
    city: { type: "string", description: "The city" },
    days: { type: "number", description: "Days ahead, 1 to 7" },
  });
  assert.is(registry.get("bare")!.description, "Only the variable is documented.");
  assert.is(registry.get("inline_fn")!.description, "Inline: the variable wins here too.");
});

test("a tool factory (a wrapper with a meta?: CompiledToolMeta parameter) is compiled at each call site", async () => {
  const fixture = compileFixture(`
    import { tool, ToolRegistry, type CompiledToolMeta, type ToolOptions } from "tooltype";
    type Fn = (...args: any[]) => unknown;
    /** The company's way to make a tool: tagged, with a time limit. */
    export function companyTool<F extends Fn>(fn: F, options: ToolOptions = {}, meta?: CompiledToolMeta): F {
      return tool(fn, { tags: ["acme"], timeoutMs: 5_000, ...options }, meta);
    }
    export const arrowTool = <F extends Fn>(fn: F, meta?: CompiledToolMeta): F => tool(fn, { tags: ["acme"] }, meta);

    /**
     * Multiply two numbers.
     * @param a First factor
     */
    export const multiply = companyTool((a: number, b: number) => a * b, { name: "multiply" });
    /** Negate a number. */
    function negate(x: number) { return -x; }
    export const negated = arrowTool(negate);
    export const registry = new ToolRegistry([multiply, negated]);
  `);
  assert.equal(shown(fixture.diagnostics), "");
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  const multiply = registry.get("multiply")!;
  assert.is(multiply.description, "Multiply two numbers.");
  assert.equal(multiply.parameters.required, ["a", "b"]);
  assert.equal(multiply.options.tags, ["acme"]);
  assert.is(multiply.options.timeoutMs, 5_000);
  assert.equal(await call(registry, "multiply", { a: 6, b: 7 }), { status: "success", content: "42" });
  assert.is((await call(registry, "multiply", { a: 6 })).status, "error", "validated against the compiled schema");
  assert.equal(await call(registry, "negate", { x: 2 }), { status: "success", content: "-2" });
});

test("docs/marking-tools.md: the tool factory example compiles cleanly and makes a tagged tool", async () => {
  const readme = fs.readFileSync(path.resolve(__dirname, "../../../docs/marking-tools.md"), "utf8");
  const block = /<!-- readme:tool-factory -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, "docs/marking-tools.md's tool factory block (marker readme:tool-factory)");
  const fixture = compileFixture(block!);
  assert.equal(shown(fixture.diagnostics), "");
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  const findOrder = registry.get("findOrder")!;
  assert.is(findOrder.description, "Look up an order.");
  assert.equal(findOrder.options.tags, ["acme"]);
  assert.equal(await call(registry, "findOrder", { id: "A1" }), {
    status: "success",
    content: '{"id":"A1","status":"shipped"}',
  });
});

test("a wrapper that does not pass metadata on: TT1007 says how to make it a tool factory; run time does not blame the build", () => {
  const fixture = compileFixture(`
    import { tool, ToolRegistry, type ToolOptions } from "tooltype";
    type Fn = (...args: any[]) => unknown;
    const companyTool = <F extends Fn>(fn: F, o?: ToolOptions) => tool(fn, { tags: ["acme"], ...o });
    /** Add. */
    export const add = companyTool((a: number, b: number) => a + b);
    export function register() { return new ToolRegistry([add]); }
  `);
  assert.equal(
    fixture.tooltype.map((d) => [d.code, d.text]),
    [["TT1007", "fn"]],
    shown(fixture.tooltype),
  );
  assert.match(fixture.tooltype[0]!.message, 'tool() got the parameter "fn" of companyTool');
  assert.match(fixture.tooltype[0]!.message, "meta?: CompiledToolMeta");
  const { register } = fixture.load<{ register: () => ToolRegistry }>();
  assert.throws(
    register,
    (error: Error) =>
      error instanceof ToolRegistrationError &&
      /transformer ran, but could not read the function passed to tool\(\)/.test(error.message) &&
      !/did not run/.test(error.message),
  );
});

test("@tool on an arrow-function field, a getter or a class: TT1021 at the decorator, with the fix", () => {
  for (const experimentalDecorators of [false, true]) {
    const fixture = compileFixture(
      `
      import { tool } from "tooltype";
      export class Api {
        /** Search. */
        @tool
        search = (q: string) => q;
        /** Status. */
        @tool
        get status(): string { return "ok"; }
      }
    `,
      { experimentalDecorators },
    );
    const ours = fixture.tooltype.map((d) => [d.code, d.text, d.category]);
    assert.equal(
      ours,
      [
        ["TT1021", "@tool", "error"],
        ["TT1021", "@tool", "error"],
      ],
      shown(fixture.diagnostics),
    );
    assert.match(fixture.tooltype[0]!.message, '"search" is a field holding a function');
    assert.match(fixture.tooltype[0]!.message, "search = tool((...) => ...)");
    assert.match(fixture.tooltype[1]!.message, '"status" is a getter');
  }
});

test("@tool on a getter fails at load with a message that says to write a method (standard decorators)", () => {
  const fixture = compileFixture(`
    import { tool } from "tooltype";
    export function load() {
      class Api {
        /** Status. */
        // @ts-ignore: the misuse under test
        @tool get status(): string { return "ok"; }
      }
      return Api;
    }
  `);
  const { load } = fixture.load<{ load: () => unknown }>();
  assert.throws(load, /@tool can only decorate methods; "status" is a getter\. Write it as a method/);
});

test("an override of a @tool method without @tool inherits the tool: the parent's schema, the override's code", async () => {
  const registry = registryOf(`
    import { tool, ToolRegistry } from "tooltype";
    class Greeter {
      /**
       * Greet someone.
       * @param name Who
       */
      @tool
      greet(name: string): string { return "hello " + name; }
    }
    class LoudGreeter extends Greeter {
      override greet(name: string): string { return "HELLO " + name.toUpperCase(); }
    }
    export const registry = new ToolRegistry([new LoudGreeter()]);
  `);
  const greet = registry.get("greet")!;
  assert.is(greet.description, "Greet someone.");
  assert.equal(await call(registry, "greet", { name: "ada" }), { status: "success", content: "HELLO ADA" });
});

test("strictNullChecks off: warning TT1023 once per program, at the first tool; none with strict on", () => {
  const source = `
    import { tool } from "tooltype";
    /** One. */
    export const one = tool(function one(x: string | null) { return x; });
    /** Two. */
    export const two = tool(function two(y: "a" | "b" | null) { return y; });
  `;
  const loose = compileFixture(source, { strict: false });
  assert.equal(
    loose.tooltype.map((d) => [d.code, d.text, d.category]),
    [["TT1023", "one", "warning"]],
    shown(loose.tooltype),
  );
  assert.match(loose.tooltype[0]!.message, '"strict": true');
  assert.equal(compileFixture(source).tooltype, []);
});

test("target ESNext with standard decorators: error TT1025 at each @tool decorator, naming the fixes; none for a year or experimentalDecorators", () => {
  const source = `
    import { tool } from "tooltype";
    export class Shop {
      /** Price of an item. */
      @tool
      price(item: string) { return item.length; }
      /** Stock of an item. */
      @tool({ name: "stock" })
      count(item: string) { return item.length; }
    }
    /** Functions need no decorator. */
    export const add = tool(function add(a: number, b: number) { return a + b; });
  `;
  const esnext = compileFixture(source, { target: ts.ScriptTarget.ESNext });
  assert.equal(
    esnext.tooltype.map((d) => [d.code, d.text, d.category]),
    [
      ["TT1025", "@tool", "error"],
      ["TT1025", '@tool({ name: "stock" })', "error"],
    ],
    shown(esnext.tooltype),
  );
  assert.match(esnext.tooltype[0]!.message, 'Set "target" to a year in tsconfig.json ("ES2022" or later)');
  assert.match(esnext.tooltype[0]!.message, '"experimentalDecorators"');
  assert.equal(compileFixture(source, { target: ts.ScriptTarget.ESNext, experimentalDecorators: true }).tooltype, []);
  assert.equal(compileFixture(source).tooltype, []);
});

test.run();
