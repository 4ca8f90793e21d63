/**
 * registry.invoke in both forms: one call answered as dispatch would (a ToolMessage), and a direct call by name
 * returning the tool's own value and throwing on bad input.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type ToolContext, ToolError, ToolMessage, ToolRegistry, ToolValidationError, tool } from "tooltype";

/** A tool of this test. */
const search = tool(function search(query: string, context: ToolContext) {
  return { query, id: context.toolCall.id };
});

/** A tool of this test. */
const add = tool(function add(a: number, b: number) {
  return a + b;
});

/** A tool of this test. */
const nothing = tool(function now() {
  return "now";
});

/** A tool of this test. */
const failing = tool(function fail() {
  throw new ToolError("nope");
});

/** A tool of this test. */
const when = tool(function when(at: Date) {
  return at instanceof Date ? at.getUTCFullYear() : "not a date";
});

const registry = new ToolRegistry([search, add, nothing, failing, when]);

test("invoke(toolCall) answers like dispatch: a ToolMessage, errors included", async () => {
  const message = await registry.invoke({ name: "add", args: { a: 1, b: 2 }, id: "c1", type: "tool_call" });
  assert.instance(message, ToolMessage);
  assert.equal([message.tool_call_id, message.content, message.status], ["c1", "3", "success"]);

  const openai = await registry.invoke({ id: "c2", type: "function", function: { name: "add", arguments: '{"a":1}' } });
  assert.is(openai.status, "error");
  assert.match(openai.content, /^Error: invalid arguments for add:\n- \(root\): missing required property "b"\n/);

  const unknown = await registry.invoke({ name: "sub", args: {}, id: "c3" });
  assert.is(unknown.content, 'Error: "sub" is not a valid tool. Valid tools: search, add, now, fail, when.');
});

test("invoke(name, args) returns the tool's own value", async () => {
  assert.is(await registry.invoke("add", { a: 2, b: 3 }), 5);
  assert.equal(await registry.invoke("search", { query: "lamps" }), { query: "lamps", id: "" });
  assert.is(await registry.invoke("now"), "now");
  assert.is(await registry.invoke("now", {}), "now");
});

test("invoke(name, string) fills the one non-injected parameter; other tools refuse a bare string", async () => {
  assert.equal(await registry.invoke("search", "desks"), { query: "desks", id: "" });
  const error = await registry.invoke("add", "1").catch((e: unknown) => e);
  assert.instance(error, ToolValidationError);
  assert.is(
    (error as Error).message,
    "add takes 2 arguments (a, b), so it cannot be invoked with a bare string; pass the arguments as an object.",
  );
  assert.match(String(await registry.invoke("now", "x").catch((e: unknown) => e)), /now takes no arguments/);
});

test("invoke(name, ...) throws on unknown tools and invalid arguments, with the model-facing text", async () => {
  const unknown = await registry.invoke("sub", {}).catch((e: unknown) => e);
  assert.instance(unknown, ToolValidationError);
  assert.is((unknown as ToolValidationError).reason, "unknown_tool");
  assert.is((unknown as Error).message, '"sub" is not a valid tool. Valid tools: search, add, now, fail, when.');

  const invalid = await registry.invoke("add", { a: "1", b: 2 }).catch((e: unknown) => e);
  assert.instance(invalid, ToolValidationError);
  assert.is(
    (invalid as Error).message,
    'invalid arguments for add:\n- /a: must be a number; got "1"\nCall add again with corrected arguments.',
  );

  const notObject = await registry.invoke("add", [1, 2] as unknown as Record<string, unknown>).catch((e: unknown) => e);
  assert.is((notObject as ToolValidationError).reason, "malformed_arguments");
});

test("invoke(name, ...) rethrows what the tool throws", async () => {
  const error = await registry.invoke("fail").catch((e: unknown) => e);
  assert.instance(error, ToolError);
  assert.is((error as Error).message, "nope");
});

test("invoke revives dates without touching the caller's object", async () => {
  const input = { at: "2030-06-01T00:00:00Z" };
  assert.is(await registry.invoke("when", input), 2030);
  assert.is(input.at, "2030-06-01T00:00:00Z");
});

test.run();
