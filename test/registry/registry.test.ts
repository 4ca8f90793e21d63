/**
 * ToolRegistry registration: which sources hold which tools, how methods are bound, and the errors that tell a user
 * how to fix a registration. Metadata is written by hand exactly as the transformer emits it, so these tests pin
 * the runtime's side of the seam on their own.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as tooltype from "tooltype";
import { type CompiledToolMeta, type ToolOptions, ToolRegistrationError, ToolRegistry, tool } from "tooltype";

// `tool` reached without its symbol, so the transformer leaves these calls alone: they model an untransformed build.
const rawTool = Reflect.get(tooltype, "tool") as (...args: unknown[]) => unknown;

class Weather {
  unit = "celsius";

  /** Get the current weather in a city. */
  @tool(undefined, {
    v: 1,
    name: "getWeather",
    description: "Get the current weather in a city.",
    parameters: {
      type: "object",
      properties: { location: { type: "string" } },
      required: ["location"],
      additionalProperties: false,
    },
    params: ["location"],
  })
  getWeather(location: string): string {
    return `${location}: 21 ${this.unit}`;
  }

  helper(): string {
    return "not a tool";
  }
}

const searchProducts = tool(
  function search_products(keyword: string, limit = 10) {
    return { keyword, limit };
  },
  undefined,
  {
    v: 1,
    name: "search_products",
    description: "Search products from the catalog.",
    parameters: {
      type: "object",
      properties: { keyword: { type: "string" }, limit: { type: "integer", default: 10 } },
      required: ["keyword"],
      additionalProperties: false,
    },
    params: ["keyword", "limit"],
  },
);

test("registers an instance's @tool methods, bound to the instance", async () => {
  const weather = new Weather();
  weather.unit = "kelvin";
  const registry = new ToolRegistry([weather]);
  assert.equal(
    registry.list().map((t) => t.name),
    ["getWeather"],
  );
  const registered = registry.get("getWeather")!;
  assert.is(registered.source, "method Weather.getWeather");
  assert.is(registered.description, "Get the current weather in a city.");
  assert.is(await registry.invoke("getWeather", { location: "Paris" }), "Paris: 21 kelvin");
});

test("registers tool() values and keeps registration order; register returns the registry", () => {
  const registry = new ToolRegistry();
  assert.is(registry.register(searchProducts, new Weather()), registry);
  assert.equal(
    registry.list().map((t) => [t.name, t.source]),
    [
      ["search_products", "function search_products"],
      ["getWeather", "method Weather.getWeather"],
    ],
  );
  assert.is(registry.size, 2);
  assert.ok(registry.has("search_products"));
  assert.is(registry.get("nope"), undefined);
});

test("register accepts arrays of sources", () => {
  const registry = new ToolRegistry().register([searchProducts], new Weather());
  assert.is(registry.size, 2);
});

test("static @tool methods are registered from the class, with the class as `this`, parents included", async () => {
  // biome-ignore lint/complexity/noStaticOnlyClass: classes with static @tool methods are what these tests register
  class Base {
    static prefix = "base";
    @tool(undefined, {
      v: 1,
      name: "ping",
      description: "Ping.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      params: [],
    })
    static ping(): string {
      // biome-ignore lint/complexity/noThisInStatic: the test is that a static tool runs with its class as `this`
      return `${this.prefix}:pong`;
    }
  }
  class Derived extends Base {
    static override prefix = "derived";
    @tool(undefined, {
      v: 1,
      name: "echo",
      description: "Echo.",
      parameters: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
        additionalProperties: false,
      },
      params: ["text"],
    })
    static echo(text: string): string {
      // biome-ignore lint/complexity/noThisInStatic: the test is that a static tool runs with its class as `this`
      return `${this.prefix}:${text}`;
    }
  }
  const registry = new ToolRegistry([Derived]);
  assert.equal(
    registry.list().map((t) => [t.name, t.source]),
    [
      ["echo", "static method Derived.echo"],
      ["ping", "static method Base.ping"],
    ],
  );
  assert.is(await registry.invoke("echo", "hi"), "derived:hi");
  assert.is(await registry.invoke("ping"), "derived:pong");
});

