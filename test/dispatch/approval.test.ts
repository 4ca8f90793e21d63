/**
 * Human approval: a batch with calls that need approval pauses before anything runs, its state survives
 * JSON.stringify → JSON.parse → a fresh registry, and resuming with one approve and one reject answers every call
 * of the batch (the rejected one with the reason, the ones that needed no approval too). A plain dispatch never
 * runs such a call; a decision list that does not decide every pending call exactly once is refused.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type ApprovalDecision,
  type ApprovalState,
  ApprovalRequiredError,
  type GeminiInput,
  ToolRegistry,
  tool,
} from "tooltype";

/** A fresh set of tools, each counting its runs, as a new process would build them. */
function makeRegistry() {
  const ran: string[] = [];
  /**
   * Send an email.
   * @param to Recipient address
   * @param body Text of the email
   */
  const sendEmail = tool(
    function send_email(to: string, body: string) {
      ran.push(`send_email ${to}`);
      return `sent ${body.length} characters to ${to}`;
    },
    { needsApproval: true },
  );
  /**
   * Transfer money.
   * @param amount Amount in euros
   */
  const transfer = tool(
    function transfer(amount: number) {
      ran.push(`transfer ${amount}`);
      return `transferred ${amount}`;
    },
    { needsApproval: (args) => (args.amount as number) > 100 },
  );
  /**
   * Look up a word.
   * @param word The word
   */
  const lookup = tool(function lookup(word: string) {
    ran.push(`lookup ${word}`);
    return `${word}: a word`;
  });
  return { registry: new ToolRegistry([sendEmail, transfer, lookup]), ran };
}

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

const chatMessage = {
  role: "assistant" as const,
  content: null,
  tool_calls: [
    {
      id: "c0",
      type: "function" as const,
      function: { name: "send_email", arguments: '{"to":"ada@example.com","body":"Hi"}' },
    },
    { id: "c1", type: "function" as const, function: { name: "transfer", arguments: '{"amount":50}' } },
    { id: "c2", type: "function" as const, function: { name: "transfer", arguments: '{"amount":500}' } },
    { id: "c3", type: "function" as const, function: { name: "lookup", arguments: '{"word":"tool"}' } },
  ],
};

test("pause, save as JSON, resume in a fresh registry with one approve and one reject: every call answered", async () => {
  const first = makeRegistry();
  const paused = await first.registry.dispatchWithApproval(chatMessage);
  assert.is(paused.status, "paused");
  if (paused.status !== "paused") return;
  assert.equal(first.ran, [], "nothing of the batch runs before the decisions");
  assert.equal(
    paused.pending.map((p) => [p.id, p.name, p.args]),
    [
      ["c0", "send_email", { to: "ada@example.com", body: "Hi" }],
      ["c2", "transfer", { amount: 500 }],
    ],
  );

  const saved = JSON.stringify(paused.state);
  const restarted = makeRegistry();
  const state = JSON.parse(saved) as ApprovalState<typeof chatMessage>;
  const decisions: ApprovalDecision[] = [
    { id: "c0", approved: true },
    { id: "c2", approved: false, reason: "Transfers over 100 euros need a second signature." },
  ];
  const done = await restarted.registry.resume(state, decisions);
  assert.equal(restarted.ran.sort(), ["lookup tool", "send_email ada@example.com", "transfer 50"]);
  assert.equal(
    done.answer.map((m) => [m.tool_call_id, m.status, m.content]),
    [
      ["c0", "success", "sent 2 characters to ada@example.com"],
      ["c1", "success", "transferred 50"],
      [
        "c2",
        "error",
        "The user rejected this call of transfer, so it was not run. Reason: Transfers over 100 euros need a second signature.",
      ],
      ["c3", "success", "tool: a word"],
    ],
  );
  assert.equal(first.ran, []);
});

