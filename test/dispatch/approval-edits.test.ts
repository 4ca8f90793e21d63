/**
 * Approvals with edited arguments at the registry (`dispatchWithApproval`, `resume`): a decision `{ id, approved:
 * true, args }` runs the call with the human's arguments, validated again with the tool's validator and the
 * coercion rules of the pause; an edit that does not fit runs nothing and its answer (to the model) names the
 * argument; an edit that fits is announced in the answer. The state stays what was shown and sealed: edits travel
 * in the decisions, so a sealed state still verifies, a state still runs once, and only pending calls take edits.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ApprovalState, ToolRegistry, ToolCallMessage } from "tooltype";
import { transferTools } from "../support/approval-tools";

const SECRET = "a test secret of more than thirty-two bytes, never used elsewhere";

function chat(...calls: [name: string, args: string][]): ToolCallMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: calls.map(([name, args], i) => ({
      id: `call_${i}`,
      type: "function" as const,
      function: { name, arguments: args },
    })),
  };
}

type State = ApprovalState<ToolCallMessage>;

async function paused(registry: ToolRegistry, message: ToolCallMessage, options = {}): Promise<State> {
  const result = await registry.dispatchWithApproval(message, options);
  assert.is(result.status, "paused");
  return JSON.parse(JSON.stringify((result as { state: State }).state)) as State;
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return String((error as Error).message);
  }
  throw new Error("expected a refusal");
}

const MESSAGE = chat(["transfer", '{"amount":100,"to":"alice"}'], ["note", '{"text":"paid"}']);

test("an edit that fits runs instead of the model's arguments, and the answer tells the model", async () => {
  const { registry, ran } = transferTools();
  const state = await paused(registry, MESSAGE);
  const done = await registry.resume(state, [{ id: "call_0", approved: true, args: { amount: 80, to: "alice" } }]);
  assert.equal(ran.sort(), ["note paid", "transfer 80 to alice"]);
  assert.is(done.results[0]!.status, "success");
  assert.is(
    done.results[0]!.content,
    '[The user edited the arguments of this call before approving it; it ran with {"amount":80,"to":"alice"}.]\nsent 80 to alice',
  );
  assert.is(done.results[1]!.content, "noted");
  // The format's own answer carries the same text.
  assert.is((done.answer as { content: string }[])[0]!.content, done.results[0]!.content);
});

test("an edit equal to what was shown is no edit: no note", async () => {
  const { registry } = transferTools();
  const state = await paused(registry, MESSAGE);
  const done = await registry.resume(state, [{ id: "call_0", approved: true, args: { to: "alice", amount: 100 } }]);
  assert.is(done.results[0]!.content, "sent 100 to alice");
});

test("an edit that does not fit runs nothing; the answer says the edit was refused and names the argument", async () => {
  const { registry, ran } = transferTools();
  const state = await paused(registry, MESSAGE);
  const done = await registry.resume(state, [{ id: "call_0", approved: true, args: { amount: "a lot", to: "alice" } }]);
  assert.equal(ran, ["note paid"]);
  const answer = done.results[0]!;
  assert.is(answer.status, "error");
  assert.is(answer.errorKind, "validation");
  assert.match(
    answer.content,
    /^The user approved this call of transfer with edited arguments, but the edit does not fit the tool's parameters, so it was not run\./,
  );
  assert.match(answer.content, /amount/);
});

test("edits are validated under the coercion rules of the pause", async () => {
  const lenient = transferTools();
  const done = await lenient.registry.resume(await paused(lenient.registry, MESSAGE), [
    { id: "call_0", approved: true, args: { amount: "70", to: "bob" } },
  ]);
  assert.equal(lenient.ran.sort(), ["note paid", "transfer 70 to bob"]);
  // The model reads the arguments as the tool received them.
  assert.match(done.results[0]!.content, /ran with \{"amount":70,"to":"bob"\}/);

  const strict = transferTools();
  const state = await paused(strict.registry, MESSAGE, { coerce: false });
  // The resume's own options cannot loosen what the pause set.
  const refused = await strict.registry.resume(
    state,
    [{ id: "call_0", approved: true, args: { amount: "70", to: "bob" } }],
    { coerce: true },
  );
  assert.equal(strict.ran, ["note paid"]);
  assert.match(refused.results[0]!.content, /edit does not fit[\s\S]*amount/);
});

test("a sealed state verifies with edits in the decisions, and still runs once", async () => {
  const { registry, ran } = transferTools({ approvalSecret: SECRET });
  const state = await paused(registry, MESSAGE);
  await registry.resume(state, [{ id: "call_0", approved: true, args: { amount: 5, to: "carol" } }]);
  assert.equal(ran.sort(), ["note paid", "transfer 5 to carol"]);
  const again = await refusal(() =>
    registry.resume(state, [{ id: "call_0", approved: true, args: { amount: 6, to: "carol" } }]),
  );
  assert.match(again, /resumed before; nothing was run/);
  assert.equal(ran.sort(), ["note paid", "transfer 5 to carol"]);
});

test("edits only for pending calls, only on an approval, only as objects: else nothing runs", async () => {
  const { registry, ran } = transferTools();
  const state = await paused(registry, MESSAGE);
  const notPending = await refusal(() =>
    registry.resume(state, [
      { id: "call_0", approved: true },
      { id: "call_1", approved: true, args: { text: "forged" } },
    ]),
  );
  assert.match(notPending, /names no pending call/);
  const onRejection = await refusal(() =>
    registry.resume(state, [{ id: "call_0", approved: false, args: { amount: 1, to: "x" } } as never]),
  );
  assert.match(onRejection, /rejects the call and also gives it arguments/);
  const notObject = await refusal(() =>
    registry.resume(state, [{ id: "call_0", approved: true, args: ["x"] as never }]),
  );
  assert.match(notObject, /must be an object of the tool's arguments[\s\S]*an array/);
  assert.equal(ran, []);
  // None of the refusals used the state up.
  await registry.resume(state, [{ id: "call_0", approved: true }]);
  assert.equal(ran.sort(), ["note paid", "transfer 100 to alice"]);
});

test.run();
