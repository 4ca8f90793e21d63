/**
 * Human approval of tool calls (`needsApproval` on a tool): finding the calls of a batch that need a human's yes,
 * the plain-JSON state of a paused batch, and turning a human's decisions into the answers of the batch.
 *
 * The rule that keeps a conversation valid: every call of a batch is answered, in one go. A batch with a call that
 * needs approval runs nothing until it is resumed; resuming needs exactly one decision per pending call (a decision
 * list that misses one, names an unknown call or decides one twice is refused before anything runs), then runs
 * the approved calls and the calls that needed no approval, and answers each rejected call with its rejection.
 * A plain `dispatch` that meets a call needing approval rejects with ApprovalRequiredError, having run nothing.
 */
import type { ArgsObject } from "../arguments/read/read-arguments";
import type { ToolContext } from "../tool/options";
import type { NormalizedCall } from "./call";
import type { PendingApproval } from "./approval-error";
import type { DispatchEnvironment } from "./environment";
import type { DispatchOptions } from "./options";
import { validArguments } from "./invoke";
import { callsCap } from "./settings";
import { APPROVAL_TTL_MS, canonicalJson, checkSecret, sameSeal, seal } from "./approval-seal";

export { ApprovalRequiredError, type PendingApproval } from "./approval-error";

/**
 * A human's answer for one pending call. `reason` (on a rejection) is sent to the model. `args` (on an approval):
 * the arguments the human edited, which the call runs with instead of the model's once they pass the tool's
 * validation again (under the pause's coercion rules); the model is told of the edit.
 */
export type ApprovalDecision =
  | { id: string; approved: true; args?: Record<string, unknown> }
  | { id: string; approved: false; reason?: string };

/** What the decisions make of a paused batch, by call index: a rejection's answer, or a human's edited arguments. */
export interface Decided {
  /** The answer of each rejected call (`undefined`: run it). */
  readonly rejections: (string | undefined)[];
  /** The edited arguments of each call approved with an edit (`undefined`: the model's, as shown). */
  readonly edits: (Record<string, unknown> | undefined)[];
}

/** The dispatch options of a pause that decide which calls run and how: a resume runs under them, not its own. */
export interface PauseOptions {
  readonly maxCallsPerMessage?: number;
  readonly coerce?: boolean;
  readonly repair?: boolean;
  readonly maxCallIdLength?: number;
}

/** The plain-JSON state of a paused batch: every call of the batch as read, and the ones waiting for a decision. */
export interface ApprovalStateData {
  readonly type: "tooltype.approval";
  readonly v: 2;
  /** The format to answer in (a provider's name). */
  readonly provider: string;
  readonly calls: readonly NormalizedCall[];
  readonly pending: readonly PendingApproval[];
  /** Random: a registry resumes a state once. */
  readonly nonce: string;
  /** The pause's options that decide which calls run and how. */
  readonly options: PauseOptions;
  /** With `approvalSecret`: when the state stops being resumable (ms since the epoch), and the seal over all of it. */
  readonly expiresAt?: number;
  readonly seal?: string;
}

/**
 * The calls that need approval, in call order. A call with invalid arguments needs none (it will be answered with
 * its validation error), nor does a call past the reply's cap on calls (`maxCallsPerMessage`: it will be answered
 * with the limit and never run); a predicate that throws or rejects counts as "needs approval".
 */
export async function findPending(
  env: DispatchEnvironment,
  calls: readonly NormalizedCall[],
  options: DispatchOptions,
): Promise<PendingApproval[]> {
  const ids = approvalIds(calls);
  const cap = callsCap(env, options);
  const checks = calls.slice(0, cap).map(async (call, index): Promise<PendingApproval | undefined> => {
    const tool = env.get(call.name);
    const flag = tool?.options.needsApproval;
    if (!tool || flag === undefined || flag === false) return undefined;
    const valid = validArguments(env, tool, call, options);
    const args = valid instanceof Promise ? await valid : valid;
    if (!args) return undefined;
    let needed = true;
    if (typeof flag === "function") {
      try {
        needed = (await flag(args, approvalContext(tool.options.metadata, call, args, options))) !== false;
      } catch {
        needed = true;
      }
    }
    return needed
      ? { id: ids[index]!, index, name: tool.name, args: JSON.parse(JSON.stringify(args)) as Record<string, unknown> }
      : undefined;
  });
  return (await Promise.all(checks)).filter((entry): entry is PendingApproval => entry !== undefined);
}

function approvalContext(
  own: Record<string, unknown> | undefined,
  call: NormalizedCall,
  args: ArgsObject,
  options: DispatchOptions,
): ToolContext {
  return {
    toolCall: { name: call.name, args, id: call.id, type: "tool_call" },
    signal: options.signal ?? new AbortController().signal,
    metadata: { ...own, ...options.metadata },
    auth: options.auth,
    // Deciding on approval is not the call's work: nothing to report.
    progress: () => undefined,
  };
}

