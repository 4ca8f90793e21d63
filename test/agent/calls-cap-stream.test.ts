/**
 * maxCallsPerMessage in runTools with a streamed reply: the calls run one by one as they stream in, yet only the
 * first `cap` run; the later ones get the limit's text (naming the reply's total) exactly as a whole reply's do,
 * and the hooks see them as validation failures.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { ToolRegistry, tool, type ToolErrorEvent } from "tooltype";
import { runTools } from "tooltype/loop";
import { startScriptedServer, toolResults, type Script, type ToolResult } from "../scripted-openai/server";

const runs: number[] = [];

/**
 * Count a call.
 * @param n Which call this is
 */
const countCall = tool(function count_call(n: number): string {
  runs.push(n);
  return `ran ${n}`;
});

const model = "scripted-cap";

/** One reply of `total` calls, then a final answer; the tool messages the model got, and the hooks' refusals. */
async function replyOf(total: number, stream: boolean, caps: { dispatch?: number; registry?: number }) {
  runs.length = 0;
  let seen: ToolResult[] = [];
  const script: Script = [
    { tool_calls: Array.from({ length: total }, (_, i) => ({ name: "count_call", arguments: { n: i + 1 } })) },
    (request) => {
      seen = toolResults(request);
      return { content: "done" };
    },
  ];
  const server = await startScriptedServer(script, { fragmentSize: 7 });
  const refusals: string[] = [];
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const registry = new ToolRegistry(
      [countCall],
      caps.registry === undefined ? {} : { maxCallsPerMessage: caps.registry },
    );
    const onToolError = (event: ToolErrorEvent) => {
      if (event.kind === "validation")
        refusals.push(
          `${event.call.id} ${event.error instanceof Error ? (event.error as { reason?: string }).reason : ""}`,
        );
    };
    const options = {
      dispatch: { onToolError, ...(caps.dispatch === undefined ? {} : { maxCallsPerMessage: caps.dispatch }) },
    };
    const result = stream
      ? await runTools(client, { model, messages: [{ role: "user", content: "count" }] }, registry, {
          ...options,
          stream: true,
        }).finalResult()
      : await runTools(client, { model, messages: [{ role: "user", content: "count" }] }, registry, options);
    assert.is(result.content, "done");
    const failures = result.steps[0]!.failures.map((failure) => `${failure.toolCallId} ${failure.reason}`);
    return { runs: [...runs].sort((a, b) => a - b), seen, refusals, failures };
  } finally {
    await server.close();
  }
}

const limitText = (total: number, cap: number) =>
  `this reply made ${total} tool calls and at most ${cap} are run per reply (maxCallsPerMessage); call ${cap + 1} and the ones after it were not run.`;

test("streamed reply of cap+2 calls: 3 run, the 2 later ones answered with the limit naming the total, in order", async () => {
  const streamed = await replyOf(5, true, { dispatch: 3 });
  assert.equal(streamed.runs, [1, 2, 3]);
  assert.equal(
    streamed.seen.map((r) => r.tool_call_id),
    ["call_1", "call_2", "call_3", "call_4", "call_5"],
  );
  assert.equal(
    streamed.seen.slice(0, 3).map((r) => r.content),
    ["ran 1", "ran 2", "ran 3"],
  );
  for (const refused of streamed.seen.slice(3)) assert.ok(refused.content.includes(limitText(5, 3)), refused.content);
  assert.equal(streamed.refusals, ["call_4 too_many_calls", "call_5 too_many_calls"]);
  assert.equal(streamed.failures, ["call_4 too_many_calls", "call_5 too_many_calls"]);

  const whole = await replyOf(5, false, { dispatch: 3 });
  assert.equal(whole.runs, [1, 2, 3]);
  assert.equal(streamed.seen, whole.seen);
  assert.equal(streamed.refusals, whole.refusals);
  assert.equal(streamed.failures, whole.failures);
});

test("streamed: the registry's maxCallsPerMessage applies when the dispatch sets none; the dispatch's wins", async () => {
  const registryCap = await replyOf(4, true, { registry: 2 });
  assert.equal(registryCap.runs, [1, 2]);
  assert.ok(registryCap.seen[2]!.content.includes(limitText(4, 2)));
  const dispatchCap = await replyOf(4, true, { registry: 2, dispatch: 3 });
  assert.equal(dispatchCap.runs, [1, 2, 3]);
  assert.ok(dispatchCap.seen[3]!.content.includes(limitText(4, 3)));
  const under = await replyOf(3, true, { dispatch: 3 });
  assert.equal(under.runs, [1, 2, 3]);
  assert.equal(under.refusals, []);
});

test.run();
