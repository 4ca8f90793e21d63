/**
 * parseToolCalls: a message's calls as typed, validated argument objects without running anything; invalid and
 * unknown calls reported apart with dispatch's texts; firstToolOnly, returnId; dispatch's reading rules (repair,
 * coercion, Dates); every provider format dispatch reads.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistry, parseToolCalls, tool, type Int, type Max, type Min, type ParsedToolCall } from "tooltype";

/** A joke, recorded without being told. */
interface JokeArgs {
  /** The setup */
  setup: string;
  /** The punchline */
  punchline: string;
  /** How funny, 1 to 10 */
  rating?: Int & Min<1> & Max<10>;
}

let told = 0;

/** Tell a joke. */
const tellJoke = tool(function tell_joke({ setup, punchline, rating }: JokeArgs): string {
  told += 1;
  return `${setup} ${punchline} (${rating ?? "?"}/10)`;
});

/**
 * Schedule a meeting.
 * @param title What it is about
 * @param start When it starts
 */
const schedule = tool(function schedule(title: string, start: Date): string {
  told += 1;
  return `${title} at ${start.toISOString()}`;
});

const registry = new ToolRegistry([tellJoke, schedule]);

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: "function" as const,
  function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
});

test("valid calls come back typed and validated; nothing runs", () => {
  const message = {
    role: "assistant",
    content: null,
    tool_calls: [
      call("c1", "tell_joke", { setup: "Why?", punchline: "Because.", rating: 7 }),
      call("c2", "tell_joke", { setup: "Knock knock.", punchline: "Who's there?" }),
    ],
  };
  const { calls, invalid } = parseToolCalls<JokeArgs>(registry, message);
  const first: ParsedToolCall<JokeArgs> = calls[0]!;
  assert.equal(first, { name: "tell_joke", args: { setup: "Why?", punchline: "Because.", rating: 7 } });
  assert.is(first.args.rating, 7);
  assert.is(calls.length, 2);
  assert.equal(invalid, []);
  assert.is(told, 0);
});

test("invalid and unknown calls are reported apart, with dispatch's texts; repair and coercion apply", () => {
  const message = {
    tool_calls: [
      call("c1", "tell_joke", '{setup: "A", punchline: "B", rating: "9",}'),
      call("c2", "tell_joke", { setup: "A", rating: 11 }),
      call("c3", "tell_jokes", { setup: "A", punchline: "B" }),
      call("c4", "tell_joke", '{"setup": "A", "punch'),
    ],
  };
  const { calls, invalid } = parseToolCalls(registry, message, { returnId: true });
  assert.equal(calls, [{ name: "tell_joke", args: { setup: "A", punchline: "B", rating: 9 }, id: "c1" }]);
  assert.equal(
    invalid.map((i) => [i.id, i.name, i.reason]),
    [
      ["c2", "tell_joke", "invalid_arguments"],
      ["c3", "tell_jokes", "unknown_tool"],
      ["c4", "tell_joke", "malformed_arguments"],
    ],
  );
  const [bad, unknown, malformed] = invalid;
  assert.match(bad!.error, /^invalid arguments for tell_joke:\n/);
  assert.match(bad!.error, /- \(root\): missing required property "punchline"/);
  assert.match(bad!.error, /\/rating: must be <= 10; got 11/);
  assert.ok(bad!.issues.length === 2 && bad!.errors.length >= 2);
  assert.is(bad!.arguments, '{"setup":"A","rating":11}');
  assert.is(unknown!.error, '"tell_jokes" is not a valid tool. Valid tools: tell_joke, schedule.');
  assert.match(malformed!.error, /^invalid JSON in the arguments for tell_joke/);
  assert.is(told, 0);
});

test("firstToolOnly reads only the first call; without returnId no ids", () => {
  const message = { tool_calls: [call("c1", "tell_joke", { setup: "A", punchline: "B" }), call("c2", "nope", {})] };
  assert.equal(parseToolCalls(registry, message, { firstToolOnly: true }), {
    calls: [{ name: "tell_joke", args: { setup: "A", punchline: "B" } }],
    invalid: [],
  });
  const badFirst = {
    tool_calls: [call("c1", "tell_joke", {}), call("c2", "tell_joke", { setup: "A", punchline: "B" })],
  };
  const only = parseToolCalls(registry, badFirst, { firstToolOnly: true });
  assert.equal(only.calls, []);
  assert.equal(
    only.invalid.map((i) => i.id),
    ["c1"],
  );
  assert.equal(parseToolCalls(registry, { role: "assistant", content: "no calls" }), { calls: [], invalid: [] });
});

test("Dates are revived; coerce and repair can be turned off", () => {
  const { calls } = parseToolCalls(registry, {
    tool_calls: [call("c1", "schedule", { title: "Standup", start: "2026-12-01T09:30:00Z" })],
  });
  const args = calls[0]!.args as { title: string; start: Date };
  assert.instance(args.start, Date);
  assert.is(args.start.toISOString(), "2026-12-01T09:30:00.000Z");

  const strict = parseToolCalls(
    registry,
    { tool_calls: [call("c1", "tell_joke", '{"setup":"A","punchline":"B","rating":"9"}')] },
    { coerce: false },
  );
  assert.equal(
    strict.invalid.map((i) => i.reason),
    ["invalid_arguments"],
  );
  const noRepair = parseToolCalls(
    registry,
    { tool_calls: [call("c1", "tell_joke", "{setup: 'A', punchline: 'B'}")] },
    { repair: false },
  );
  assert.equal(
    noRepair.invalid.map((i) => i.reason),
    ["malformed_arguments"],
  );
});

test("every format dispatch reads: LangChain, Anthropic, Gemini, Responses", () => {
  const args = { setup: "A", punchline: "B" };
  const expected = [{ name: "tell_joke", args, id: "x" }];
  assert.equal(
    parseToolCalls(registry, { tool_calls: [{ name: "tell_joke", args, id: "x" }] }, { returnId: true }).calls,
    expected,
  );
  assert.equal(
    parseToolCalls(
      registry,
      { role: "assistant", content: [{ type: "tool_use", id: "x", name: "tell_joke", input: args }] },
      { returnId: true },
    ).calls,
    expected,
  );
  assert.equal(
    parseToolCalls(
      registry,
      { role: "model", parts: [{ functionCall: { id: "x", name: "tell_joke", args } }] },
      { returnId: true },
    ).calls,
    expected,
  );
  assert.equal(
    parseToolCalls(
      registry,
      [{ type: "function_call", call_id: "x", name: "tell_joke", arguments: JSON.stringify(args) }],
      { returnId: true },
    ).calls,
    expected,
  );
  const langchainInvalid = parseToolCalls(registry, {
    tool_calls: [],
    invalid_tool_calls: [{ id: "y", name: "tell_joke", args: "{", error: "bad" }],
  });
  assert.equal(
    langchainInvalid.invalid.map((i) => [i.id, i.reason]),
    [["y", "malformed_arguments"]],
  );
});

test.run();
