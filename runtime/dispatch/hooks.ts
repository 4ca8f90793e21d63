/**
 * Observing calls: calling the hooks a registry and a dispatch accept (their types and events are in options.ts,
 * with the settings that carry them), safely.
 *
 * Every call answered with a ToolMessage produces `onToolStart`, then `onToolError` if it failed, then `onToolEnd`
 * with the message. Start fires once the arguments are read (so the event holds them as the tool receives them);
 * a call the caller aborted produces `onToolError` with `kind: "aborted"` and no end. The registry's hook runs
 * first, then the dispatch's. Hooks observe and never steer: a hook that throws, or returns a promise that rejects,
 * is ignored and the call goes on (nothing is awaited or logged). Without hooks no event is built.
 */
import type { ToolHooks } from "./options";

export type { ToolEndEvent, ToolErrorEvent, ToolEvent, ToolHooks } from "./options";

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

export function hasHooks(hooks: ToolHooks): boolean {
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
