/**
 * A registry built from a record (`new ToolRegistry({ add: tool(add) })`): its keys name the tools, and its type
 * knows them: `invoke`'s names, arguments and results, and a streamed run's calls (function calls only). The types
 * are checked when this file compiles (a `@ts-expect-error` that finds no error fails the test build); the untyped
 * forms (an array, no argument, `register` chains, `@tool` classes) compile and behave as before.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import {
  type BaseToolRegistry,
  type OpenAICustomToolCall,
  type ToolContext,
  ToolRegistrationError,
  ToolRegistry,
  ToolValidationError,
  tool,
} from "tooltype";
import { type RunToolsEvent, runTools } from "tooltype/loop";
import { ToolRegistry as OpenAIToolRegistry } from "tooltype/openai";
import { startScriptedServer, toolResults } from "../scripted-openai/server";

/** A Chat Completions function call, as the loop reports it. */
type ChatFunctionToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };
/** Any call Chat Completions may send: a function call or a custom (free-form) one. */
type ChatToolCall = ChatFunctionToolCall | OpenAICustomToolCall;

/** `true` when the two types are the same. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(equal: Equal<A, B>): Equal<A, B> => equal;

/**
 * Add two numbers.
 * @param a The first
 * @param b The second
 */
function add(a: number, b: number): number {
  return a + b;
}

/**
 * Search the catalogue.
 * @param query What to look for
 * @param limit How many at most
 */
async function search({ query, limit = 2 }: { query: string; limit?: number }, context: ToolContext) {
  return { hits: [`${query} 1`, `${query} 2`].slice(0, limit), id: context.toolCall.id };
}

/**
 * Say it louder.
 * @param text What to say
 */
function shout(text: string): string {
  return text.toUpperCase();
}

/** The time, always the same. */
function now(): string {
  return "noon";
}

/**
 * Count up to a number, reporting each step.
 * @param to Where to stop
 */
async function* count({ to }: { to: number }) {
  for (let i = 1; i <= to; i++) yield i;
  return `counted to ${to}`;
}

class Shelf {
  /**
   * What a shelf holds.
   * @param shelf The shelf's number
   */
  @tool()
  holds(shelf: number): string {
    return `books on ${shelf}`;
  }
}

const tools = { add: tool(add), search: tool(search), shout: tool(shout), now: tool(now), count: tool(count) };

/** Compiled, never run: what the types say of a typed registry, a widened one and an untyped one. */
function typesOnly(typed: ToolRegistry<typeof tools>): void {
  const sum = typed.invoke("add", { a: 1, b: 2 });
  same<typeof sum, Promise<number>>(true);
  const found = typed.invoke("search", { query: "desk" });
  same<typeof found, Promise<{ hits: string[]; id: string }>>(true);
  // A single parameter's bare string, as at run time; a named parameter's name is not in its type.
  const loud = typed.invoke("shout", "hi");
  same<typeof loud, Promise<string>>(true);
  void typed.invoke("shout", { text: "hi" });
  // @ts-expect-error a tool of two arguments (the destructured object's two properties) takes no bare string
  void typed.invoke("search", "desk");
  const noon = typed.invoke("now");
  same<typeof noon, Promise<string>>(true);
  const counted = typed.invoke("count", { to: 2 });
  same<typeof counted, Promise<string>>(true);
  // @ts-expect-error a name the registry does not have
  void typed.invoke("sub", { a: 1 });
  // @ts-expect-error an argument of the wrong type
  void typed.invoke("add", { a: "1", b: 2 });
  // @ts-expect-error a destructured parameter's property of the wrong type
  void typed.invoke("search", { query: 1 });
  // @ts-expect-error a tool of two parameters takes no bare string
  void typed.invoke("add", "1");
  // @ts-expect-error a tool without parameters takes no arguments
  void typed.invoke("now", { at: 1 });

  // register widens the names (what it adds is not in its sources' types), and keeps what the record said.
  const widened = typed.register(new Shelf());
  const held = widened.invoke("holds", { shelf: 1 });
  same<typeof held, Promise<unknown>>(true);
  same<typeof widened extends ToolRegistry ? true : false, true>(true);
  const stillTyped = widened.invoke("add", { a: 1, b: 2 });
  same<typeof stillTyped, Promise<number>>(true);

  // A typed registry is a registry wherever one is taken.
  const anyRegistry: BaseToolRegistry = typed;
  const untypedMain: ToolRegistry = typed;
  const viaBase = anyRegistry.invoke("add", { a: 1, b: 2 });
  same<typeof viaBase, Promise<unknown>>(true);
  const viaMain = untypedMain.invoke("x");
  same<typeof viaMain, Promise<unknown>>(true);

  // The forms that knew no names still know none: any name, unknown results, as before.
  const fromArray = new ToolRegistry([tool(add), new Shelf()]);
  same<typeof fromArray, ToolRegistry>(true);
  const untyped = fromArray.invoke("anything", { a: 1 });
  same<typeof untyped, Promise<unknown>>(true);
  const chained: ToolRegistry = new ToolRegistry().register(tool(add)).register(Shelf, new Shelf());
  void chained.invoke("add", "1");
  const entry = new OpenAIToolRegistry({ add: tool(add) });
  same<typeof entry, OpenAIToolRegistry<{ add: typeof add }>>(true);
  void entry.invoke("add", { a: 1, b: 2 }).then((n: number) => n);
  // @ts-expect-error a record's value is one tool() value, not an object of @tool methods
  void new ToolRegistry({ shelf: new Shelf() });
}

/** Compiled, never run: a streamed run's calls by the registry's type. */
/** The record above without its tool of one string parameter, which may be free-form (`@freeform`). */
const { shout: _shout, ...functionTools } = tools;

