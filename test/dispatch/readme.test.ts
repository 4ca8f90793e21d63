/**
 * The blocks of docs/running-tool-calls.md on images and files, human approval and middleware (markers
 * readme:rich-results,
 * readme:approval, readme:middleware): each compiles with the transformer without a diagnostic, and runs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolMessage, ToolRegistry } from "tooltype";
import { compileFixture } from "../support/compile";

const readme = fs.readFileSync(path.resolve(__dirname, "../../../docs/running-tool-calls.md"), "utf8");

function block(marker: string): string {
  const found = new RegExp(`<!-- readme:${marker} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  assert.ok(found, `the block of docs/running-tool-calls.md marked readme:${marker}`);
  return found!;
}

function compiled<T>(source: string): T {
  const fixture = compileFixture(source);
  assert.equal(
    fixture.diagnostics.map((d) => d.message),
    [],
  );
  return fixture.load<T>();
}

test("docs/running-tool-calls.md: a tool returning text, an image and a file", async () => {
  const { registry } = compiled<{ registry: ToolRegistry }>(block("rich-results"));
  (globalThis as { renderChart?: unknown }).renderChart = () => new Uint8Array([137, 80, 78, 71]);
  try {
    const [answer] = await registry.dispatch({ tool_calls: [{ id: "c", name: "chart", args: { month: "May" } }] });
    assert.is(answer!.content, "Sales in May\n[image 1: image/png]\n[file 2: report.pdf]");
    assert.ok(
      readme.includes("`Sales in May\\n[image 1: image/png]\\n[file 2: report.pdf]`"),
      "docs/running-tool-calls.md shows this text",
    );
    assert.equal(answer!.parts![1], { type: "image", data: "iVBORw==", mediaType: "image/png" });
  } finally {
    delete (globalThis as { renderChart?: unknown }).renderChart;
  }
});

test("docs/running-tool-calls.md: approval pauses, the state goes through JSON, resume answers every call", async () => {
  const source = `${block("approval")}\nimport { ToolRegistry as Registry } from "tooltype";\nexport const registry = new Registry([transfer]);\n`;
  const { registry, turn } = compiled<{
    registry: ToolRegistry;
    turn: (r: ToolRegistry, reply: unknown) => Promise<ToolMessage[]>;
  }>(source);
  const answer = await turn(registry, {
    tool_calls: [
      { id: "a", name: "transfer", args: { to: "DE00 0000", amount: 500 } },
      { id: "b", name: "transfer", args: { to: "FR00 0000", amount: 200 } },
      { id: "c", name: "transfer", args: { to: "FR00 0000", amount: 5 } },
    ],
  });
  assert.equal(
    answer.map((m) => [m.tool_call_id, m.status, m.content]),
    [
      ["a", "success", "Sent 500 EUR to DE00 0000."],
      ["b", "error", "The user rejected this call of transfer, so it was not run. Reason: Unknown account."],
      ["c", "success", "Sent 5 EUR to FR00 0000."],
    ],
  );
});

test("docs/running-tool-calls.md: middleware for a policy and redaction", async () => {
  const source = `${block("middleware")}
import { tool } from "tooltype";
/**
 * Show a customer's card.
 * @param id Customer id
 */
export const card = tool(function card(id: string) { return \`Card of \${id}: 4111 1111 1111 1234\`; }, { tags: ["admin"] });
export const registry = configure(new ToolRegistry([card]));
`;
  const { registry } = compiled<{ registry: ToolRegistry }>(source);
  const call = { tool_calls: [{ id: "c", name: "card", args: { id: "ada" } }] };
  const [denied] = await registry.dispatch(call, { metadata: { role: "guest" } });
  assert.equal([denied!.status, denied!.content], ["error", "card is for administrators only."]);
  const [shown] = await registry.dispatch(call, { metadata: { role: "admin" } });
  assert.equal([shown!.status, shown!.content], ["success", "Card of ada: **** 1234"]);
});

test.run();
