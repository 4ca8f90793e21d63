/**
 * Running the tool calls of one model reply for the agent loop, through the registry's public API (`runCalls`), and
 * learning from each answer what the loop needs beyond the ToolMessage:
 * - whether the model's arguments passed validation (a dispatch hook sees each validation failure, with the
 *   ToolValidationError and the arguments as read), for the retry streaks;
 * - in JSON Patch mode, which failed calls can be patched (the latest failure of each tool whose arguments were a
 *   readable object), the hint appended to their error text, and the `patch_tool_arguments` calls themselves:
 *   patch applied to the failed call's arguments, the repaired call dispatched under the patch call's id, so its
 *   answer is the answer to the patch call and the transcript stays valid (one answer per call id).
 */
import type { ToolErrorEvent } from "../dispatch/options";
import { ToolMessage } from "../dispatch/messages";
import type { DispatchOptions } from "../dispatch/options";
import type { ChatToolCall } from "../providers/openai-chat/client";
import type { ToolRegistry } from "../registry/registry";
import { ToolValidationError } from "../tool/errors";
import type { ToolAttempt } from "./errors";
import { PATCH_TOOL_NAME, applyJsonPatch, patchHint, readPatchCall } from "./json-patch";

/** What became of one call. */
export interface CallOutcome {
  readonly call: ChatToolCall;
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

/** A validation failure seen by the hook: the error, and the arguments as dispatch read them. */
interface Captured {
  error: ToolValidationError;
  args: Record<string, unknown>;
}

export class CallExecutor {
  readonly #registry: ToolRegistry;
  readonly #options: DispatchOptions;
  readonly #jsonPatch: boolean;
  /** Failed calls the model may patch: call id → the tool and its arguments. */
  readonly #patchable = new Map<string, { toolName: string; args: Record<string, unknown> }>();

  constructor(registry: ToolRegistry, options: DispatchOptions, jsonPatch: boolean) {
    this.#registry = registry;
    this.#options = options;
    this.#jsonPatch = jsonPatch;
  }