/** The id each call is decided by: its own when present and unique in the batch, else `#<index>`. */
function approvalIds(calls: readonly NormalizedCall[]): string[] {
  const seen = new Map<string, number>();
  for (const call of calls) seen.set(call.id, (seen.get(call.id) ?? 0) + 1);
  return calls.map((call, index) =>
    call.id !== "" && seen.get(call.id) === 1 && !call.id.startsWith("#") ? call.id : `#${index}`,
  );
}

/** The state of a paused batch, sealed when the registry has an `approvalSecret`. */
export async function approvalState(
  env: DispatchEnvironment,
  provider: string,
  calls: readonly NormalizedCall[],
  pending: readonly PendingApproval[],
  options: DispatchOptions,
): Promise<ApprovalStateData> {
  const pause: PauseOptions = JSON.parse(
    JSON.stringify({
      maxCallsPerMessage: options.maxCallsPerMessage,
      coerce: options.coerce,
      repair: options.repair,
      maxCallIdLength: options.maxCallIdLength,
    }),
  ) as PauseOptions;
  const state: ApprovalStateData = {
    type: "tooltype.approval",
    v: 2,
    provider,
    calls: calls.map((call) => ({ ...call })),
    pending,
    nonce: crypto.randomUUID(),
    options: pause,
  };
  const secret = env.options.approvalSecret;
  if (secret === undefined) return state;
  checkSecret(secret);
  const sealed = { ...state, expiresAt: Date.now() + (env.options.approvalTtlMs ?? APPROVAL_TTL_MS) };
  return { ...sealed, seal: await seal(secret, canonicalJson(sealed)) };
}

/**
 * Canonical JSON of a part of a state or a decision, which come from outside: what JSON cannot write (nested past
 * the stack, a cycle, a BigInt, a getter that throws) is a refusal, a TypeError, like every other bad state.
 */
function untrustedJson(value: unknown, what: string): string {
  try {
    return canonicalJson(value);
  } catch {
    throw new TypeError(
      `resume: refused, ${what} cannot be written as JSON (nested too deep, a cycle or a BigInt); nothing was run.`,
    );
  }
}

/** A value from a state or a decision as a refusal shows it: short, and never a throw of its own (a cycle, a BigInt, nesting past the stack). */
function shortJsonText(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return "a value JSON cannot write";
  }
}

/**
 * Refuses (TypeError, before anything runs) a state this registry should not resume: with `approvalSecret`, one it
 * did not seal, one changed since, or one past its time; with or without, one whose calls needing approval are not
 * exactly its pending calls with the arguments the human saw (a call added, edited, or a decision moved to another
 * call), under the pause's options.
 */
export async function verifyApprovalState(env: DispatchEnvironment, state: ApprovalStateData): Promise<void> {
  const refuse = (why: string): never => {
    throw new TypeError(`resume: refused, ${why}; nothing was run.`);
  };
  const secret = env.options.approvalSecret;
  if (secret !== undefined) {
    checkSecret(secret);
    const { seal: given, ...rest } = state;
    if (typeof given !== "string")
      refuse(
        "the state is not sealed and this registry has an approvalSecret (a state must come from its dispatchWithApproval)",
      );
    if (!sameSeal(given!, await seal(secret, untrustedJson(rest, "the state"))))
      refuse("the state's seal does not match: it was changed after the pause, or sealed with another secret");
    if (typeof state.expiresAt !== "number" || Date.now() > state.expiresAt)
      refuse(`the state expired (approvalTtlMs: ${env.options.approvalTtlMs ?? APPROVAL_TTL_MS} ms)`);
  }
  // What the pause would find now: the calls that need a decision, with their arguments as validated.
  const expected = await findPending(env, state.calls, state.options);
  const given = new Map(state.pending.map((entry) => [entry.index, entry]));
  if (given.size !== state.pending.length) refuse("two pending entries name the same call");
  for (const entry of expected) {
    const pending = given.get(entry.index);
    if (!pending) refuse(`call ${entry.index + 1} (${entry.name}) needs approval but is not pending in the state`);
    if (
      pending!.id !== entry.id ||
      pending!.name !== entry.name ||
      untrustedJson(pending!.args, "a pending call's arguments") !== canonicalJson(entry.args)
    ) {
      refuse(
        `pending call ${JSON.stringify(pending!.id)} does not match call ${entry.index + 1} of the batch (its tool or its arguments differ from what was shown for approval)`,
      );
    }
  }
  if (expected.length !== state.pending.length) refuse("a pending entry names a call that needs no approval");
}

