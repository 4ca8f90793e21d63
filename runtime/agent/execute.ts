/**
 * Running the tool calls of one model reply for the agent loop, whatever the model API, through the registry's
 * dispatch, and learning from each answer what the loop needs beyond the ToolMessage.
 */
import { argumentsText } from "./call-text";
import type { NormalizedCall } from "../dispatch/call";
import { ToolMessage } from "../dispatch/messages";
import { TRACE_PARENT, type TracedDispatchOptions } from "../dispatch/trace-parent";
import type { OTelContext } from "../telemetry/otel-api";
import type { DispatchOptions, ToolErrorEvent, ToolProgress, ToolYield } from "../dispatch/options";
import type { ToolCall } from "../tool/call";
import { type BaseToolRegistry as ToolRegistry, type LoopAccess, loopAccess } from "../registry/core";
import { ToolValidationError } from "../tool/errors";
import type { ToolAttempt } from "./errors";
import { PATCH_TOOL_NAME, applyJsonPatch, patchHint, readPatchCall } from "./json-patch";
import { type LocalToolSearch, SEARCH_TOOL_NAME } from "./tool-search";

/** A call of a reply: the model API's own form, and as dispatch reads it. */
export interface ReplyCall<Call = unknown> {
  readonly call: Call;
  readonly read: NormalizedCall;
}

/** What became of one call. */
export interface CallOutcome<Call = unknown> {
  readonly call: Call;
  /** The id its answer carries. */
  readonly callId: string;
  readonly result: ToolMessage;
  /** The tool the call was for (for a `patch_tool_arguments` call, the tool being repaired, when known). */
  readonly toolName: string;
  /** The arguments passed validation (the tool ran, whether or not it then succeeded). */
  readonly validated: boolean;
  /** Set when the model got the call wrong. */
  readonly failure?: Omit<ToolAttempt, "step">;
  /** In JSON Patch mode: the arguments of an invalid call, as read, for a later patch. */
  readonly patchable?: Record<string, unknown>;
}

/** A patch call's repair: the arguments patched, the tool they are for, the patch. */
interface Repair {
  readonly args: Record<string, unknown>;
  readonly name: string;
  readonly patch: ToolAttempt["patch"];
}

/** A call the registry answers: as dispatch reads it (for a patch call, the repaired call under the patch call's id). */
interface Routed<Call> {
  readonly call: ReplyCall<Call>;
  readonly read: NormalizedCall;
  readonly repaired?: Repair;
}

/** What the executor carries from one step to the next, as plain JSON (kept in the state of a paused run). */
export interface SavedCalls {
  /** In JSON Patch mode, the failed calls that can still be patched. */
  readonly patchable?: readonly {
    readonly id: string;
    readonly toolName: string;
    readonly args: Record<string, unknown>;
  }[];
  /** The registered tools offered in the step (absent: all of them). */
  readonly activeTools?: readonly string[];
}

/** A validation failure seen by the hook: the error, and the arguments as dispatch read them. */
interface Captured {
  error: ToolValidationError;
  args: Record<string, unknown>;
}

/**
 * Runs a reply's calls (each as its provider read it) through the registry's dispatch and learns from each answer
 * what the loop needs beyond the ToolMessage:
 * - whether the model's arguments passed validation (a dispatch hook sees each validation failure, with the
 *   ToolValidationError and the arguments as read), for the retry streaks;
 * - in JSON Patch mode, which failed calls can be patched (the latest failure of each tool whose arguments were a
 *   readable object), the hint appended to their error text, and the `patch_tool_arguments` calls themselves:
 *   patch applied to the failed call's arguments, the repaired call dispatched under the patch call's id, so its
 *   answer is the answer to the patch call and the transcript stays valid (one answer per call id);
 * - with `prepareStep`'s active tools, a call to a registered tool not offered in the step is answered as unavailable;
 * - with the loop's own tool search, its `search_tools` calls are answered by the search (tool-search.ts);
 * - streamed, each call runs as soon as it is complete, yet `maxCallsPerMessage` caps the reply as dispatch caps a
 *   whole one: the calls past the cap wait for the end of the stream (their text names the reply's total) and never
 * run;
 * - paused for approval, the registry sees only the calls it answers (a patch call as the repaired call it stands
 *   for), and the loop's own calls are answered on resume as in any step, with what the executor kept (`saved`).
 */
