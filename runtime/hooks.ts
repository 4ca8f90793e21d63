/**
 * Observing calls: the hooks a registry and a dispatch accept, the events they receive, and calling them safely.
 *
 * Every call answered with a ToolMessage produces `onToolStart`, then `onToolError` if it failed, then `onToolEnd`
 * with the message. Start fires once the arguments are read (so the event holds them as the tool receives them);
 * a call the caller aborted produces `onToolError` with `kind: "aborted"` and no end. The registry's hook runs
 * first, then the dispatch's. Hooks observe and never steer: a hook that throws, or returns a promise that rejects,
 * is ignored and the call goes on (nothing is awaited or logged). Without hooks no event is built.
 */
import type { Coercion } from "./coerce";
import type { ToolCall, ToolMessage, ToolMessageStatus } from "./messages";
import type { RegisteredTool } from "./registry";
import type { RepairKind } from "./repair";

export interface ToolEvent {
  /** The call as the tool receives it: name, id, and the arguments after repair and coercion (`{}` if unreadable). */
  readonly call: ToolCall;
  /** The registered tool, or `undefined` when the model named a tool that is not registered. */
  readonly tool: RegisteredTool | undefined;
  /** The tool's `tags` option (`[]` without). */
  readonly tags: readonly string[];
  /** The tool's `metadata` option overlaid with the dispatch's `metadata`, as in `ToolContext`. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** JSON slips repaired in the arguments text (`[]` when it was strict JSON). */
  readonly repairs: readonly RepairKind[];
  /** Values converted to the schema's types (`[]` when none were). */
  readonly coercions: readonly Coercion[];
}

export interface ToolEndEvent extends ToolEvent {
  /** Milliseconds from the call's start (after any wait for a concurrency slot) to its message. */
  readonly durationMs: number;
  readonly status: ToolMessageStatus;
  /** The answer sent back to the model. */
  readonly message: ToolMessage;
}

export interface ToolErrorEvent extends ToolEvent {
  readonly durationMs: number;
  /**
   * `"validation"`: the model's call could not be used (unknown tool, unreadable or invalid arguments);
   * `"tool"`: the tool failed (threw, timed out, returned what cannot be sent); `"aborted"`: the caller aborted.
   */
  readonly kind: "validation" | "tool" | "aborted";
  /** The ToolValidationError, the tool's own error, a ToolTimeoutError or ToolResultError, or the abort reason. */
  readonly error: unknown;
}

export interface ToolHooks {
  onToolStart?: (event: ToolEvent) => void;
  onToolEnd?: (event: ToolEndEvent) => void;
  onToolError?: (event: ToolErrorEvent) => void;
}

/** The hooks of one call: the registry's, then the dispatch's. `undefined` when neither has any. */
export function callHooks(registry: ToolHooks, dispatch: ToolHooks): Required<ToolHooks> | undefined {
  if (!hasHooks(registry) && !hasHooks(dispatch)) return undefined;
  return {
    onToolStart: (event) => {
      emit(registry.onToolStart, event);
      emit(dispatch.onToolStart, event);
    },
    onToolEnd: (event) => {
      emit(registry.onToolEnd, event);
      emit(dispatch.onToolEnd, event);
    },
    onToolError: (event) => {
      emit(registry.onToolError, event);
      emit(dispatch.onToolError, event);
    },
  };
}

function hasHooks(hooks: ToolHooks): boolean {
  return hooks.onToolStart !== undefined || hooks.onToolEnd !== undefined || hooks.onToolError !== undefined;
}

function emit<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (typeof hook !== "function") return;
  try {
    const result: unknown = hook.call(undefined, event);
    // A hook may be async; its rejection must not surface as an unhandled rejection.
    if (typeof result === "object" && result !== null && typeof (result as { then?: unknown }).then === "function") {
      (result as PromiseLike<unknown>).then(undefined, () => {});
    }
  } catch {
    // Observation never changes the outcome of a call.
  }
}
