/**
 * Free-form tools at run time (issue 48, item 5), without a network: dispatch reads `custom_tool_call` items
 * (Responses) and Chat's custom tool calls, takes the raw text as the tool's one string parameter (never parsed as
 * JSON), validates it against the pattern, and answers each call in its kind (`custom_tool_call_output` beside
 * `function_call_output`); the Responses stream accumulator assembles custom tool calls from their input events;
 * exports write custom tools only where asked (`customTools: true`, and `runTools`), function tools elsewhere; a tool
 * made free-form by options the transformer could not see is checked at export.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolExportError, ToolRegistry, parseToolCalls, type Pattern, tool } from "tooltype";
import { accumulateToolCalls } from "tooltype/loop";
import { createFreeformRegistry } from "../support/freeform-tools";

test("Responses: custom_tool_call items are answered with custom_tool_call_output, function calls as before", async () => {
  const registry = createFreeformRegistry();
  const answers = await registry.dispatch({
    output: [
      { type: "custom_tool_call", call_id: "c1", name: "run_sql", input: '{"not": "parsed"}' },
      { type: "function_call", call_id: "c2", name: "search", arguments: '{"keyword":"tent"}' },
      { type: "custom_tool_call", call_id: "c3", name: "set_date", input: "06/12/2026" },
    ],
  });
  assert.equal(answers.slice(0, 2), [
    { type: "custom_tool_call_output", call_id: "c1", output: 'rows for {"not": "parsed"}' },
    { type: "function_call_output", call_id: "c2", output: "3 results for tent" },
  ]);
  assert.is(answers[2]!.type, "custom_tool_call_output");
  const refused = answers[2]!.output as string;
  assert.match(refused, /^Error: invalid arguments for set_date/);
  assert.ok(refused.includes("^\\d{4}-\\d{2}-\\d{2}$"), refused);
});

test("Chat Completions: a custom tool call runs the tool with its raw text; a function tool refuses free-form text", async () => {
  const registry = createFreeformRegistry();
  const [sql, wrong] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "c1", type: "custom", custom: { name: "run_sql", input: "SELECT *\nFROM t" } },
      { id: "c2", type: "custom", custom: { name: "search", input: "tent" } },
    ],
  });
  assert.equal([sql!.tool_call_id, sql!.status, sql!.content], ["c1", "success", "rows for SELECT *\nFROM t"]);
  assert.equal([wrong!.tool_call_id, wrong!.status], ["c2", "error"]);
  assert.match(wrong!.content, /search takes its arguments as one JSON object, not as free-form text/);
});

test("parseToolCalls reads a custom tool call's text as the one parameter, refused by the pattern where it fails", () => {
  const registry = createFreeformRegistry();
  const parsed = parseToolCalls(registry, {
    output: [
      { type: "custom_tool_call", call_id: "c1", name: "set_date", input: "2026-12-06" },
      { type: "custom_tool_call", call_id: "c2", name: "set_date", input: "tomorrow" },
    ],
  });
  assert.equal(parsed.calls, [{ name: "set_date", args: { date: "2026-12-06" } }]);
  assert.equal(
    parsed.invalid.map((call) => [call.id, call.arguments, call.reason]),
    [["c2", "tomorrow", "invalid_arguments"]],
  );
});

test("accumulateToolCalls(responses): custom tool call input deltas make a custom_tool_call item", () => {
  const accumulator = accumulateToolCalls("responses");
  const item = { type: "custom_tool_call", id: "ctc_1", call_id: "c1", name: "run_sql", input: "" };
  accumulator.push({ type: "response.output_item.added", output_index: 0, item });
  const first = accumulator.push({ type: "response.custom_tool_call_input.delta", output_index: 0, delta: "SELECT" });
  assert.equal(first.deltas[0]!.argumentsDelta, "SELECT");
  accumulator.push({ type: "response.custom_tool_call_input.delta", output_index: 0, delta: " 1" });
  assert.is(accumulator.partial[0]!.arguments, "SELECT 1");
  const done = accumulator.push({ type: "response.custom_tool_call_input.done", output_index: 0, input: "SELECT 1" });
  assert.equal(done.completed, [{ ...item, input: "SELECT 1" }]);
  assert.equal(accumulator.done().output, [{ ...item, input: "SELECT 1" }]);
});

test("exports: custom tools where asked, function tools by default and for every other API", () => {
  const registry = createFreeformRegistry();
  assert.equal(
    registry.toResponsesTools({ customTools: true }).map((entry) => entry.type),
    ["custom", "custom", "function"],
  );
  assert.equal(
    registry.toResponsesTools().map((entry) => [entry.type, entry.parameters]),
    [
      [
        "function",
        { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false },
      ],
      [
        "function",
        {
          type: "object",
          properties: { date: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" } },
          required: ["date"],
          additionalProperties: false,
        },
      ],
      ["function", registry.toResponsesTools()[2]!.parameters],
    ],
  );
  assert.equal(registry.toOpenAITools({ customTools: true })[0], {
    type: "custom",
    custom: { name: "run_sql", description: "Run a read-only SQL query." },
  });
  const [anthropic] = registry.toAnthropicTools();
  assert.equal(anthropic!.input_schema.properties, { query: { type: "string" } });
  const [gemini] = registry.toGeminiTools()[0]!.functionDeclarations!;
  assert.is(gemini!.name, "run_sql");
});

test("a tool made free-form by options the transformer cannot see is checked at export", () => {
  const options = { freeform: true };
  /** Two texts. */
  const two = tool(function two(a: string, b: string) {
    return a + b;
  }, options);
  /** Looks ahead. */
  const ahead = tool(function ahead(text: string & Pattern<"^a(?=b)">) {
    return text;
  }, options);
  const twoError = catchExport(() => new ToolRegistry([two]).toResponsesTools({ customTools: true }));
  assert.match(twoError.message, /Tool "two" is free-form .* but it has 2 parameters \(a, b\)/);
  assert.equal([twoError.format, twoError.toolName], ["responses", "two"]);
  const aheadError = catchExport(() => new ToolRegistry([ahead]).toOpenAITools({ customTools: true }));
  assert.match(aheadError.message, /look-around/);
  assert.equal([aheadError.format, aheadError.path], ["openai", "/properties/text/pattern"]);
  // As a function tool, both export as they always did.
  assert.is(new ToolRegistry([two, ahead]).toOpenAITools().length, 2);
});

function catchExport(run: () => unknown): ToolExportError {
  try {
    run();
  } catch (error) {
    assert.instance(error, ToolExportError);
    return error as ToolExportError;
  }
  throw new Error("expected a ToolExportError");
}

test.run();
