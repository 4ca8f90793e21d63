/**
 * The sample the host tests build and run: a class with a `@tool` method whose parameter type sits two imports away
 * (a barrel re-exporting an interface that extends one from another file), a `tool()` function, and an app that
 * dispatches a valid and an invalid call (and, given one, a call whose arguments come from the command line) and
 * prints the exported tools and the outcomes as one JSON line.
 */
import * as assert from "uvu/assert";
import type { Run } from "./project";

export const LIB = {
  "src/lib/base.ts": `export interface Base {\n  /** Order id */\n  id: string;\n}\n`,
  "src/lib/order.ts": `import type { Base } from "./base${""}";\nexport interface Order extends Base {\n  /** How many */\n  qty: number;\n}\n`,
  "src/lib/index.ts": `export * from "./order";\n`,
};

export const tools = (decorator: string): string => `import { tool } from "tooltype";
import type { Order } from "./lib";

export class Shop {
  /**
   * Place an order.
   * @param order What to order
   */
  ${decorator}
  place_order(order: Order): string {
    return \`placed \${order.qty} of \${order.id}\`;
  }
}

/**
 * Count to n.
 * @param n How far
 */
export const count = tool(function count(n: number) {
  return n;
});
`;

export const APP = `import { ToolRegistry } from "tooltype";
import { count, Shop } from "./tools.js";

const registry = new ToolRegistry([new Shop(), count]);
const call = (args: string) => ({ role: "assistant" as const, content: null, tool_calls: [{ id: "c1", type: "function" as const, function: { name: "place_order", arguments: args } }] });
async function main(): Promise<void> {
  const [ok] = await registry.dispatch(call('{"order":{"id":"x1","qty":2}}'));
  const [bad] = await registry.dispatch(call('{"order":{"id":"x1","qty":"two"}}'));
  const given = process.argv[2]?.startsWith("{") ? (await registry.dispatch(call(process.argv[2])))[0]!.status : undefined; console.log(JSON.stringify({ tools: registry.toOpenAITools(), ok: [ok!.status, ok!.content], bad: bad!.status, given }));
  if (process.argv.includes("--throw")) throw new Error("thrown on line 10 of main.ts");
}
void main().catch((error: Error) => { console.error(error.stack); process.exitCode = 3; });
`;

export interface Output {
  tools: { function: { name: string; parameters: Record<string, unknown> } }[];
  ok: [string, string];
  bad: string;
  /** The status of the call whose arguments were given on the command line. */
  given?: string;
}

export function output(step: string, result: Run): Output {
  assert.is(result.code, 0, `${step} failed (exit ${result.code}):\n${result.stderr}\n${result.stdout}`);
  const line = result.stdout.trim().split("\n").pop()!;
  return JSON.parse(line) as Output;
}

export function checkBehaviour(out: Output, properties = ["id", "qty"]): void {
  const order = (
    out.tools[0]!.function.parameters.properties as Record<
      string,
      { properties: Record<string, { description?: string }> }
    >
  ).order!;
  assert.equal(
    Object.keys(order.properties).sort(),
    properties,
    "the schema has the property of the base interface two imports away",
  );
  assert.is(order.properties.id!.description, "Order id");
  assert.equal(out.ok, ["success", "placed 2 of x1"]);
  assert.is(out.bad, "error", "a string where the interface wants a number is refused");
}