export class CallExecutor<Call = unknown> {
  readonly #registry: ToolRegistry;
  readonly #options: DispatchOptions;
  /** The context the current step's calls are traced under (step-span.ts), when they are traced. */
  #traceParent: OTelContext | undefined;
  readonly #jsonPatch: boolean;
  /** Failed calls the model may patch: call id → the tool and its arguments. */
  readonly #patchable = new Map<string, { toolName: string; args: Record<string, unknown> }>();
  #active: ReadonlySet<string> | undefined;
  /** The loop's own tool search, when the run has one: it answers `search_tools` calls. */
  search: LocalToolSearch | undefined;
  /** Told of each progress report of a call, with the model API's call it belongs to (a streamed run's events). */
  onProgress: ((call: Call, update: ToolProgress, yielded: ToolYield | undefined) => void) | undefined;

  constructor(registry: ToolRegistry, options: DispatchOptions, jsonPatch: boolean) {
    this.#registry = registry;
    this.#options = options;
    this.#jsonPatch = jsonPatch;
  }

  /** Trace the next calls under `context` (the step's span), or as dispatch would on its own (`undefined`). */
  traceUnder(context: OTelContext | undefined): void {
    this.#traceParent = context;
  }

  /** The registered tools offered in the current step (`undefined`: all of them). */
  get active(): ReadonlySet<string> | undefined {
    return this.#active;
  }

  /**
   * Offer only `names` in this step (`undefined`: every tool). A failed call of a tool no longer offered can no
   * longer be patched: a patch would run a tool the step took away.
   */
  setActive(names: ReadonlySet<string> | undefined): void {
    this.#active = names;
    if (names === undefined) return;
    for (const [id, entry] of this.#patchable) {
      if (!names.has(entry.toolName)) this.#patchable.delete(id);
    }
  }