function streamTypesOnly(
  client: OpenAI,
  typed: ToolRegistry<typeof functionTools>,
  untyped: ToolRegistry,
  withText: ToolRegistry<typeof tools>,
): void {
  const params = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };
  const narrow = runTools(client, params, typed, { stream: true });
  void (async () => {
    for await (const event of narrow) {
      if (event.type === "tool_call") same<typeof event.call, ChatFunctionToolCall>(true);
      if (event.type === "tool_result") same<typeof event.call, ChatFunctionToolCall>(true);
    }
    const result = await runTools(client, params, typed);
    same<(typeof result.steps)[number]["calls"][number], ChatFunctionToolCall>(true);
  })();
  // A registry whose type cannot say what it holds: every call the API may send, as before.
  const wide = runTools(client, params, untyped, { stream: true });
  // A tool of one string parameter may be free-form (the JSDoc tag is not in its type): its calls may be custom ones.
  const text = runTools(client, params, withText, { stream: true });
  void (async () => {
    for await (const event of text) if (event.type === "tool_call") same<typeof event.call, ChatToolCall>(true);
  })();
  const widened = runTools(client, params, typed.register(tool(now)), { stream: true });
  void (async () => {
    for await (const event of wide) if (event.type === "tool_call") same<typeof event.call, ChatToolCall>(true);
    for await (const event of widened) if (event.type === "tool_call") same<typeof event.call, ChatToolCall>(true);
  })();
}

test("the record form registers each tool under its key and invokes it with typed arguments and result", async () => {
  // The functions above are for the compiler alone.
  assert.type(typesOnly, "function");
  assert.type(streamTypesOnly, "function");
  const registry = new ToolRegistry(tools);
  assert.equal(
    registry.list().map((entry) => entry.name),
    ["add", "search", "shout", "now", "count"],
  );
  const sum: number = await registry.invoke("add", { a: 2, b: 3 });
  assert.is(sum, 5);
  assert.equal(await registry.invoke("search", { query: "desk", limit: 1 }), { hits: ["desk 1"], id: "" });
  assert.is(await registry.invoke("shout", "lamp"), "LAMP");
  assert.is(await registry.invoke("shout", { text: "desk" }), "DESK");
  assert.is(await registry.invoke("now"), "noon");
  assert.is(await registry.invoke("count", { to: 3 }), "counted to 3");
  const error = await registry.invoke("add", { a: 1 } as never).catch((e: unknown) => e);
  assert.instance(error, ToolValidationError);
});

test("a record's key is the name the model calls the tool by", async () => {
  const registry = new ToolRegistry({ sum: tool(add) }, { timeoutMs: 1000 });
  assert.equal(
    registry.list().map((entry) => [entry.name, entry.source]),
    [["sum", "function add"]],
  );
  assert.is(registry.options.timeoutMs, 1000);
  assert.is(await registry.invoke("sum", { a: 1, b: 1 }), 2);
  assert.not.ok(registry.has("add"));
  const answers = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "sum", arguments: '{"a":2,"b":2}' } }],
  });
  assert.is(answers[0]!.content, "4");
});

test("a record refuses a value that is not one tool() value, and a name option that contradicts its key", () => {
  assert.throws(
    () => new ToolRegistry({ shelf: new Shelf() } as never),
    (error: unknown) =>
      error instanceof ToolRegistrationError &&
      error.message.startsWith(`The tool record's "shelf" is not a tool() value:`),
  );
  assert.throws(
    () => new ToolRegistry({ add: tool(add), plain: add as never }),
    (error: unknown) => error instanceof ToolRegistrationError && error.message.includes(`"plain" is not a tool()`),
  );
  assert.throws(
    () => new ToolRegistry({ sum: tool(add, { name: "plus" }) }),
    (error: unknown) =>
      error instanceof ToolRegistrationError &&
      error.message.includes(`names function add "sum", but its own name option says "plus"`),
  );
  assert.is(new ToolRegistry({ plus: tool(add, { name: "plus" }) }).get("plus")?.name, "plus");
  assert.throws(
    () => new ToolRegistry({ "not a name": tool(add) }),
    (error: unknown) => error instanceof ToolRegistrationError && /another key in the record/.test(error.message),
  );
});

test("register on a record's registry adds tools as before; the array and empty forms are unchanged", async () => {
  const registry = new ToolRegistry({ add: tool(add) }).register(new Shelf());
  assert.equal(
    registry.list().map((entry) => entry.name),
    ["add", "holds"],
  );
  assert.is(await registry.invoke("holds", { shelf: 2 }), "books on 2");
  assert.equal(
    new ToolRegistry(new Set([tool(add)])).list().map((entry) => entry.name),
    ["add"],
  );
  assert.is(new ToolRegistry().size, 0);
});

test("a streamed run of a record's registry reports function calls", async () => {
  const server = await startScriptedServer(
    [
      { tool_calls: [{ name: "add", arguments: { a: 2, b: 5 } }] },
      (request) => ({ content: `It is ${toolResults(request)[0]!.content}.` }),
    ],
    {},
  );
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const stream = runTools(
      client,
      { model: "scripted", messages: [{ role: "user", content: "2+5?" }] },
      new ToolRegistry({ add: tool(add) }),
      { stream: true },
    );
    const called: string[] = [];
    const events: RunToolsEvent["type"][] = [];
    for await (const event of stream) {
      events.push(event.type);
      // `function` is there without a check of `type`: the type says every call is a function call.
      if (event.type === "tool_call") called.push(`${event.call.function.name} ${event.call.function.arguments}`);
    }
    assert.equal(called, ['add {"a":2,"b":5}']);
    assert.ok(events.includes("final"));
    assert.is((await stream.finalResult()).content, "It is 7.");
  } finally {
    await server.close();
  }
});

test.run();
