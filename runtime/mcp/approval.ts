/**
 * Human approval of a `needsApproval` tool called over MCP, without server memory: the server pauses the call, asks
 * the client's user through an elicitation, and resumes when the client retries the call with the answer.
 */
import { canonicalJson, sameSeal, seal } from "../dispatch/approval-seal";
import type { ApprovalDecision, ApprovalStateData } from "../dispatch/approval";
import { readJson } from "../arguments/read/bounded-json";
import { MAX_ARGUMENTS_BYTES, MAX_ARGUMENTS_DEPTH } from "../arguments/read/read-arguments";
import { isRecord } from "./protocol";
import { showArguments } from "./shown-arguments";

/** The key of the one input request an approval asks. */
export const APPROVAL_INPUT = "approval";
/** Default time a client has to come back with the user's answer. */
export const MCP_APPROVAL_TTL_MS = 15 * 60 * 1000;

/** Arguments longer than this as JSON are offered for no edit (a form field is no place for them); the question says so. */
const EDITABLE_CHARS = 65_536;

/**
 * The form elicitation that asks the user about one call (`mode` only where the client's revision knows it). Where
 * the revision has form defaults (2025-11-25 and later), it also offers the arguments as JSON text to edit: an
 * approval with other arguments runs the tool with those, checked again first (docs/running-tool-calls.md). The
 * 2026-07-28 revision asks it in an `input_required` result (`inputRequests.approval`), the paused call as
 * `requestState`, and the retry brings both back (`inputResponses`, `requestState`); older revisions on a live
 * connection (stdio) send it as `elicitation/create` and wait. A client that declares no elicitation gets a tool
 * error saying so; nothing runs.
 */
export function approvalQuestion(name: string, args: unknown, withMode: boolean): Record<string, unknown> {
  const full = canonicalJson(args);
  const editable = withMode && full.length <= EDITABLE_CHARS;
  const tooLong =
    withMode && !editable
      ? `\nThe arguments (${full.length} characters of JSON) are too long to offer for editing here.`
      : "";
  return {
    ...(withMode ? { mode: "form" } : {}),
    message: `The assistant wants to run the tool "${name}" with these arguments:\n${showArguments(args)}${tooLong}\nAllow it?`,
    requestedSchema: {
      type: "object",
      properties: {
        approve: {
          type: "boolean",
          title: `Run ${name}`,
          description: "true runs the tool once with the arguments shown; false refuses it.",
        },
        ...(editable
          ? {
              arguments: {
                type: "string",
                title: "Arguments (JSON)",
                description: "Edit to run it with other arguments; they are checked again before it runs.",
                default: full,
              },
            }
          : {}),
      },
      required: ["approve"],
    },
  };
}

/**
 * The user's decision on call `id` from an elicitation answer: only an accepted form with `approve: true` runs it,
 * with the arguments the form gave back where they differ from those shown (`shown`). Edited text that is not a
 * JSON object refuses the call, saying why: the model reads it and may try again.
 */
export function decisionFrom(id: string, answer: unknown, shown?: unknown): ApprovalDecision | undefined {
  if (!isRecord(answer) || typeof answer.action !== "string") return undefined;
  if (answer.action === "accept" && isRecord(answer.content) && answer.content.approve === true) {
    const edited = answer.content.arguments;
    if (typeof edited !== "string" || shown === undefined || edited === canonicalJson(shown))
      return { id, approved: true };
    const read = readJson(edited, { maxBytes: MAX_ARGUMENTS_BYTES, maxDepth: MAX_ARGUMENTS_DEPTH });
    if (!read.ok) {
      const why =
        read.problem === "json"
          ? `not JSON (${read.detail})`
          : read.problem === "too_long"
            ? `larger than ${read.limit} bytes`
            : `nested deeper than ${read.limit} levels`;
      return {
        id,
        approved: false,
        reason: `The user approved it with edited arguments that are ${why}; it was not run.`,
      };
    }
    const args = read.value;
    if (!isRecord(args))
      return {
        id,
        approved: false,
        reason: "The user approved it with edited arguments that are not a JSON object; it was not run.",
      };
    return canonicalJson(args) === canonicalJson(shown) ? { id, approved: true } : { id, approved: true, args };
  }
  if (answer.action === "accept") return { id, approved: false, reason: "The user did not approve it." };
  return {
    id,
    approved: false,
    reason: answer.action === "decline" ? "The user declined." : "The user dismissed the question.",
  };
}

