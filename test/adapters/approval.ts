/**
 * The approval conversations every framework adapter test runs through its framework's own approval flow, against
 * the scripted OpenAI-compatible server:
 * - `wire_money` asks for approval on every call (`needsApproval: true`). The model calls it with `amount: "5"`:
 *   the run pauses and nothing runs; approved, it runs once with the validated (coerced) arguments and the model
 *   reads its answer; rejected, it never runs and the model reads the framework's rejection.
 * - `pay` asks only above 100 (a predicate): the model calls it with 5 (no pause: it runs at once), then with "500"
 *   (the run pauses; approved, it runs).
 * The tools record each run, so a test sees what ran, how often, and with which arguments.
 */
import * as assert from "uvu/assert";
import type { ChatCompletionCreateParams } from "openai/resources/chat/completions";
import { type JsonSchema, ToolRegistry, tool } from "tooltype";
import { type ScriptStep, toolResults } from "../scripted-openai/server";

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: { to: { type: "string" }, amount: { type: "integer", minimum: 1 } },
  required: ["to", "amount"],
  additionalProperties: false,
};

/** The two tools, and the arguments of each run (by tool) and of each predicate call. */
export function approvalRegistry(): {
  registry: ToolRegistry;
  runs: [string, Record<string, unknown>][];
  asked: Record<string, unknown>[];
} {
  const runs: [string, Record<string, unknown>][] = [];
  const asked: Record<string, unknown>[] = [];
  const wire = tool.fromSchema(
    { name: "wire_money", description: "Wire money.", parameters: PARAMETERS, needsApproval: true },
    (args) => {
      runs.push(["wire_money", args]);
      return `sent ${args.amount} to ${args.to}`;
    },
  );
  const pay = tool.fromSchema(
    {
      name: "pay",
      description: "Pay a bill.",
      parameters: PARAMETERS,
      needsApproval: (args) => {
        asked.push(args);
        return (args.amount as number) > 100;
      },
    },
    (args) => {
      runs.push(["pay", args]);
      return `paid ${args.amount} to ${args.to}`;
    },
  );
  return { registry: new ToolRegistry([wire, pay]), runs, asked };
}

/** What the model read as the answer of the last round of calls, as its final answer. */
function echo(request: ChatCompletionCreateParams): { content: string } {
  return { content: `read: ${toolResults(request).map((result) => result.content)}` };
}

/** One call of `wire_money` with `amount: "5"`, then an answer that repeats what the model read. */
export const WIRE_SCRIPT: ScriptStep[] = [
  { tool_calls: [{ name: "wire_money", arguments: { to: "Ana", amount: "5" } }] },
  echo,
];

/** `pay` with 5 (asks no approval), then with "500" (asks), then "done". */
export const PAY_SCRIPT: ScriptStep[] = [
  { tool_calls: [{ name: "pay", arguments: { to: "Ana", amount: 5 } }] },
  { tool_calls: [{ name: "pay", arguments: { to: "Bo", amount: "500" } }] },
  echo,
];

/** The approved `wire_money` call ran once, with the validated arguments, and the model read its answer. */
export function checkApproved(runs: readonly [string, Record<string, unknown>][], finalText: string): void {
  assert.equal(runs, [["wire_money", { to: "Ana", amount: 5 }]]);
  assert.is(finalText, "read: sent 5 to Ana");
}

/** The `pay` runs: 5 at once, 500 once approved; the predicate saw validated arguments. */
export function checkPaid(
  runs: readonly [string, Record<string, unknown>][],
  asked: readonly Record<string, unknown>[],
  finalText: string,
): void {
  assert.equal(runs, [
    ["pay", { to: "Ana", amount: 5 }],
    ["pay", { to: "Bo", amount: 500 }],
  ]);
  assert.ok(asked.length >= 2, "the predicate decided both calls");
  assert.ok(
    asked.every((args) => typeof args.amount === "number"),
    "the predicate sees validated arguments",
  );
  assert.is(finalText, "read: paid 500 to Bo");
}
