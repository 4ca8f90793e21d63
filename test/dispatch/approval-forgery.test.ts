/**
 * An approval state handed to a client cannot be forged, edited or replayed (hostile input, round two, item 2). Each
 * case is one the review ran against the built package: a hand-written state, an edited call, an appended call, a
 * decision moved to another call, the same state resumed twice, a pause's options dropped at resume. Without an
 * `approvalSecret` every inconsistency is refused; with one, any change at all, an unsealed state and an expired
 * one are refused too. A refused resume runs nothing.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: the tests edit a sealed state field by field, as an attacker would
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ApprovalDecision, ApprovalState, ToolRegistry, ToolCallMessage } from "tooltype";
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

/** The state as a client would hand it back: through JSON, then changed by `edit`. */
function tampered(state: State, edit: (copy: Record<string, any>) => void): State {
  const copy = JSON.parse(JSON.stringify(state)) as Record<string, any>;
  edit(copy);
  return copy as State;
}

async function paused(registry: ToolRegistry, message: ToolCallMessage, options = {}): Promise<State> {
  const result = await registry.dispatchWithApproval(message, options);
  assert.is(result.status, "paused");
  return (result as { state: State }).state;
}

async function refused(run: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await run();
  } catch (error) {
    assert.instance(error, TypeError);
    assert.match(String((error as Error).message), pattern);
    return;
  }
  assert.unreachable("resume ran a state it should have refused");
}

const APPROVE_ALL = (state: State): ApprovalDecision[] =>
  state.pending.map((entry) => ({ id: entry.id, approved: true }));

for (const sealed of [false, true]) {
  const label = sealed ? "sealed" : "unsealed";
  const options = sealed ? { approvalSecret: SECRET } : {};

  test(`${label}: a hand-written state with nothing pending does not run a tool that needs approval`, async () => {
    const { registry, ran } = transferTools(options);
    const forged = {
      type: "tooltype.approval",
      v: 2,
      provider: "openai",
      nonce: "n1",
      options: {},
      calls: Array.from({ length: 64 }, (_, i) => ({
        kind: "text",
        id: `x${i}`,
        name: "transfer",
        text: '{"amount": 999999, "to": "attacker"}',
      })),
      pending: [],
    } as unknown as State;
    await refused(() => registry.resume(forged, []), sealed ? /not sealed/ : /needs approval but is not pending/);
    assert.equal(ran, []);
  });

  test(`${label}: editing a call after the human approved it runs nothing`, async () => {
    const { registry, ran } = transferTools(options);
    const state = await paused(registry, chat(["transfer", '{"amount": 10, "to": "bob"}']));
    const edited = tampered(state, (s) => (s.calls[0].text = '{"amount": 999999, "to": "attacker"}'));
    await refused(
      () => registry.resume(edited, APPROVE_ALL(state)),
      sealed ? /seal does not match/ : /arguments differ from what was shown/,
    );
    // Both the call and what the human saw, edited together: only the seal can tell.
    const both = tampered(state, (s) => {
      s.calls[0].text = '{"amount": 999999, "to": "attacker"}';
      s.pending[0].args = { amount: 999999, to: "attacker" };
    });
    if (sealed) await refused(() => registry.resume(both, APPROVE_ALL(state)), /seal does not match/);
    assert.equal(ran, []);
  });

  test(`${label}: a call appended to the state does not run`, async () => {
    const { registry, ran } = transferTools(options);
    const state = await paused(registry, chat(["transfer", '{"amount": 10, "to": "bob"}']));
    const appended = tampered(state, (s) =>
      s.calls.push({ kind: "text", id: "extra", name: "transfer", text: '{"amount": 5000, "to": "attacker"}' }),
    );
    await refused(
      () => registry.resume(appended, APPROVE_ALL(state)),
      sealed ? /seal does not match/ : /needs approval but is not pending/,
    );
    assert.equal(ran, []);
  });

  test(`${label}: moving a rejection to another call's index runs nothing`, async () => {
    const { registry, ran } = transferTools(options);
    const state = await paused(
      registry,
      chat(["transfer", '{"amount": 10, "to": "bob"}'], ["transfer", '{"amount": 900, "to": "eve"}']),
    );
    // The human approves the first and rejects the second; the client swaps which call each decision is about.
    const decisions: ApprovalDecision[] = [
      { id: state.pending[0]!.id, approved: true },
      { id: state.pending[1]!.id, approved: false, reason: "no" },
    ];
    const moved = tampered(state, (s) => {
      [s.pending[0].index, s.pending[1].index] = [s.pending[1].index, s.pending[0].index];
    });
    await refused(() => registry.resume(moved, decisions), sealed ? /seal does not match/ : /does not match call/);
    assert.equal(ran, []);
  });

  test(`${label}: the same state resumed twice runs once`, async () => {
    const { registry, ran } = transferTools(options);
    const state = await paused(registry, chat(["transfer", '{"amount": 10, "to": "bob"}']));
    const done = await registry.resume(state, APPROVE_ALL(state));
    assert.is(done.results[0]!.status, "success");
    await refused(
      () => registry.resume(JSON.parse(JSON.stringify(state)) as State, APPROVE_ALL(state)),
      /resumed before/,
    );
    assert.equal(ran, ["transfer 10 to bob"]);
  });

  test(`${label}: a resume runs under the pause's options (maxCallsPerMessage, coerce), not its own`, async () => {
    const { registry, ran } = transferTools(options);
    const capped = await paused(
      registry,
      chat(["transfer", '{"amount": 10, "to": "bob"}'], ["note", '{"text": "past the cap"}']),
      { maxCallsPerMessage: 1 },
    );
    const answers = await registry.resume(capped, APPROVE_ALL(capped));
    assert.equal(ran, ["transfer 10 to bob"]);
    assert.is(answers.results[1]!.status, "error");
    assert.match(answers.results[1]!.content, /maxCallsPerMessage|calls per message|at most 1/);
    // Dropping the cap from an unsealed state lets nothing run that needs approval without one.
    const strict = await paused(registry, chat(["transfer", '{"amount": 10, "to": "bob"}'], ["note", '{"text": 42}']), {
      coerce: false,
    });
    const coerced = await registry.resume(strict, APPROVE_ALL(strict), { coerce: true });
    assert.is(
      coerced.results[1]!.status,
      "error",
      "the note that failed validation at the pause is not coerced at resume",
    );
    assert.equal(ran, ["transfer 10 to bob", "transfer 10 to bob"]);
  });
}