test("instance methods: inherited tools are found, an override without @tool inherits the tool, getters never run", async () => {
  let getterRan = false;
  class Base {
    @tool(undefined, {
      v: 1,
      name: "greet",
      description: "Greet.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      params: [],
    })
    greet(): string {
      return `hello from ${this.who}`;
    }
    @tool(undefined, {
      v: 1,
      name: "hidden",
      description: "Overridden below without @tool: still a tool, running the override.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      params: [],
    })
    hidden(): string {
      return "base";
    }
    get who(): string {
      return "base";
    }
  }
  class Child extends Base {
    override hidden(): string {
      return "child";
    }
    override get who(): string {
      getterRan = true;
      return "child";
    }
  }
  const registry = new ToolRegistry([new Child()]);
  assert.equal(
    registry.list().map((t) => t.name),
    ["hidden", "greet"],
  );
  assert.not.ok(getterRan, "registration must not run getters");
  assert.is(await registry.invoke("greet"), "hello from child");
  assert.is(await registry.invoke("hidden"), "child");
});

test("an object or class without tools is refused, with a hint when the other kind has them", () => {
  assert.throws(
    () => new ToolRegistry([{ a: 1 }]),
    (error: Error) =>
      error instanceof ToolRegistrationError &&
      error.message ===
        "This Object object has no tools: none of its methods carries @tool. Mark methods with @tool, or register tool(fn) values.",
  );
  assert.throws(
    () => new ToolRegistry([Weather]),
    (error: Error) =>
      error.message ===
      "Weather has no static @tool methods; its @tool methods are instance methods. Register an instance instead: new Weather(…).",
  );
  // biome-ignore lint/complexity/noStaticOnlyClass: classes with static @tool methods are what these tests register
  class OnlyStatic {
    @tool(undefined, {
      v: 1,
      name: "s",
      description: "",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      params: [],
    })
    static s(): void {}
  }
  assert.throws(
    () => new ToolRegistry([new OnlyStatic()]),
    /This OnlyStatic object has no @tool methods of its own; its class has static @tool methods\. Register the class instead: register\(OnlyStatic\)\./,
  );
  assert.throws(
    () => new ToolRegistry([function plain() {}]),
    /plain is not a tool and has no static @tool methods\. Wrap a function with tool\(fn\)/,
  );
  assert.throws(() => new ToolRegistry().register(42 as unknown as object), /Cannot register number/);
});

test("a @tool method taken off its object is refused", () => {
  const method = Weather.prototype.getWeather;
  assert.throws(
    () => new ToolRegistry([method]),
    /"getWeather" is a @tool method taken off its object: register the object that owns it/,
  );
});

test("missing metadata names the tool and says how to enable the transformer", () => {
  class Plain {
    getWeather(): string {
      return "";
    }
  }
  const proto = Plain.prototype as unknown as Record<string, unknown>;
  // An untransformed `@tool` under experimentalDecorators: (target, key, descriptor).
  rawTool(proto, "getWeather", Object.getOwnPropertyDescriptor(proto, "getWeather"));
  assert.throws(
    () => new ToolRegistry([new Plain()]),
    (error: Error) =>
      error instanceof ToolRegistrationError &&
      error.message.startsWith(
        'Tool "getWeather" (method of Plain) has no compiled metadata: the file that declares it was not compiled by a tooltype-aware step',
      ) &&
      // The real cause first, then the command for each runner: a configured plugin alone does not help under tsx.
      /tsx, ts-node/.test(error.message) &&
      error.message.includes('`tspc` (ts-patch) with { "transform": "tooltype/transformer" }') &&
      // A plain tsc (TypeScript 7's too) ignores the plugin; on TypeScript 7 the message names what works.
      error.message.includes("plain `tsc` ignores compilerOptions.plugins, TypeScript 7's `tsc` included") &&
      error.message.includes("`npx tooltype build` instead of `tsc` (any TypeScript from 5.5, 7 included)") &&
      error.message.includes("tooltype/vite") &&
      error.message.includes("node --import tooltype/register src/main.ts"),
  );

  const bare = rawTool(function search_products() {}) as object;
  assert.throws(
    () => new ToolRegistry([bare]),
    /^Tool "search_products" \(function passed to tool\(\)\) has no compiled metadata: the file that declares it was not compiled by a tooltype-aware step/,
  );
});

test("metadata of another version is refused, naming both versions", () => {
  const future = rawTool(function f() {}, undefined, {
    v: 2,
    name: "f",
    description: "",
    parameters: { type: "object" },
    params: [],
  }) as object;
  assert.throws(
    () => new ToolRegistry([future]),
    (error: Error) =>
      error.message ===
      'Tool "f" (function passed to tool()) was compiled with tooltype metadata version 2, but this tooltype runtime reads version 1. Rebuild with the tooltype transformer from the same tooltype version as the runtime (reinstall tooltype, then run tspc again).',
  );
});