test("a plain dispatch, runCalls or invoke(call) meeting a call that needs approval runs nothing and says what to use", async () => {
  const { registry, ran } = makeRegistry();
  const error = await registry.dispatch(chatMessage).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(error, ApprovalRequiredError);
  assert.match((error as Error).message, /send_email, transfer need a human's approval/);
  assert.match((error as Error).message, /dispatchWithApproval/);
  assert.equal(
    (error as ApprovalRequiredError).pending.map((p) => p.id),
    ["c0", "c2"],
  );
  assert.instance(await rejection(() => registry.runCalls(chatMessage)), ApprovalRequiredError);
  const invoked = await registry.invoke({ id: "x", name: "send_email", args: { to: "b@example.com", body: "" } }).then(
    () => "ran",
    (e: unknown) => e,
  );
  assert.instance(invoked, ApprovalRequiredError);
  assert.equal(ran, []);
  // Calls whose predicate says no run through a plain dispatch as usual.
  const small = await registry.dispatch({
    ...chatMessage,
    tool_calls: [chatMessage.tool_calls[1]!, chatMessage.tool_calls[3]!],
  });
  assert.equal(
    small.map((m) => m.content),
    ["transferred 50", "tool: a word"],
  );
  // A direct invoke by name is the developer's own call, not the model's: no approval.
  assert.is(
    await registry.invoke("send_email", { to: "c@example.com", body: "x" }),
    "sent 1 characters to c@example.com",
  );
});

test("with no call needing approval, dispatchWithApproval answers at once", async () => {
  const { registry } = makeRegistry();
  const done = await registry.dispatchWithApproval({ ...chatMessage, tool_calls: [chatMessage.tool_calls[3]!] });
  assert.is(done.status, "done");
  if (done.status === "done")
    assert.equal(
      done.answer.map((m) => m.content),
      ["tool: a word"],
    );
});

test("resume refuses decisions that miss a pending call, name an unknown one or decide one twice; nothing runs", async () => {
  const { registry, ran } = makeRegistry();
  const paused = await registry.dispatchWithApproval(chatMessage);
  if (paused.status !== "paused") throw new Error("expected a pause");
  const state = JSON.parse(JSON.stringify(paused.state)) as ApprovalState<typeof chatMessage>;
  const refused = async (decisions: ApprovalDecision[]): Promise<string> => {
    try {
      await registry.resume(state, decisions);
    } catch (error) {
      assert.instance(error, TypeError);
      return (error as Error).message;
    }
    throw new Error("resume accepted the decisions");
  };
  assert.match(await refused([{ id: "c0", approved: true }]), /no decision for c2 \(transfer\)/);
  assert.match(
    await refused([
      { id: "c0", approved: true },
      { id: "c2", approved: true },
      { id: "c3", approved: true },
    ]),
    /"c3" names no pending call\. Pending: c0 \(send_email\), c2 \(transfer\)/,
  );
  assert.match(
    await refused([
      { id: "c0", approved: true },
      { id: "c0", approved: false },
      { id: "c2", approved: true },
    ]),
    /decided twice/,
  );
  assert.match(await refused("yes" as unknown as ApprovalDecision[]), /must be an array/);
  assert.match(
    String(await rejection(() => registry.resume({ type: "other" } as unknown as ApprovalState, []))),
    /not the state of a paused batch/,
  );
  const everyCall: ApprovalDecision[] = [
    { id: "c0", approved: true },
    { id: "c2", approved: true },
  ];
  assert.match(
    String(await rejection(() => registry.resume({ ...state, provider: "nope" } as ApprovalState, everyCall))),
    /unknown message format "nope"/,
  );
  assert.equal(ran, []);
});

test("invalid arguments need no approval (answered as errors); a predicate that throws counts as needing it", async () => {
  const ran: string[] = [];
  /**
   * Delete a file.
   * @param path The path
   */
  const remove = tool(
    function remove(path: string) {
      ran.push(path);
      return "removed";
    },
    {
      needsApproval: (args) => {
        if (args.path === "/") throw new Error("predicate failed");
        return false;
      },
    },
  );
  const registry = new ToolRegistry([remove]);
  const paused = await registry.dispatchWithApproval({
    tool_calls: [
      { id: "a", name: "remove", args: { path: "/" } },
      { id: "b", name: "remove", args: { path: 3, extra: true } },
      { id: "c", name: "remove", args: { path: "/tmp/x" } },
    ],
  });
  if (paused.status !== "paused") throw new Error("expected a pause");
  assert.equal(
    paused.pending.map((p) => p.id),
    ["a"],
  );
  const done = await registry.resume(paused.state, [{ id: "a", approved: false }]);
  assert.equal(
    done.results.map((m) => m.status),
    ["error", "error", "success"],
  );
  assert.is(done.results[0]!.content, "The user rejected this call of remove, so it was not run.");
  assert.match(done.results[1]!.content, /^Error: /);
  assert.equal(ran, ["/tmp/x"]);
});

test("calls past maxCallsPerMessage are not put to a human: they are refused with the limit whatever is decided", async () => {
  const { registry, ran } = makeRegistry();
  const message = {
    role: "assistant" as const,
    content: null,
    tool_calls: ["a", "b", "c"].map((who, i) => ({
      id: `call_${i}`,
      type: "function" as const,
      function: { name: "send_email", arguments: JSON.stringify({ to: `${who}@example.com`, body: "hi" }) },
    })),
  };
  const paused = await registry.dispatchWithApproval(message, { maxCallsPerMessage: 2 });
  assert.is(paused.status, "paused");
  if (paused.status !== "paused") return;
  assert.equal(
    paused.pending.map((p) => p.id),
    ["call_0", "call_1"],
  );
  assert.equal(await registry.pendingApprovals(message, { maxCallsPerMessage: 2 }).then((p) => p.map((q) => q.id)), [
    "call_0",
    "call_1",
  ]);
  const done = await registry.resume(
    JSON.parse(JSON.stringify(paused.state)) as typeof paused.state,
    [
      { id: "call_0", approved: true },
      { id: "call_1", approved: false },
    ],
    { maxCallsPerMessage: 2 },
  );
  assert.equal(ran, ["send_email a@example.com"]);
  assert.equal(
    done.results.map((r) => r.status),
    ["success", "error", "error"],
  );
  assert.match(done.results[2]!.content, /maxCallsPerMessage/);
  // A cap that leaves no call needing approval: the reply is answered at once.
  const only = {
    ...message,
    tool_calls: [
      { id: "w", type: "function" as const, function: { name: "lookup", arguments: '{"word":"hi"}' } },
      ...message.tool_calls,
    ],
  };
  const direct = await registry.dispatchWithApproval(only, { maxCallsPerMessage: 1 });
  assert.is(direct.status, "done");
  if (direct.status === "done")
    assert.equal(
      direct.results.map((r) => r.status),
      ["success", "error", "error", "error"],
    );
});

test("@tool({ needsApproval }) on a method pauses the same way", async () => {
  const ran: string[] = [];
  class Files {
    /**
     * Delete a file.
     * @param path The path
     */
    @tool({ needsApproval: true })
    remove(path: string): string {
      ran.push(path);
      return "removed";
    }
  }
  const registry = new ToolRegistry([new Files()]);
  const paused = await registry.dispatchWithApproval({
    tool_calls: [{ id: "r", name: "remove", args: { path: "/x" } }],
  });
  if (paused.status !== "paused") throw new Error("expected a pause");
  const done = await new ToolRegistry([new Files()]).resume(
    JSON.parse(JSON.stringify(paused.state)) as typeof paused.state,
    [{ id: "r", approved: true }],
  );
  assert.equal(
    done.answer.map((m) => m.content),
    ["removed"],
  );
  assert.equal(ran, ["/x"]);
});

test("Gemini calls without ids are decided by #index, and resume answers in Gemini's format", async () => {
  const { registry, ran } = makeRegistry();
  const message: GeminiInput = {
    role: "model",
    parts: [
      { functionCall: { name: "transfer", args: { amount: 900 } } },
      { functionCall: { name: "transfer", args: { amount: 901 } } },
    ],
  };
  const paused = await registry.dispatchWithApproval(message);
  if (paused.status !== "paused") throw new Error("expected a pause");
  assert.equal(
    paused.pending.map((p) => p.id),
    ["#0", "#1"],
  );
  const state = JSON.parse(JSON.stringify(paused.state)) as ApprovalState<typeof message>;
  const done = await makeRegistry().registry.resume(state, [
    { id: "#1", approved: true },
    { id: "#0", approved: false, reason: "no" },
  ]);
  assert.equal(done.answer.role, "user");
  assert.equal(
    done.answer.parts.map((p) => p.functionResponse.response),
    [
      { error: "The user rejected this call of transfer, so it was not run. Reason: no" },
      { output: "transferred 901" },
    ],
  );
  assert.equal(ran, []);
});

test.run();
