/**
 * Text a model or a client sends, shaped to stall the event loop (hostile input, round two): each case is sized so
 * that the old code would run for minutes or hours, so a regression is a hang that the runner's process limit
 * reports. Where the cost can be counted, the test counts it instead of timing it.
 */
import fc from "fast-check";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistry, tool } from "tooltype";
import { repairJson, unfence } from "../../runtime/arguments/repair";

/**
 * Echo a value.
 * @param value The value
 */
const echo = tool(function echo(value: string) {
  return value;
});

/** The regular expression the fence scan replaced: the oracle on short texts, where its cost does not matter. */
const OLD_FENCE = /^\s*```[A-Za-z0-9_+.-]*[ \t]*(?:\r?\n)?([\s\S]*?)\r?\n?[ \t]*```\s*$/;

test("fence repair: the scan takes exactly the texts the old regular expression took, with the same body", () => {
  const piece = fc.constantFrom("```", "`", "json", "js-x", " ", "\t", "\n", "\r", "\r\n", "\u00a0", "{", "}", '"a"', ":", "1", "x");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }).map((parts) => parts.join("")), (text) => {
      const old = OLD_FENCE.exec(text);
      assert.equal(unfence(text), old ? old[1] : undefined, JSON.stringify(text));
    }),
    { numRuns: 5000, seed: 5 },
  );
  assert.is(unfence('```json\n{"a": 1}\n```'), '{"a": 1}');
  assert.is(unfence('  ```\r\n{"a": 1}  \r\n\t```  \n'), '{"a": 1}  ');
  assert.is(unfence("``````"), "");
  assert.is(unfence("`````"), undefined);
  assert.is(unfence('{"a": 1}'), undefined);
});

test("fence repair: a MiB of white space after a fence is read in one pass (the old expression: about 50 minutes)", async () => {
  for (const filler of [" ", "\t", "\n", "\r\n"]) {
    const text = `\`\`\`json${filler.repeat(2 ** 20 / filler.length)}`;
    assert.is(unfence(text), undefined);
    const repaired = repairJson(text, "Unexpected token", 64);
    assert.is(repaired.ok, false);
  }
  // Through dispatch: arguments that JSON.parse refuses go to the repair path.
  const registry = new ToolRegistry([echo]);
  const [answer] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "echo", arguments: `\`\`\`${" ".repeat(1_000_000)}` } }],
  });
  assert.is(answer!.status, "error");
  const [fenced] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c2", type: "function", function: { name: "echo", arguments: `\`\`\`json\n{"value": "ok"}\n\`\`\`${" ".repeat(100_000)}` } }],
  });
  assert.is(fenced!.status, "success", fenced!.content);
  assert.is(fenced!.content, "ok");
});

test.run();