/** What a request state binds besides the paused call: who asked and for which tool call. */
export interface StateBinding {
  caller: string;
  name: string;
  args: unknown;
}

interface Sealed {
  /** 2: the seal is over the state's text as sent (1, before, was over its canonical JSON, parsed first). */
  v: 2;
  state: ApprovalStateData;
  caller: string;
  expiresAt: number;
}

/**
 * Seals and encodes a paused call for `requestState`. The state passes through the client, so it is sealed
 * (HMAC-SHA-256 over its canonical JSON) with the registry's `approvalSecret` or the process's own key; the seal binds
 * the paused call (tool and arguments), the caller that `authenticate` named and an expiry, and the registry resumes
 * a state once.
 */
export async function encodeRequestState(
  secret: string | Uint8Array,
  state: ApprovalStateData,
  binding: StateBinding,
  ttlMs: number,
): Promise<string> {
  const body: Sealed = { v: 2, state, caller: binding.caller, expiresAt: Date.now() + ttlMs };
  // The seal is over the exact text sent, so a state coming back is checked before any of it is parsed.
  const text = JSON.stringify(body);
  return `${toBase64Url(text)}.${await seal(secret, text)}`;
}

/** A `requestState` longer than this is no state this server issued (a paused call's arguments are at most 1 MiB). */
const MAX_STATE_CHARS = 3_000_000;
/** The nesting a state may have: the arguments' own limit and the few levels of the state around them. */
const STATE_BOUNDS = { maxBytes: MAX_STATE_CHARS, maxDepth: MAX_ARGUMENTS_DEPTH + 8 };

/**
 * The paused call of a `requestState`, or why it is refused: not this server's (seal), changed, expired, presented by
 * another caller, or brought back on a call of another tool or other arguments than the ones the user was shown.
 */
export async function decodeRequestState(
  secret: string | Uint8Array,
  text: unknown,
  binding: StateBinding,
): Promise<ApprovalStateData | string> {
  const foreign = "it is not a state this server issued";
  if (typeof text !== "string" || text.length > MAX_STATE_CHARS) return foreign;
  const dot = text.lastIndexOf(".");
  if (dot < 0 || !/^[0-9a-f]{64}$/.test(text.slice(dot + 1))) return foreign;
  let raw: string;
  try {
    raw = fromBase64Url(text.slice(0, dot));
  } catch {
    return foreign;
  }
  // The seal first, over the bytes as they came: nothing of a state this server did not seal is ever parsed.
  if (!sameSeal(text.slice(dot + 1), await seal(secret, raw)))
    return "its seal does not match (it was changed, or issued by another server)";
  const read = readJson(raw, STATE_BOUNDS);
  if (!read.ok || !isRecord(read.value) || read.value.v !== 2) return foreign;
  const body = read.value as unknown as Sealed;
  if (typeof body.expiresAt !== "number" || Date.now() > body.expiresAt)
    return "it expired; call the tool again to ask anew";
  if (body.caller !== binding.caller) return "it was issued to another caller";
  const call = body.state?.calls?.[0];
  if (
    call?.kind !== "args" ||
    call.name !== binding.name ||
    canonicalJson(call.args) !== canonicalJson(binding.args ?? {})
  ) {
    return "it belongs to another call (the tool or its arguments differ from the ones the user was asked about)";
  }
  return body.state;
}

/**
 * A per-process key for servers whose registry has no `approvalSecret`: then only this process can resume a paused
 * call, so a service of several instances sets `approvalSecret`.
 */
let processKey: Uint8Array | undefined;
export function ownKey(): Uint8Array {
  return (processKey ??= crypto.getRandomValues(new Uint8Array(32)));
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