test("duplicate names are refused naming both sources, and a failed register adds nothing", () => {
  const clash = tool(
    function getWeather() {
      return "";
    },
    undefined,
    {
      v: 1,
      name: "getWeather",
      description: "",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      params: [],
    },
  );
  const registry = new ToolRegistry([new Weather()]);
  assert.throws(
    () => registry.register(searchProducts, clash),
    (error: Error) =>
      error instanceof ToolRegistrationError &&
      error.message ===
        'Tool name "getWeather" is used twice: by method Weather.getWeather and by function getWeather. Give one of them another name with the { name } option of @tool / tool().',
  );
  assert.equal(
    registry.list().map((t) => t.name),
    ["getWeather"],
    "search_products must not be added by a register call that failed",
  );
  // Two instances of one class are two tools with one name.
  assert.throws(
    () => new ToolRegistry([new Weather(), new Weather()]),
    /used twice: by method Weather\.getWeather and by method Weather\.getWeather/,
  );
  // The very same tool again is not a clash.
  assert.is(new ToolRegistry([searchProducts, searchProducts]).size, 1);
});

test("options override the metadata; an invalid name is refused", () => {
  const renamed = tool(
    function search_products() {
      return [];
    },
    { name: "find", description: "Find things.", strict: true } satisfies ToolOptions,
    {
      v: 1,
      name: "search_products",
      description: "From JSDoc.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      params: [],
    },
  );
  const registry = new ToolRegistry([renamed]);
  const registered = registry.get("find")!;
  assert.is(registered.description, "Find things.");
  assert.is(registered.meta.name, "search_products");
  assert.is(registered.options.strict, true);

  const badName = tool(
    () => 1,
    { name: "get weather" },
    {
      v: 1,
      name: "x",
      description: "",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      params: [],
    },
  );
  assert.throws(
    () => new ToolRegistry([badName]),
    (error: Error) =>
      error.message ===
      'Tool name "get weather" (function x) is not valid: a tool name must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, "_" and "-", 1 to 64 characters). Choose another with the { name } option of @tool / tool().',
  );
});

test("toOpenAITools: function tools in registration order, strict only when the option is set", () => {
  const strictTool = tool(
    function exact(id: string) {
      return id;
    },
    { strict: true },
    {
      v: 1,
      name: "exact",
      description: "Exact.",
      parameters: {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: false,
      },
      params: ["id"],
    },
  );
  const registry = new ToolRegistry([searchProducts, strictTool]);
  assert.equal(registry.toOpenAITools(), [
    {
      type: "function",
      function: {
        name: "search_products",
        description: "Search products from the catalog.",
        parameters: {
          type: "object",
          properties: { keyword: { type: "string" }, limit: { type: "integer", default: 10 } },
          required: ["keyword"],
          additionalProperties: false,
        },
      },
    },
    {
      type: "function",
      function: {
        name: "exact",
        description: "Exact.",
        parameters: {
          type: "object",
          properties: { id: { type: "string" } },
          required: ["id"],
          additionalProperties: false,
        },
        strict: true,
      },
    },
  ]);
});

test("experimentalDecorators form (target, key, descriptor) records instance and static methods", async () => {
  class Legacy {
    factor = 3;
    times(n: number): number {
      return n * this.factor;
    }
    static twice(n: number): number {
      return n * 2;
    }
  }
  const meta = (name: string): CompiledToolMeta => ({
    v: 1,
    name,
    description: "",
    parameters: {
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
      additionalProperties: false,
    },
    params: ["n"],
  });
  const proto = Legacy.prototype as unknown as Record<string, unknown>;
  const decorate = rawTool({ description: "Multiply." }, meta("times")) as (
    t: object,
    k: string,
    d?: PropertyDescriptor,
  ) => void;
  decorate(proto, "times", Object.getOwnPropertyDescriptor(proto, "times"));
  const decorateStatic = rawTool(undefined, meta("twice")) as (t: object, k: string, d?: PropertyDescriptor) => void;
  decorateStatic(Legacy, "twice", Object.getOwnPropertyDescriptor(Legacy, "twice"));

  const registry = new ToolRegistry([new Legacy(), Legacy]);
  assert.is(registry.get("times")!.description, "Multiply.");
  assert.is(await registry.invoke("times", { n: 2 }), 6);
  assert.is(await registry.invoke("twice", { n: 2 }), 4);
});

test("RegisteredTool.invoke validates and calls like registry.invoke", async () => {
  const registry = new ToolRegistry([searchProducts]);
  assert.equal(await registry.get("search_products")!.invoke({ keyword: "lamp" }), { keyword: "lamp", limit: 10 });
});

test.run();
