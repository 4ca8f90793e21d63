/**
 * The span wrapper of a traced dispatch, loaded only once tracing is on (tool-spans.ts: `useOpenTelemetry` brings it
 * into a bundle, `#lazy/tool-spans` requires it under Node), so an untraced app does not carry it.
 */
import { loadToolSpans } from "#lazy/tool-spans";
import type { Tracing } from "../telemetry/tracing";
import type { DispatchOptions } from "./options";
import type { SpanWrapper, TracedDispatchOptions } from "./trace-parent";

let given: SpanWrapper | undefined;

/** Called by `useOpenTelemetry`, which imports the wrapper: the way it reaches a bundle. */
export function giveToolSpans(wrapper: SpanWrapper): void {
  given = wrapper;
}

/** `options` with each call's span added. */
export function withToolSpans(options: TracedDispatchOptions, tracing: Tracing): DispatchOptions {
  return (given ?? loadToolSpans())(options, tracing);
}