/** `value` checked as an approval state (as read back from JSON); a TypeError says what is wrong. */
export function checkApprovalState(value: unknown): ApprovalStateData {
  const fail = (why: string): never => {
    throw new TypeError(
      `resume: this is not the state of a paused batch (${why}). Pass the \`state\` that dispatchWithApproval or runTools returned, after JSON.parse.`,
    );
  };
  if (typeof value !== "object" || value === null) return fail("not an object");
  const state = value as Partial<ApprovalStateData>;
  if (state.type !== "tooltype.approval") fail('its type is not "tooltype.approval"');
  if ((state.v as number) === 1)
    fail("it was paused by an earlier tooltype, whose states carry no nonce or seal; pause the batch again");
  if (state.v !== 2) fail(`version ${shortJsonText(state.v)}, this tooltype reads version 2`);
  if (typeof state.nonce !== "string" || state.nonce === "") fail("no nonce");
  if (typeof state.options !== "object" || state.options === null || Array.isArray(state.options))
    fail("no pause options");
  if (typeof state.provider !== "string") fail("no provider");
  if (!Array.isArray(state.calls) || !state.calls.every(isCall)) fail("its calls are malformed");
  if (!Array.isArray(state.pending) || !state.pending.every((entry) => isPending(entry, state.calls!.length)))
    fail("its pending calls are malformed");
  return state as ApprovalStateData;
}

function isCall(value: unknown): value is NormalizedCall {
  if (typeof value !== "object" || value === null) return false;
  const call = value as Record<string, unknown>;
  return (
    typeof call.id === "string" &&
    typeof call.name === "string" &&
    (call.kind === "args" ||
      call.kind === "text" ||
      call.kind === "invalid" ||
      (call.kind === "input" && typeof call.input === "string"))
  );
}

function isPending(value: unknown, count: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.id === "string" &&
    typeof entry.name === "string" &&
    Number.isInteger(entry.index) &&
    (entry.index as number) >= 0 &&
    (entry.index as number) < count
  );
}

/**
 * By call index, the rejection answer of each rejected call and the edited arguments of each call approved with an
 * edit (an edit equal to the arguments shown is none). Throws a TypeError, before anything runs, unless `decisions`
 * decides every pending call exactly once and nothing else, and each edit is an object.
 */
export function decisionsFor(state: ApprovalStateData, decisions: readonly ApprovalDecision[]): Decided {
  if (!Array.isArray(decisions))
    throw new TypeError(
      "resume: decisions must be an array of { id, approved: true, args? } / { id, approved: false, reason }.",
    );
  const pending = new Map(state.pending.map((entry) => [entry.id, entry]));
  const decided = new Map<string, ApprovalDecision>();
  for (const decision of decisions) {
    const id = (decision as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || typeof decision.approved !== "boolean") {
      throw new TypeError(
        `resume: each decision is { id, approved: true } or { id, approved: false, reason? }; got ${shortJsonText(decision)}.`,
      );
    }
    if (!pending.has(id)) {
      throw new TypeError(
        `resume: the decision for ${JSON.stringify(id)} names no pending call. Pending: ${describePending(state.pending)}.`,
      );
    }
    if (decided.has(id))
      throw new TypeError(`resume: call ${JSON.stringify(id)} is decided twice; give one decision per pending call.`);
    const edit = (decision as { args?: unknown }).args;
    if (edit !== undefined) {
      if (!decision.approved)
        throw new TypeError(
          `resume: the decision for ${JSON.stringify(id)} rejects the call and also gives it arguments; give args only with approved: true.`,
        );
      if (typeof edit !== "object" || edit === null || Array.isArray(edit)) {
        throw new TypeError(
          `resume: the edited args for ${JSON.stringify(id)} must be an object of the tool's arguments (as in its pending entry's args); got ${Array.isArray(edit) ? "an array" : edit === null ? "null" : `a ${typeof edit}`}.`,
        );
      }
    }
    decided.set(id, decision);
  }
  const missing = state.pending.filter((entry) => !decided.has(entry.id));
  if (missing.length > 0) {
    throw new TypeError(
      `resume: no decision for ${describePending(missing)}. Every pending call needs one ({ id, approved: true } or { id, approved: false, reason }), since the model's API rejects a conversation with an unanswered call; nothing was run.`,
    );
  }
  const rejections: (string | undefined)[] = new Array(state.calls.length).fill(undefined);
  const edits: (Record<string, unknown> | undefined)[] = new Array(state.calls.length).fill(undefined);
  for (const entry of state.pending) {
    const decision = decided.get(entry.id)!;
    if (!decision.approved) rejections[entry.index] = rejectionText(entry.name, decision.reason);
    else if (decision.args !== undefined) {
      // A copy through JSON: what the human sent, as plain data the tool cannot share with the caller (refused
      // first, as a TypeError, when JSON cannot write it).
      untrustedJson(decision.args, "an edit's arguments");
      const edit = JSON.parse(JSON.stringify(decision.args)) as Record<string, unknown>;
      if (canonicalJson(edit) !== canonicalJson(entry.args)) edits[entry.index] = edit;
    }
  }
  return { rejections, edits };
}

function describePending(entries: readonly PendingApproval[]): string {
  return entries.map((entry) => `${entry.id} (${entry.name})`).join(", ");
}

/** What the model reads for a rejected call. */
function rejectionText(name: string, reason: string | undefined): string {
  const base = `The user rejected this call of ${name}, so it was not run.`;
  return reason === undefined || reason === "" ? base : `${base} Reason: ${String(reason)}`;
}
