/**
 * What tool options' types say of a tool (checked when this file compiles: a `@ts-expect-error` that finds no error
 * fails the test build): a `needsApproval` predicate that declares its arguments' type is given them so typed
 * (`ToolOptions<Args>`, inferred by `tool(fn, options)`, `@tool(options)` and `tool.fromSchema`), one that does not
 * sees `Record<string, unknown>` as before; and at run time the predicate gets the validated arguments object.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type NeedsApproval, type ToolOptions, ToolRegistry, tool } from "tooltype";

/** `true` when the two types are the same. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(equal: Equal<A, B>): Equal<A, B> => equal;

/**
 * Transfer money.
 * @param to Account number
 * @param amount Amount in euros
 */
const transfer = tool(
  function transfer(to: string, amount: number) {
    return `Sent ${amount} EUR to ${to}.`;
  },
  { needsApproval: (args: { to: string; amount: number }) => args.amount > 100 },
);

/**
 * Delete a file.
 * @param path The file
 */
const remove = tool(
  function remove(path: string) {
    return `deleted ${path}`;
  },
  {
    needsApproval: (args) => {
      same<typeof args, Record<string, unknown>>(true);
      // @ts-expect-error without a declared type, an argument is unknown
      const path: string = args.path;
      return path.startsWith("/");
    },
  },
);

class Accounts {
  /**
   * Close an account.
   * @param id The account
   */
  @tool({ needsApproval: (args: { id: string }) => args.id !== "demo" })
  close(id: string): string {
    return `closed ${id}`;
  }
}

const typed: ToolOptions<{ amount: number }> = { needsApproval: (args) => args.amount > 1 };
same<NonNullable<typeof typed.needsApproval>, NeedsApproval<{ amount: number }>>(true);
// @ts-expect-error a predicate's arguments are the ones the options say
const wrong: ToolOptions<{ amount: number }> = { needsApproval: (args: { amount: string }) => args.amount === "1" };

const searched = tool.fromSchema(
  {
    name: "search",
    parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    needsApproval: (args) => args.q.length > 3,
  },
  (args: { q: string }) => args.q,
);

test("a needsApproval predicate with a declared type is given the validated arguments object", async () => {
  assert.ok(wrong !== undefined && typed !== undefined);
  const registry = new ToolRegistry([transfer, remove, new Accounts(), searched]);
  const pending = await registry.pendingApprovals({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "a", type: "function", function: { name: "transfer", arguments: '{"to":"DE1","amount":500}' } },
      { id: "b", type: "function", function: { name: "transfer", arguments: '{"to":"DE1","amount":5}' } },
      { id: "c", type: "function", function: { name: "remove", arguments: '{"path":"/etc"}' } },
      { id: "d", type: "function", function: { name: "close", arguments: '{"id":"demo"}' } },
      { id: "e", type: "function", function: { name: "close", arguments: '{"id":"real"}' } },
      { id: "f", type: "function", function: { name: "search", arguments: '{"q":"long query"}' } },
    ],
  });
  assert.equal(
    pending.map((call) => call.id),
    ["a", "c", "e", "f"],
  );
});

test.run();