test("sealed: any change is refused, keys in another order are not; an expired state and a short secret are refused", async () => {
  const { registry, ran } = transferTools({ approvalSecret: SECRET, approvalTtlMs: 60_000 });
  const state = await paused(registry, chat(["transfer", '{"amount": 10, "to": "bob"}'], ["note", '{"text": "hi"}']));
  assert.match(String(state.seal), /^[0-9a-f]{64}$/);
  for (const edit of [
    (s: Record<string, any>) => (s.calls[1].text = '{"text": "changed"}'),
    (s: Record<string, any>) => (s.options.maxCallsPerMessage = 64),
    (s: Record<string, any>) => (s.expiresAt += 1),
    (s: Record<string, any>) => delete s.seal,
  ]) {
    await refused(() => registry.resume(tampered(state, edit), APPROVE_ALL(state)), /seal does not match|not sealed/);
  }
  // The same state with every object's keys reversed, as some databases store JSON: still the same state.
  const reorder = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reorder)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([k, v]) => [k, reorder(v)]),
          )
        : value;
  const done = await registry.resume(reorder(JSON.parse(JSON.stringify(state))) as State, APPROVE_ALL(state));
  assert.equal(
    done.results.map((m) => m.status),
    ["success", "success"],
  );
  assert.equal(ran, ["transfer 10 to bob", "note hi"]);

  // Past its time: Date.now moved a minute and a second on.
  const later = await paused(registry, chat(["transfer", '{"amount": 20, "to": "bob"}']));
  const now = Date.now;
  Date.now = () => now() + 61_000;
  try {
    await refused(() => registry.resume(later, APPROVE_ALL(later)), /expired/);
  } finally {
    Date.now = now;
  }
  // Another registry with another secret cannot resume it.
  const other = transferTools({ approvalSecret: `${SECRET} but another` });
  await refused(() => other.registry.resume(later, APPROVE_ALL(later)), /seal does not match/);

  const short = transferTools({ approvalSecret: "too short" });
  await refused(
    () => short.registry.dispatchWithApproval(chat(["transfer", '{"amount": 1, "to": "bob"}'])),
    /at least 32 bytes/,
  );
});

test("a state from an earlier tooltype (version 1) is refused with what to do", async () => {
  const { registry } = transferTools();
  const old = { type: "tooltype.approval", v: 1, provider: "openai", calls: [], pending: [] } as unknown as State;
  await refused(() => registry.resume(old, []), /paused by an earlier tooltype.*pause the batch again/);
});

test.run();