  /** The calls that can be patched now: id → tool name (empty unless in JSON Patch mode). */
  get patchable(): ReadonlyMap<string, string> {
    return new Map([...this.#patchable].map(([id, entry]) => [id, entry.toolName]));
  }

  /** What this executor keeps between steps, as plain JSON. */
  saved(): SavedCalls {
    return {
      ...(this.#patchable.size > 0
        ? {
            patchable: [...this.#patchable].map(([id, entry]) => ({
              id,
              toolName: entry.toolName,
              args: JSON.parse(JSON.stringify(entry.args)) as Record<string, unknown>,
            })),
          }
        : {}),
      ...(this.#active ? { activeTools: [...this.#active] } : {}),
    };
  }

  /** Take up what a paused run's executor kept (`saved`), read back from JSON; a TypeError if it is malformed. */
  restore(saved: SavedCalls): void {
    const { patchable, activeTools } = saved;
    if (patchable !== undefined) {
      const wellFormed =
        Array.isArray(patchable) &&
        patchable.every(
          (entry) =>
            typeof entry?.id === "string" &&
            typeof entry.toolName === "string" &&
            typeof entry.args === "object" &&
            entry.args !== null &&
            !Array.isArray(entry.args),
        );
      if (!wellFormed)
        throw new TypeError(
          "resume: the state's patchable calls are malformed (each is { id, toolName, args }); pass the state runTools returned, after JSON.parse.",
        );
      this.#patchable.clear();
      for (const entry of patchable) this.#patchable.set(entry.id, { toolName: entry.toolName, args: entry.args });
    }
    if (activeTools !== undefined) {
      if (!Array.isArray(activeTools) || !activeTools.every((name) => typeof name === "string"))
        throw new TypeError("resume: the state's activeTools must be an array of tool names.");
      this.setActive(new Set(activeTools));
    }
  }

  /**
   * The calls of a reply that the registry answers, as dispatch reads them and in reply order: the batch a pause for
   * approval checks and keeps. A patch call that applies is there as its repaired call (so a repaired call of a tool
   * that needs approval waits for a human like any other); the loop's own calls (a search, a patch that cannot
   * apply, a tool not offered in the step) are not: the loop answers them itself.
   */
  forRegistry(calls: readonly ReplyCall<Call>[]): NormalizedCall[] {
    return calls.flatMap((call) => {
      const routed = this.#route(call);
      return routed ? [routed.read] : [];
    });
  }

  /**
   * The calls of a reply paused for approval, answered on resume: the registry's calls by `resume` (the paused batch,
   * each as the human decided), the loop's own as in any step. Outcomes in reply order. `edited`: the places in the
   * batch of the calls a human gave arguments to, whose validation failures are not the model's (nothing to patch,
   * no failed attempt).
   */
  async resumeAll(
    calls: readonly ReplyCall<Call>[],
    edited: ReadonlySet<number>,
    resume: (batch: NormalizedCall[], options: DispatchOptions) => Promise<ToolMessage[]>,
  ): Promise<CallOutcome<Call>[]> {
    const routes = calls.map((call) => this.#route(call));
    const registry = routes.filter((routed): routed is Routed<Call> => routed !== undefined);
    const answered = await this.#dispatch(registry, resume, edited);
    const byCall = new Map<ReplyCall<Call>, CallOutcome<Call>>();
    registry.forEach((routed, i) => {
      byCall.set(routed.call, answered[i]!);
    });
    const outcomes: CallOutcome<Call>[] = [];
    for (const call of calls) outcomes.push(byCall.get(call) ?? (await this.runOne(call)));
    return outcomes;
  }

  /** Run every call of a reply as one dispatch (its `maxConcurrency` and `timeoutMs` apply to them together). */
  async runAll(calls: readonly ReplyCall<Call>[]): Promise<CallOutcome<Call>[]> {
    const special = calls.filter((call) => this.#isPatch(call) || this.#isSearch(call) || this.#unavailable(call));
    const plain = calls.filter((call) => !special.includes(call));
    const [dispatched, handled] = await Promise.all([
      plain.length > 0 ? this.#dispatch(plain.map(asIs)) : Promise.resolve([]),
      Promise.all(special.map((call) => this.runOne(call))),
    ]);
    const byCall = new Map<ReplyCall<Call>, CallOutcome<Call>>();
    plain.forEach((call, i) => {
      byCall.set(call, dispatched[i]!);
    });
    special.forEach((call, i) => {
      byCall.set(call, handled[i]!);
    });
    return calls.map((call) => byCall.get(call)!);
  }

  /** Run one call on its own (streaming: each call starts as soon as it is complete). */
  async runOne(call: ReplyCall<Call>): Promise<CallOutcome<Call>> {
    if (this.#isPatch(call)) return this.#patch(call);
    if (this.#isSearch(call)) return this.#searchTools(call);
    if (this.#unavailable(call)) return this.#refuseUnavailable(call);
    const [outcome] = await this.#dispatch([asIs(call)]);
    return outcome!;
  }

  /** How the registry answers a call (`undefined`: the loop answers it itself). */
  #route(call: ReplyCall<Call>): Routed<Call> | undefined {
    if (this.#isSearch(call) || this.#unavailable(call)) return undefined;
    if (!this.#isPatch(call)) return asIs(call);
    const resolved = this.#resolvePatch(call);
    if ("refusal" in resolved) return undefined;
    const { repaired } = resolved;
    return { call, read: { kind: "args", id: call.read.id, name: repaired.name, args: repaired.args }, repaired };
  }

  /**
   * The calls of one streamed reply, each run (`run`) as soon as it is complete. The calls dispatch would run of the
   * whole reply (all but patch and unavailable calls) count towards `maxCallsPerMessage`; those past it are answered
   * with the limit, like dispatch answers them, once `end` says how many calls the reply made.
   */
  streamed(): { run(call: ReplyCall<Call>): Promise<CallOutcome<Call>>; end(): void } {
    let cap: number;
    try {
      cap = loopAccess(this.#registry, "runTools").callsCap(this.#options);
    } catch {
      // An unusable option: each dispatch rejects with the same RangeError.
      cap = Infinity;
    }
    let counted = 0;
    const beyond: ReplyCall<Call>[] = [];
    let endReply!: (total: number) => void;
    const ended = new Promise<number>((resolve) => (endReply = resolve));
    let refused: Promise<CallOutcome<Call>[]> | undefined;
    return {
      run: (call) => {
        if (this.#isPatch(call) || this.#isSearch(call) || this.#unavailable(call) || ++counted <= cap)
          return this.runOne(call);
        const index = beyond.push(call) - 1;
        refused ??= ended.then((total) =>
          this.#dispatch(beyond.map(asIs), (read, options) =>
            viaAccess(this.#registry, (access) => access.refuse(read, options, total)),
          ),
        );
        return refused.then((outcomes) => outcomes[index]!);
      },
      end: () => endReply(counted),
    };
  }

  /** After a step, in call order: a tool called validly has nothing left to patch; its latest invalid call does. */
  settle(outcomes: readonly CallOutcome<Call>[]): void {
    if (!this.#jsonPatch) return;
    for (const outcome of outcomes) {
      if (!outcome.validated && !outcome.patchable) continue;
      for (const [id, entry] of this.#patchable) {
        if (entry.toolName === outcome.toolName) this.#patchable.delete(id);
      }
      if (outcome.patchable)
        this.#patchable.set(outcome.callId, { toolName: outcome.toolName, args: outcome.patchable });
    }
  }

  #isPatch(call: ReplyCall<Call>): boolean {
    return this.#jsonPatch && call.read.kind !== "invalid" && call.read.name === PATCH_TOOL_NAME;
  }

  #isSearch(call: ReplyCall<Call>): boolean {
    return this.search !== undefined && call.read.name === SEARCH_TOOL_NAME;
  }

  #searchTools(call: ReplyCall<Call>): CallOutcome<Call> {
    const { result, failure } = this.search!.answer(call.read);
    const base = { call: call.call, callId: call.read.id, result, toolName: SEARCH_TOOL_NAME };
    return failure ? { ...base, validated: false, failure } : { ...base, validated: true };
  }

  /** A registered tool that this step does not offer. */
  #unavailable(call: ReplyCall<Call>): boolean {
    return this.#active !== undefined && !this.#active.has(call.read.name) && this.#registry.has(call.read.name);
  }

  #refuseUnavailable(call: ReplyCall<Call>): CallOutcome<Call> {
    const { id, name } = call.read;
    const offered = [...(this.#active ?? [])];
    const content = `Error: ${name} is not available in this step. ${offered.length > 0 ? `Available tools: ${offered.join(", ")}.` : "No tools are available now: answer without calling one."}`;
    const result = new ToolMessage({ tool_call_id: id, name, content, status: "error" });
    const failure: Omit<ToolAttempt, "step"> = {
      toolName: name,
      toolCallId: id,
      arguments: argumentsText(call.read),
      reason: "unknown_tool",
      issues: [content],
      errors: [],
      message: content,
    };
    return { call: call.call, callId: id, result, toolName: name, validated: false, failure };
  }

  /** Dispatch calls through the registry (or `send` them otherwise), watching for validation failures. */
  async #dispatch(
    calls: readonly Routed<Call>[],
    send: (read: NormalizedCall[], options: DispatchOptions) => Promise<ToolMessage[]> = (read, options) =>
      viaAccess(this.#registry, (access) => access.dispatch(read, options)),
    byHuman: ReadonlySet<number> = NONE,
  ): Promise<CallOutcome<Call>[]> {
    const captured = new Map<string, Captured[]>();
    const own = this.#options.onToolError;
    const listener = this.onProgress;
    const ownProgress = this.#options.onProgress;
    const options: TracedDispatchOptions = {
      ...this.#options,
      ...(this.#traceParent === undefined ? {} : { [TRACE_PARENT]: this.#traceParent }),
      ...(listener
        ? {
            onProgress: (update: ToolProgress, toolCall: ToolCall, yielded?: ToolYield) => {
              ownProgress?.(update, toolCall, yielded);
              const from = calls.find((routed) => routed.read.id === toolCall.id);
              if (from) listener(from.call.call, update, yielded);
            },
          }
        : {}),
      onToolError: (event: ToolErrorEvent) => {
        if (event.kind === "validation" && event.error instanceof ToolValidationError) {
          const list = captured.get(event.call.id) ?? [];
          list.push({ error: event.error, args: event.call.args });
          captured.set(event.call.id, list);
        }
        // Returned, so that dispatch also swallows a rejection of the caller's own async hook.
        return own?.call(undefined, event);
      },
    };
    // Sent even when empty: a resume checks its state (seal, expiry, once only) whatever the batch.
    const results = await send(
      calls.map((routed) => routed.read),
      options,
    );
    return calls.map(({ call: { call, read: asSent }, read: { id, name: toolName }, repaired }, i) => {
      const result = results[i]!;
      const seen = captured.get(id)?.shift();
      // No validation failure: the arguments were valid, whether or not the tool then succeeded.
      if (!seen) return { call, callId: id, result, toolName, validated: true };
      if (byHuman.has(i)) return { call, callId: id, result, toolName, validated: false };
      const { error, args } = seen;
      const patchable =
        this.#jsonPatch && error.reason === "invalid_arguments"
          ? (JSON.parse(JSON.stringify(args)) as Record<string, unknown>)
          : undefined;
      if (patchable) result.content += `\n${patchHint(id, repaired ? patchable : undefined)}`;
      const failure: Omit<ToolAttempt, "step"> = {
        toolName,
        toolCallId: id,
        arguments: repaired ? JSON.stringify(repaired.args) : argumentsText(asSent),
        ...(repaired?.patch ? { patch: repaired.patch } : {}),
        reason: error.reason,
        issues: error.issues.length > 0 ? [...error.issues] : [error.message],
        errors: [...error.errors],
        message: result.content,
      };
      return patchable
        ? { call, callId: id, result, toolName, validated: false, failure, patchable }
        : { call, callId: id, result, toolName, validated: false, failure };
    });
  }

  /** A `patch_tool_arguments` call: apply it to the failed call's arguments and dispatch the repaired call. */
  async #patch(call: ReplyCall<Call>): Promise<CallOutcome<Call>> {
    const resolved = this.#resolvePatch(call);
    if ("refusal" in resolved) return resolved.refusal;
    const { repaired } = resolved;
    const [outcome] = await this.#dispatch([
      { call, read: { kind: "args", id: call.read.id, name: repaired.name, args: repaired.args }, repaired },
    ]);
    return outcome!;
  }

  /** What a patch call stands for: the repaired call, or the refusal that answers it (nothing to run). */
  #resolvePatch(call: ReplyCall<Call>): { repaired: Repair } | { refusal: CallOutcome<Call> } {
    const text = argumentsText(call.read);
    const id = call.read.id;
    const read = readPatchCall(text);
    const target = read.toolCallId === undefined ? undefined : this.#patchable.get(read.toolCallId);
    const toolName = target?.toolName ?? PATCH_TOOL_NAME;
    const refuse = (content: string, issues: string[]): { refusal: CallOutcome<Call> } => {
      const result = new ToolMessage({ tool_call_id: id, name: PATCH_TOOL_NAME, content, status: "error" });
      const failure: Omit<ToolAttempt, "step"> = {
        toolName,
        toolCallId: id,
        arguments: text,
        reason: "invalid_patch",
        issues,
        errors: [],
        message: content,
      };
      return { refusal: { call: call.call, callId: id, result, toolName, validated: false, failure } };
    };
    if (!read.ok) {
      return refuse(
        `Error: invalid arguments for ${PATCH_TOOL_NAME}:\n${read.issues.map((line) => `- ${line}`).join("\n")}\nCall ${PATCH_TOOL_NAME} again with corrected arguments.`,
        read.issues,
      );
    }
    if (!target) {
      const open = [...this.#patchable].map(([id, entry]) => `${id} (${entry.toolName})`);
      const issue = `there is no failed call with id ${JSON.stringify(read.toolCallId)} to repair`;
      const then =
        open.length > 0
          ? `Calls you can repair: ${open.join(", ")}.`
          : "No call is waiting for a repair: call the tool itself instead.";
      return refuse(`Error: ${issue}. ${then}`, [issue]);
    }
    if (this.#active !== undefined && !this.#active.has(target.toolName)) {
      const issue = `${target.toolName} is not available in this step, so call ${read.toolCallId} cannot be repaired`;
      const offered = [...this.#active];
      return refuse(
        `Error: ${issue}. ${offered.length > 0 ? `Available tools: ${offered.join(", ")}.` : "No tools are available now: answer without calling one."}`,
        [issue],
      );
    }
    const applied = applyJsonPatch(
      target.args,
      read.patch,
      loopAccess(this.#registry, "runTools").argumentLimits(target.toolName),
    );
    if (!applied.ok) {
      return refuse(
        `Error: the JSON Patch for call ${read.toolCallId} (${target.toolName}) could not be applied, so nothing was changed:\n${applied.issues.map((line) => `- ${line}`).join("\n")}\n${patchHint(read.toolCallId, target.args)}`,
        applied.issues,
      );
    }
    return { repaired: { args: applied.value, name: target.toolName, patch: read.patch } };
  }
}

const NONE: ReadonlySet<number> = new Set();

/** A call the registry answers as the model made it. */
function asIs<Call>(call: ReplyCall<Call>): Routed<Call> {
  return { call, read: call.read };
}

/** What `use` makes of the registry's `LoopAccess`; a rejection (not a throw) when it is no registry. */
function viaAccess<T>(registry: ToolRegistry, use: (access: LoopAccess) => Promise<T>): Promise<T> {
  try {
    return use(loopAccess(registry, "runTools"));
  } catch (error) {
    return Promise.reject(error);
  }
}