  /** The calls that can be patched now: id → tool name (empty unless in JSON Patch mode). */
  get patchable(): ReadonlyMap<string, string> {
    return new Map([...this.#patchable].map(([id, entry]) => [id, entry.toolName]));
  }

  /** Run every call of a reply as one dispatch (its `maxConcurrency` and `timeoutMs` apply to them together). */
  async runAll(calls: readonly ChatToolCall[]): Promise<CallOutcome[]> {
    const patches = calls.filter((call) => this.#isPatch(call));
    const plain = calls.filter((call) => !this.#isPatch(call));
    const [dispatched, patched] = await Promise.all([
      plain.length > 0 ? this.#dispatch(plain) : Promise.resolve([]),
      Promise.all(patches.map((call) => this.#patch(call))),
    ]);
    const byCall = new Map<ChatToolCall, CallOutcome>();
    plain.forEach((call, i) => byCall.set(call, dispatched[i]!));
    patches.forEach((call, i) => byCall.set(call, patched[i]!));
    return calls.map((call) => byCall.get(call)!);
  }

  /** Run one call on its own (streaming: each call starts as soon as it is complete). */
  async runOne(call: ChatToolCall): Promise<CallOutcome> {
    if (this.#isPatch(call)) return this.#patch(call);
    const [outcome] = await this.#dispatch([call]);
    return outcome!;
  }

  /** After a step, in call order: a tool called validly has nothing left to patch; its latest invalid call does. */
  settle(outcomes: readonly CallOutcome[]): void {
    if (!this.#jsonPatch) return;
    for (const outcome of outcomes) {
      if (!outcome.validated && !outcome.patchable) continue;
      for (const [id, entry] of this.#patchable) {
        if (entry.toolName === outcome.toolName) this.#patchable.delete(id);
      }
      if (outcome.patchable) this.#patchable.set(outcome.call.id, { toolName: outcome.toolName, args: outcome.patchable });
    }
  }

  #isPatch(call: ChatToolCall): boolean {
    return this.#jsonPatch && call.type === "function" && call.function.name === PATCH_TOOL_NAME;
  }

  /** Dispatch calls through the registry, watching for validation failures. */
  async #dispatch(calls: readonly ChatToolCall[], repaired?: { args: Record<string, unknown>; name: string; patch: ToolAttempt["patch"] }): Promise<CallOutcome[]> {
    const captured = new Map<string, Captured[]>();
    const own = this.#options.onToolError;
    const options: DispatchOptions = {
      ...this.#options,
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
    const message = repaired
      ? { tool_calls: [{ id: calls[0]!.id, name: repaired.name, args: repaired.args, type: "tool_call" as const }] }
      : { role: "assistant", content: null, tool_calls: [...calls] };
    const results = await this.#registry.runCalls(message, options);
    return calls.map((call, i) => {
      const result = results[i]!;
      const seen = captured.get(call.id)?.shift();
      const toolName = repaired?.name ?? nameOf(call);
      // No validation failure: the arguments were valid, whether or not the tool then succeeded.
      if (!seen) return { call, result, toolName, validated: true };
      const { error, args } = seen;
      const patchable = this.#jsonPatch && error.reason === "invalid_arguments" ? (JSON.parse(JSON.stringify(args)) as Record<string, unknown>) : undefined;
      if (patchable) result.content += `\n${patchHint(call.id, repaired ? patchable : undefined)}`;
      const failure: Omit<ToolAttempt, "step"> = {
        toolName,
        toolCallId: call.id,
        arguments: repaired ? JSON.stringify(repaired.args) : argumentsOf(call),
        ...(repaired?.patch ? { patch: repaired.patch } : {}),
        reason: error.reason,
        issues: error.issues.length > 0 ? [...error.issues] : [error.message],
        errors: [...error.errors],
        message: result.content,
      };
      return patchable ? { call, result, toolName, validated: false, failure, patchable } : { call, result, toolName, validated: false, failure };
    });
  }

  /** A `patch_tool_arguments` call: apply it to the failed call's arguments and dispatch the repaired call. */
  async #patch(call: ChatToolCall): Promise<CallOutcome> {
    const text = argumentsOf(call);
    const read = readPatchCall(text);
    const target = read.toolCallId === undefined ? undefined : this.#patchable.get(read.toolCallId);
    const toolName = target?.toolName ?? PATCH_TOOL_NAME;
    const refuse = (content: string, issues: string[]): CallOutcome => {
      const result = new ToolMessage({ tool_call_id: call.id, name: PATCH_TOOL_NAME, content, status: "error" });
      const failure: Omit<ToolAttempt, "step"> = {
        toolName,
        toolCallId: call.id,
        arguments: text,
        reason: "invalid_patch",
        issues,
        errors: [],
        message: content,
      };
      return { call, result, toolName, validated: false, failure };
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
      const then = open.length > 0 ? `Calls you can repair: ${open.join(", ")}.` : "No call is waiting for a repair: call the tool itself instead.";
      return refuse(`Error: ${issue}. ${then}`, [issue]);
    }
    const applied = applyJsonPatch(target.args, read.patch);
    if (!applied.ok) {
      return refuse(
        `Error: the JSON Patch for call ${read.toolCallId} (${target.toolName}) could not be applied, so nothing was changed:\n${applied.issues.map((line) => `- ${line}`).join("\n")}\n${patchHint(read.toolCallId, target.args)}`,
        applied.issues,
      );
    }
    const [outcome] = await this.#dispatch([call], { args: applied.value, name: target.toolName, patch: read.patch });
    return outcome!;
  }
}

function nameOf(call: ChatToolCall): string {
  return call.type === "custom" ? call.custom.name : call.function.name;
}

function argumentsOf(call: ChatToolCall): string {
  return call.type === "custom" ? call.custom.input : call.function.arguments;
}
