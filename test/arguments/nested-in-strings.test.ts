/**
 * Nesting hidden inside a string is refused before it is parsed: a JSON string coerced into an array or object
 * parameter (`{"tags":"[[[…"}`), through dispatch (text and parsed arguments) and Standard Schema. What is parsed
 * is watched, so the test fails on the parse itself, whatever the machine's speed.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistry, standardSchema, tool } from "tooltype";

/**
 * Tag things.
 * @param tags The tags
 */
const tagThings = tool(function tag_things(tags: string[], note?: { text: string }): string {
  return `${tags.length} tags${note ? `, ${note.text}` : ""}`;
});

/** Every text JSON.parse is given while `body` runs that opens with many brackets. */
async function deepParses(body: () => Promise<unknown> | unknown): Promise<number[]> {
  const original = JSON.parse;
  const seen: number[] = [];
  JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
    if (typeof text === "string" && /^\s*[[{]\s*[[{]\s*[[{]\s*[[{]/.test(text.slice(0, 16))) seen.push(text.length);
    return original.call(JSON, text, reviver);
  }) as typeof JSON.parse;
  try {
    await body();
  } finally {
    JSON.parse = original;
  }
  return seen;
}

const DEEP = "[".repeat(300_000);

test("dispatch: a deep JSON string for an array or object parameter is refused without parsing it", async () => {
  const registry = new ToolRegistry([tagThings]);
  // The deep string is not taken for an array: it becomes the one tag (coercion wraps a lone string), and the deep
  // object string is no object: the call is refused.
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ tags: DEEP }, /^1 tags$/],
    [{ tags: ["a"], note: `{"text":${DEEP}` }, /invalid arguments for tag_things/],
  ];
  for (const [args, expected] of cases) {
    let answers: { content: unknown; status?: string }[] = [];
    const parsed = await deepParses(async () => {
      answers = [
        ...(await registry.dispatch({
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "a", type: "function", function: { name: "tag_things", arguments: JSON.stringify(args) } },
          ],
        })),
        ...(await registry.dispatch({
          role: "assistant",
          content: "",
          tool_calls: [{ id: "b", type: "function", function: { name: "tag_things", arguments: args as never } }],
        })),
      ];
    });
    assert.equal(parsed, [], "no deep text was handed to JSON.parse");
    assert.is(answers.length, 2);
    for (const answer of answers) assert.match(String(answer.content), expected);
  }
});

test("Standard Schema: the same, through ~standard.validate", async () => {
  const validate = standardSchema(tagThings)["~standard"].validate;
  let issues: readonly unknown[] | undefined;
  const parsed = await deepParses(() => {
    issues = (validate({ tags: ["a"], note: `{"text":${DEEP}` }) as { issues?: readonly unknown[] }).issues;
  });
  assert.equal(parsed, []);
  assert.ok(issues && issues.length > 0);
});

test("a shallow JSON string is still coerced", async () => {
  const registry = new ToolRegistry([tagThings]);
  const [answer] = await registry.dispatch({
    role: "assistant",
    content: "",
    tool_calls: [
      { id: "a", type: "function", function: { name: "tag_things", arguments: JSON.stringify({ tags: '["a","b"]' }) } },
    ],
  });
  assert.is(answer!.content, "2 tags");
});

test.run();
